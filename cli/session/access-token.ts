import { ciCredentials, readStoredState, type CliConfig, type StoredSession } from './settings.js';

// The stored access token, read without conf: the commands that can run on the light
// path (`status`, `set`, `end`, `cancel`, `profile list`) use it while it is valid, and leave everything else
// (CI credentials, a refresh, a refused token) to the program, which loads conf and supabase-js.

/**
 * How long before its expiry a stored access token is no longer used: a request sent with it
 * must reach the server (and a clock a little off from the server's must not matter) before
 * it expires, else the write would be refused and sent twice.
 */
export const ACCESS_TOKEN_MARGIN_MS = 60_000;

/** The stored access token when it is valid for more than {@link ACCESS_TOKEN_MARGIN_MS}. */
export function usableAccessToken(stored: StoredSession, now = Date.now()): string | undefined {
  const { access_token: token, expires_at: expiresAt } = stored;
  if (typeof token !== 'string' || token === '' || typeof expiresAt !== 'number') return undefined;
  return expiresAt * 1000 - now > ACCESS_TOKEN_MARGIN_MS ? token : undefined;
}

// A token the API refused (401) on the light path, for the program in the same process: it
// is a separate bundle, so the one place both see is the global object.
const REFUSED = Symbol.for('namecard.refusedAccessToken');

/** Records that the API refused `token` (401): the program then refreshes before writing. */
export function refuseAccessToken(token: string): void {
  (globalThis as Record<symbol, unknown>)[REFUSED] = token;
}

/** True when the API refused `token` earlier in this process ({@link refuseAccessToken}). */
export function isRefusedAccessToken(token: string): boolean {
  return (globalThis as Record<symbol, unknown>)[REFUSED] === token;
}

/**
 * The stored session's access token for this API URL when it is valid for more than a minute
 * and was not refused in this run; undefined with CI credentials (they sign in for each run).
 */
export function storedAccessToken(
  config: CliConfig,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (ciCredentials(env)) return undefined;
  const stored = readStoredState(env).session;
  if (stored?.api_url !== config.supabaseUrl) return undefined;
  const token = usableAccessToken(stored);
  return token === undefined || isRefusedAccessToken(token) ? undefined : token;
}
