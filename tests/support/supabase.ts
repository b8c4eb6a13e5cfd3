import { createClient, type SupabaseClient } from '@supabase/supabase-js';

/**
 * supabase-js ≥ 2.10x refuses to construct on Node 20, which has no global
 * WebSocket, unless a realtime transport is given. The product never opens a
 * realtime channel, so an inert transport is enough; Node ≥ 22 does not need it.
 */
class NoRealtimeTransport {
  constructor() {
    throw new Error('realtime is not used by namecard');
  }
}

/** A client configured exactly as the product's CLI configures it (no persisted session). */
export function createTestClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    ...(globalThis.WebSocket ? {} : { realtime: { transport: NoRealtimeTransport as never } }),
  });
}
