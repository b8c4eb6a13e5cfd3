import { commandOf } from '../grammar/commander.js';
import { NetworkError, TimeoutError } from '../../shared/core/errors.js';
import { SessionError } from '../errors.js';
import { print, warn } from '../terminal/output.js';
import { resolveConfig } from '../session/settings.js';
import { readStoredStateOrNothing } from '../session/store-file.js';
import { terminalSafe } from '../terminal/terminal-safe.js';

export const logoutCommand = commandOf('logout', async ({ options }) => {
  // A broken stored config holds no usable session: delete it, so the CLI works again.
  const { state, broken } = readStoredStateOrNothing();
  const config = resolveConfig(options, process.env, state);
  const { openStore, restore } = await import('../session/session.js');
  const { store } = openStore(process.env, { replaceBroken: true });
  if (broken) {
    print(
      `Deleted the broken stored config ${broken.file}. Run \`namecard login\` to sign in again.`,
    );
    return;
  }
  const stored = store.get('session');
  if (!stored) {
    print('You are not signed in.');
    return;
  }

  // Revoke on the server first (it needs a fresh access token), then always delete locally.
  let note: string | undefined;
  if (stored.api_url !== config.supabaseUrl) {
    note = `the session for ${stored.api_url} was not revoked on the server, since the API URL is now ${config.supabaseUrl}`;
  } else {
    try {
      const { client, transport } = await restore(store, config, stored);
      const { error } = await transport.guard(() => client.auth.signOut({ scope: 'local' }));
      if (error) note = `the server did not revoke the session: ${error.message}`;
    } catch (error) {
      if (error instanceof NetworkError || error instanceof TimeoutError) {
        note = `${error.message}, so the session was deleted here but not revoked on the server`;
      } else if (!(error instanceof SessionError)) {
        // An expired session needs no revoking; anything else is worth a word.
        note = `the server did not revoke the session: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }
  store.delete('session');
  if (note) warn(note);
  print(`Signed out ${terminalSafe(stored.email)}.`);
});
