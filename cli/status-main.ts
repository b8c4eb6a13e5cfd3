import { handleError } from './errors.js';
import { runStatus, type StatusOptions } from './status-run.js';

/**
 * Runs `namecard status` without commander, reporting an error as the program does. One
 * module for the entry point to import, so the status path is one file to load.
 */
export async function statusMain(options: StatusOptions): Promise<void> {
  try {
    await runStatus(options);
  } catch (error) {
    process.exitCode = handleError(error);
  }
}
