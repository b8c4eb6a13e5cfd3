import type { SupabaseClient } from '@supabase/supabase-js';
import { createNamecardClient } from '../shared/supabase/client.js';
import type { CliConfig } from './settings.js';
import { createTransport, type Transport } from './transport.js';

/** A supabase-js client for the CLI, and the transport that retries, times out and reports failures. */
export interface Connection {
  client: SupabaseClient;
  transport: Transport;
}

/**
 * A client with no browser-style session handling: the CLI keeps the session itself (conf),
 * and a command is over long before an access token expires. Loads supabase-js, so commands
 * import this module with `await import()`.
 *
 * @param accessToken a stored access token to call the API with (see session.ts); the
 *   client's `auth` is then not available
 */
export function connect(config: CliConfig, accessToken?: string): Connection {
  const transport = createTransport(config.supabaseUrl, config.timeoutMs);
  const client = createNamecardClient(
    config,
    { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    { fetch: transport.fetch, accessToken },
  );
  return { client, transport };
}
