import {
  createClient,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import type { NamecardConfig } from '../core/config.js';
import { TOKEN_HEADER } from '../core/tokens.js';

/**
 * supabase-js ≥ 2.10x refuses to construct on Node 20, which has no global WebSocket, unless a
 * realtime transport is given. The product never opens a realtime channel, so an inert
 * transport is enough; Node ≥ 22 and browsers have WebSocket and do not get it.
 */
class NoRealtimeTransport {
  constructor() {
    throw new Error('realtime is not used by namecard');
  }
}

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
 * @param options.accessToken a signed-in user's access token (JWT) to send instead of a
 *   session of the client's own; `client.auth` then throws when used
 * @param options.cardToken a card token (`nct_…`) to act with: every request carries it in the
 *   header {@link TOKEN_HEADER}, with the anon key and no session, and the server treats the
 *   caller as a member of the token's card with the token's role
 */
export function createNamecardClient(
  config: Pick<NamecardConfig, 'supabaseUrl' | 'anonKey'>,
  auth: AuthOptions = {},
  options: { fetch?: typeof fetch; accessToken?: string; cardToken?: string } = {},
): SupabaseClient {
  const { accessToken, cardToken } = options;
  const global = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(cardToken ? { headers: { [TOKEN_HEADER]: cardToken } } : {}),
  };
  return createClient(config.supabaseUrl, config.anonKey, {
    auth,
    ...(globalThis.WebSocket ? {} : { realtime: { transport: NoRealtimeTransport as never } }),
    ...(Object.keys(global).length > 0 ? { global } : {}),
    // supabase-js's own way to call the API with a session kept elsewhere: requests carry this
    // token, and the client's `auth` is not available (nothing to refresh or store).
    ...(accessToken ? { accessToken: async () => accessToken } : {}),
  });
}
