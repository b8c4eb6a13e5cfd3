import {
  createClient,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import type { NamecardConfig } from './config.js';

/** Auth options passed through to supabase-js (storage, persistence, auto refresh). */
export type AuthOptions = NonNullable<SupabaseClientOptions<'public'>['auth']>;

/**
 * A supabase-js client for the namecard API: the configured URL and anon key, schema
 * `public`, and the given auth options (the CLI passes its own session storage; the site
 * keeps supabase-js's browser defaults).
 *
 * @param config validated settings from {@link loadConfig}
 * @param auth supabase-js auth options
 * @param options.fetch a custom fetch (e.g. one with a time-out)
 */
export function createNamecardClient(
  config: Pick<NamecardConfig, 'supabaseUrl' | 'anonKey'>,
  auth: AuthOptions = {},
  options: { fetch?: typeof fetch } = {},
): SupabaseClient {
  return createClient(config.supabaseUrl, config.anonKey, {
    auth,
    ...(options.fetch ? { global: { fetch: options.fetch } } : {}),
  });
}
