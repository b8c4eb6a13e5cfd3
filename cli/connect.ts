import type { SupabaseClient } from '@supabase/supabase-js';
import { createNamecardClient } from '../shared/client.js';
import type { NamecardConfig } from '../shared/config.js';
import { createTransport, type Transport } from './transport.js';

/** A supabase-js client for the CLI, and the transport that reports unreachable backends. */
export interface Connection {
  client: SupabaseClient;
  transport: Transport;
}

/**
 * A client with no browser-style session handling: the CLI keeps the session itself (conf),
 * and a command is over long before an access token expires. Loads supabase-js, so commands
 * import this module with `await import()`.
 */
export function connect(config: NamecardConfig): Connection {
  const transport = createTransport(config.supabaseUrl);
  const client = createNamecardClient(
    config,
    { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    { fetch: transport.fetch },
  );
  return { client, transport };
}
