import { chmodSync, mkdirSync } from 'node:fs';
import Conf from 'conf';
import type { AuthError, Session } from '@supabase/supabase-js';
import type { NamecardConfig, RawSettings } from '../shared/config.js';
import { ApiError } from '../shared/errors.js';
import { SessionError, signedOut } from './errors.js';
import { ciCredentials, configDir, type StoredSession, type StoredState } from './settings.js';
import { connect, type Connection } from './connect.js';

// Everything about the owner's session: conf storage, sign-in, restore with rotation, CI mode.
// This module loads conf and supabase-js, so commands import it with `await import()`.

export const EXPIRED_MESSAGE = 'Your session has expired: run `namecard login`';

/** A client signed in as the owner. */
export interface Owner extends Connection {
  email: string;
  /** `stored` for a restored session, `ci` for NAMECARD_EMAIL/NAMECARD_PASSWORD. */
  via: 'stored' | 'ci';
}

/**
 * Opens the conf store: its folder 0700 and its file 0600, since it holds a refresh token.
 */
export function openStore(env: NodeJS.ProcessEnv = process.env): Conf<StoredState> {
  const cwd = configDir(env);
  mkdirSync(cwd, { recursive: true, mode: 0o700 });
  chmodSync(cwd, 0o700);
  return new Conf<StoredState>({ projectName: 'namecard', cwd, configFileMode: 0o600 });
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
  config: NamecardConfig,
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
  config: NamecardConfig,
  session: Session,
  email: string,
  settings: RawSettings,
): void {
  store.set('session', {
    refresh_token: session.refresh_token,
    api_url: config.supabaseUrl,
    email: session.user.email ?? email,
  });
  store.set('settings', { ...store.get('settings'), ...settings });
}

/** The stored session if it belongs to the current API URL. */
export function currentSession(store: Conf<StoredState>, config: NamecardConfig) {
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
  config: NamecardConfig,
  stored: StoredSession,
): Promise<Connection & { session: Session }> {
  const connection = connect(config);
  const { data, error } = await connection.transport.guard(() =>
    connection.client.auth.refreshSession({ refresh_token: stored.refresh_token }),
  );
  if (error || !data.session) {
    const rejected =
      !error ||
      error.name === 'AuthSessionMissingError' ||
      (error.status !== undefined && error.status >= 400 && error.status < 500);
    if (!rejected) throw toApiError(error);
    if (store.get('session')?.refresh_token === stored.refresh_token) store.delete('session');
    throw new SessionError('session_expired', EXPIRED_MESSAGE);
  }
  store.set('session', { ...stored, refresh_token: data.session.refresh_token });
  return { ...connection, session: data.session };
}

/**
 * A client signed in as the owner: with NAMECARD_EMAIL and NAMECARD_PASSWORD for this run
 * (CI mode; the stored session is left alone), else from the stored session.
 *
 * @throws SessionError when signed out or expired; ApiError; NetworkError
 */
export async function requireOwner(
  config: NamecardConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Owner> {
  const ci = ciCredentials(env);
  if (ci) {
    const { client, transport, session } = await signIn(config, ci.email, ci.password);
    return { client, transport, email: session.user.email ?? ci.email, via: 'ci' };
  }
  const store = openStore(env);
  const stored = currentSession(store, config);
  if (!stored) throw signedOut(config.supabaseUrl, store.get('session')?.api_url);
  const { client, transport, session } = await restore(store, config, stored);
  return { client, transport, email: session.user.email ?? stored.email, via: 'stored' };
}
