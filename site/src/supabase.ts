import { AuthClient, type GoTrueClient } from '@supabase/auth-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { DataClient } from '../../shared/supabase/data.js';
import { sessionStorageKey } from './go/session-token.js';
import { siteConfig } from './site-config.js';

// The pages' client is put together from the two parts of supabase-js they call: its auth
// client (@supabase/auth-js) and its REST client (@supabase/postgrest-js), wired as
// supabase-js wires them (SupabaseClient's constructor in @supabase/supabase-js 2.x): the
// auth client stores and refreshes the session, and every REST request carries the anon key
// as `apikey` and the session's access token (the anon key when signed out) as the bearer.
// supabase-js itself would also bundle realtime, storage and functions, which no page calls
// (about a third of its bytes); the CLI and the tests keep using supabase-js.

/** The site's client: supabase-js's `auth`, `from` and `rpc`, and its API base URL. */
export interface WebClient extends DataClient {
  /** The API base URL, as supabase-js keeps it (read by the data calls' error messages). */
  readonly supabaseUrl: string;
  /** The auth client: sign-in, session, sign-out and auth events. */
  readonly auth: GoTrueClient;
}

/**
 * Builds the site's client for an API URL and anon key: supabase-js's browser defaults
 * (session in localStorage under supabase-js's key, refreshed before it expires) but one,
 * `detectSessionInUrl` off (see {@link supabase}).
 *
 * @param supabaseUrl the API base URL (http or https)
 * @param anonKey the project's anon (publishable) key
 */
export function createWebClient(supabaseUrl: string, anonKey: string): WebClient {
  const base = new URL(supabaseUrl.endsWith('/') ? supabaseUrl : `${supabaseUrl}/`);
  const auth = new AuthClient({
    url: new URL('auth/v1', base).href,
    headers: { Authorization: `Bearer ${anonKey}`, apikey: anonKey },
    // The key supabase-js uses, where /go finds the owner's access token.
    storageKey: sessionStorageKey(supabaseUrl),
    autoRefreshToken: true,
    persistSession: true,
    detectSessionInUrl: false,
    flowType: 'implicit',
  });
  const fetchWithAuth: typeof fetch = async (input, init) => {
    const { data } = await auth.getSession();
    const headers = new Headers(init?.headers);
    if (!headers.has('apikey')) headers.set('apikey', anonKey);
    if (!headers.has('Authorization')) {
      headers.set('Authorization', `Bearer ${data.session?.access_token ?? anonKey}`);
    }
    return fetch(input, { ...init, headers });
  };
  const rest = new PostgrestClient(new URL('rest/v1', base).href, {
    schema: 'public',
    fetch: fetchWithAuth,
  });
  return {
    supabaseUrl,
    auth,
    // The same PostgrestClient that supabase-js's `from` and `rpc` hand the call to.
    from: rest.from.bind(rest),
    rpc: rest.rpc.bind(rest),
  };
}

/**
 * The site's one client, with supabase-js's browser defaults but one: the session is kept in
 * localStorage (where the Redirecting.. page finds its access token) and refreshed, and it is
 * never taken from the page's URL. The site signs in with e-mail and password only, so a link
 * to `/login/#access_token=…&refresh_token=…` would only ever serve to sign the visitor's
 * browser in as whoever made the link (login CSRF): `detectSessionInUrl` is off on every page.
 */
export const supabase = createWebClient(siteConfig.supabaseUrl, siteConfig.anonKey);

/**
 * The client as the Auth UI's props type it (a supabase-js client). The Auth UI calls only
 * `supabaseClient.auth` (sign-in, sign-up, reset, OTP, OAuth, updateUser, getSession and
 * onAuthStateChange; @supabase/auth-ui-react 0.4), which is the same auth client.
 */
export const authUiClient = { auth: supabase.auth } as unknown as SupabaseClient;
