import { createNamecardClient } from '../../shared/supabase/client.js';
import { siteConfig } from './site-config.js';

/**
 * The site's one supabase-js client, with supabase-js's browser defaults: the session is kept
 * in localStorage (where the Redirecting.. page finds its access token) and refreshed.
 */
export const supabase = createNamecardClient(siteConfig);
