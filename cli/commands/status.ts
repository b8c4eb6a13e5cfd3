import { runStatus, type StatusOptions } from '../light/status-run.js';
import { commandOf } from '../grammar/commander.js';

/**
 * How the program runs a status the light path leaves to it (cli/commands/status-signed-in.ts,
 * set by cli/main.ts).
 */
let signedInStatus: ((options: StatusOptions) => Promise<void>) | undefined;

/**
 * Sets how a status whose caller only the program can make runs (CI credentials, a session to
 * refresh first): the program gives it, so that this module (what `status` under commander
 * loads) reaches neither conf nor supabase-js.
 */
export function setSignedInStatus(run: (options: StatusOptions) => Promise<void>): void {
  signedInStatus = run;
}

export const statusCommand = commandOf('status', async ({ options }) => {
  if (await runStatus(options)) return;
  if (!signedInStatus) throw new Error('no way to sign in for the status');
  await signedInStatus(options);
});
