import { chmodSync, mkdirSync } from 'node:fs';
import Conf from 'conf';
import type { AuthError, Session } from '@supabase/supabase-js';
import type { RawSettings } from '../../shared/core/config.js';
import { ApiError } from '../../shared/core/errors.js';
import { SessionError, fromPasswordSource } from '../errors.js';
import {
  ciCredentials,
  configDir,
  type CliConfig,
  type StoredSession,
  type StoredState,
} from './settings.js';
import { removeBrokenStore } from './store-file.js';
import { connect, connectAs, type Connection } from './connect.js';

// Everything about a person's session: conf storage, sign-in, restore with rotation, CI mode.
// This module loads conf and supabase-js, so commands import it with `await import()`.

export const EXPIRED_MESSAGE = 'Your session has expired: run `namecard login`';

/**
 * Opens the conf store: its folder 0700 and its file 0600, since it holds a refresh token.
 *
 * @param options.replaceBroken delete a broken file first (`login` and `logout` do, so that a
 *   hand-edited or corrupted file never locks the user out); `broken` then says it was
 * @throws BrokenConfigFileError when the file is broken and `replaceBroken` is not set
 */
export function openStore(
  env: NodeJS.ProcessEnv = process.env,
  options: { replaceBroken?: boolean } = {},
): { store: Conf<StoredState>; broken: boolean } {
  const cwd = configDir(env);
  mkdirSync(cwd, { recursive: true, mode: 0o700 });
  chmodSync(cwd, 0o700);
  const broken = options.replaceBroken ? removeBrokenStore(env) : false;
  const store = new Conf<StoredState>({ projectName: 'namecard', cwd, configFileMode: 0o600 });
  return { store, broken };
}

/**
 * True when the server refused the refresh token itself (GoTrue's 400 `refresh_token_not_found`,
 * `refresh_token_already_used`, `session_expired`, … or 403 `session_not_found`), as opposed to
 * refusing the anon key (the gateway's 401 "Invalid API key"), rate limiting (429), or failing.
 */
function refusesToken(error: AuthError | null): boolean {
  if (!error) return true;
  if (error.name === 'AuthSessionMissingError') return true;
  const status = error.status ?? 0;
  return status === 400 || status === 403;
}

/** An auth-js error as the namecard module's ApiError, keeping the server's message. */
function toApiError(error: AuthError): ApiError {
  return new ApiError(error.status ?? 0, error.code ?? error.name, error.message);
}

/**
 * Signs in with email and password.
 *
 * @throws ApiError with the server's message (e.g. `Invalid login credentials`);
 *   NetworkError when the backend cannot be reached
 */
export async function signIn(
  config: CliConfig,
  email: string,
  password: string,
): Promise<Connection & { session: Session }> {
  const connection = connect(config);
  const { data, error } = await connection.transport.guard(() =>
    connection.client.auth.signInWithPassword({ email, password }),
  );
  if (error || !data.session) {
    throw error
      ? toApiError(error)
      : new ApiError(0, 'no_session', 'The server returned no session');
  }
  return { ...connection, session: data.session };
}

/** Saves a session at login, with the settings given for it. */
export function saveLogin(
  store: Conf<StoredState>,
  config: CliConfig,
  session: Session,
  email: string,
  settings: RawSettings,
): void {
  store.set('session', {
    refresh_token: session.refresh_token,
    ...accessPart(session),
    api_url: config.supabaseUrl,
    email: session.user.email ?? email,
  });
  store.set('settings', { ...store.get('settings'), ...settings });
}

/** The stored session if it belongs to the current API URL. */
export function currentSession(store: Conf<StoredState>, config: CliConfig) {
  const stored = store.get('session');
  return stored && stored.api_url === config.supabaseUrl ? stored : undefined;
}

/**
 * Exchanges the stored refresh token for a fresh session and saves the rotated refresh token
 * at once, so the next run starts from it.
 *
 * @throws SessionError "Your session has expired" when the server rejects the token (the
 *   stored session is then removed, unless another run has already replaced it);
 *   NetworkError when the backend cannot be reached; ApiError for other server answers
 */
export async function restore(
  store: Conf<StoredState>,
  config: CliConfig,
  stored: StoredSession,
): Promise<Connection & { session: Session }> {
  const connection = connect(config);
  const { data, error } = await connection.transport.guard(() =>
    connection.client.auth.refreshSession({ refresh_token: stored.refresh_token }),
  );
  if (error || !data.session) {
    if (error && !refusesToken(error)) throw toApiError(error);
    if (store.get('session')?.refresh_token === stored.refresh_token) store.delete('session');
    throw new SessionError('session_expired', EXPIRED_MESSAGE);
  }
  store.set('session', {
    ...stored,
    refresh_token: data.session.refresh_token,
    ...accessPart(data.session),
  });
  return { ...connection, session: data.session };
}

/** The access token and its expiry (epoch s) of a session, as the conf file keeps them. */
function accessPart(session: Session): Pick<StoredSession, 'access_token' | 'expires_at'> {
  return session.expires_at === undefined
    ? {}
    : { access_token: session.access_token, expires_at: session.expires_at };
}

/**
 * A session's connection for this run: with NAMECARD_EMAIL and NAMECARD_PASSWORD, a sign-in
 * (CI mode; the stored session is left alone), else the stored session for this API URL,
 * refreshed; `undefined` when neither is there. Its calls carry the session's access token
 * ({@link connectAs}).
 *
 * @throws WrongPasswordError for refused CI credentials; SessionError when the stored session
 *   has expired; ApiError; NetworkError
 */
export async function sessionConnection(
  config: CliConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Connection | undefined> {
  const ci = ciCredentials(env);
  if (ci) {
    const { session } = await signIn(config, ci.email, ci.password).catch((error: unknown) => {
      throw fromPasswordSource(error, 'env', ci.email);
    });
    return connectAs(config, session);
  }
  const { store } = openStore(env);
  const stored = currentSession(store, config);
  if (!stored) return undefined;
  const { session } = await restore(store, config, stored);
  return connectAs(config, session);
}
