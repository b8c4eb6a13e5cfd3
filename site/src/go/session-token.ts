// Reads the access token that supabase-js keeps in localStorage after the owner signs in on
// this site, without loading supabase-js. supabase-js stores the session as JSON under
// `sb-<first label of the API host name>-auth-token` (its default `storageKey`).

/** supabase-js's default storage key for an API URL, e.g. `sb-127-auth-token`. */
export function sessionStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;
}

/**
 * The stored session's access token, or `null` when there is none, it cannot be read, or it
 * has expired (an expired token would make the server refuse the lookup).
 *
 * @param supabaseUrl the API base URL the site was built with
 * @param now the reader's clock, epoch milliseconds
 */
export function storedAccessToken(supabaseUrl: string, now: number): string | null {
  try {
    const raw = window.localStorage.getItem(sessionStorageKey(supabaseUrl));
    if (!raw) return null;
    const session = JSON.parse(raw) as { access_token?: unknown; expires_at?: unknown };
    const { access_token: token, expires_at: expiresAt } = session;
    if (typeof token !== 'string' || !token) return null;
    // `expires_at` is in epoch seconds; a token that ends within 10 s is treated as expired.
    if (typeof expiresAt === 'number' && expiresAt * 1000 <= now + 10_000) return null;
    return token;
  } catch {
    return null;
  }
}
