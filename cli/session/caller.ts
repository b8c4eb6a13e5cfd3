import { ApiError } from '../../shared/core/errors.js';
import { MissingPasswordError, signedOut, type CallerKind } from '../errors.js';
import { connect, connectAs, type Connection } from './connect.js';
import { isRefusedAccessToken, usableAccessToken } from './access-token.js';
import {
  ciCredentials,
  emailWithoutPassword,
  readStoredState,
  type CliConfig,
  type StoredSession,
} from './settings.js';

// The run's caller, chosen once: a card token (NAMECARD_TOKEN), else CI credentials
// (NAMECARD_EMAIL and NAMECARD_PASSWORD: a sign-in for this run), else the stored session (its
// access token while it is valid, else a refresh). Every command then makes its calls through
// the one supabase-js client this gives; a card token is the same client with one more header
// (shared/supabase/client.ts), and the server treats it as a member of its card. conf and the
// sign-in load only when a session must be signed in or refreshed (session.ts).

/** The run's caller: the way every call of the run is made. */
export interface RunCaller {
  readonly kind: CallerKind;
  /**
   * Runs `act` with the caller's connection and returns what it returns. With the stored access
   * token, an API's 401 (the token was revoked or expired early) refreshes the session and runs
   * `act` once more, only then: a 401 comes before the database runs anything (PostgREST checks
   * the token first, and any error rolls the call's transaction back), so nothing was written
   * and sending a write again cannot store it twice. Every other failure, a time-out above all
   * ("outcome unknown"), is passed on and never sent again.
   */
  run<T>(act: (connection: Connection) => Promise<T>): Promise<T>;
}

/** A caller over one connection that needs no refresh (a card token, a session just made). */
export function callerFor(connection: Connection, kind: CallerKind = 'person'): RunCaller {
  return { kind, run: (act) => act(connection) };
}

/**
 * The caller with the stored access token, refreshed once on a 401 (see {@link RunCaller.run});
 * after a refresh, every later call uses the refreshed session.
 */
function storedTokenCaller(
  config: CliConfig,
  env: NodeJS.ProcessEnv,
  stored: StoredSession,
  accessToken: string,
): RunCaller {
  let connection = connect(config, { accessToken });
  let refreshed = false;
  return {
    kind: 'person',
    async run(act) {
      try {
        return await act(connection);
      } catch (error) {
        if (refreshed || !(error instanceof ApiError && error.status === 401)) throw error;
        const { currentSession, openStore, restore } = await import('./session.js');
        const { store } = openStore(env);
        // Read again: another run may have rotated the refresh token meanwhile.
        const latest = currentSession(store, config) ?? stored;
        const { session } = await restore(store, config, latest);
        connection = connectAs(config, session);
        refreshed = true;
        return act(connection);
      }
    },
  };
}

/**
 * The run's caller when there is one: a card token, CI credentials, or a session stored for
 * this API URL; else `undefined` (signed out), for commands that also work signed out.
 *
 * @throws MissingPasswordError when NAMECARD_EMAIL is set without NAMECARD_PASSWORD and no
 *   session is stored for this API URL; SessionError when the stored session has expired;
 *   WrongPasswordError for refused CI credentials; ApiError; NetworkError
 */
export async function findCaller(
  config: CliConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunCaller | undefined> {
  if (config.cardToken !== undefined) {
    return callerFor(connect(config, { cardToken: config.cardToken }), 'token');
  }
  if (!ciCredentials(env)) {
    // Read first without conf, so that a signed-out run creates no config folder.
    const stored = readStoredState(env).session;
    if (stored?.api_url !== config.supabaseUrl) {
      if (emailWithoutPassword(env)) throw new MissingPasswordError();
      return undefined;
    }
    const accessToken = usableAccessToken(stored);
    // The light path sent a call with this token already and it was refused (401, nothing
    // written): straight to the refresh.
    if (accessToken !== undefined && !isRefusedAccessToken(accessToken)) {
      return storedTokenCaller(config, env, stored, accessToken);
    }
  }
  const { sessionConnection } = await import('./session.js');
  const connection = await sessionConnection(config, env);
  return connection && callerFor(connection);
}

/**
 * The run's caller (see {@link findCaller}), or the refusal of a signed-out run.
 *
 * @throws SessionError when signed out or expired; as {@link findCaller}
 */
export async function requireCaller(
  config: CliConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunCaller> {
  const caller = await findCaller(config, env);
  if (caller) return caller;
  throw signedOut(config.supabaseUrl, readStoredState(env).session?.api_url);
}
