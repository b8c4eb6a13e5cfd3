import { handleError } from '../errors.js';
import { loadProjectEnv } from '../session/project-env.js';
import { runStatus, type StatusOptions } from './status-run.js';

/**
 * Runs `namecard status` without commander, reporting an error as the program does: first the
 * settings from the project's `.env` (as the entry point reads them for every other command),
 * then the command. The build bundles this module and all it imports into one file
 * (dist/cli/light/status-main.js), so the status path is two files to load: the entry and this.
 *
 * @returns false when the line is the program's (CI credentials, a session to refresh first)
 */
export async function statusMain(options: StatusOptions): Promise<boolean> {
  loadProjectEnv();
  try {
    return await runStatus(options);
  } catch (error) {
    process.exitCode = handleError(error);
    return true;
  }
}
