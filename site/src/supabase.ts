import { createNamecardClient } from '../../shared/supabase/client.js';
import { siteConfig } from './site-config.js';

/**
 * The site's one supabase-js client, with supabase-js's browser defaults but one: the session
 * is kept in localStorage (where the Redirecting.. page finds its access token) and refreshed,
 * and it is never taken from the page's URL. The site signs in with e-mail and password only,
 * so a link to `/login/#access_token=…&refresh_token=…` would only ever serve to sign the
 * visitor's browser in as whoever made the link (login CSRF): supabase-js's
 * `detectSessionInUrl` is off on every page.
 */
export const supabase = createNamecardClient(siteConfig, { detectSessionInUrl: false });
