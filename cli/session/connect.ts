import type { SupabaseClient } from '@supabase/supabase-js';
import { createNamecardClient } from '../../shared/supabase/client.js';
import { checkCredentialTransport, type CliConfig } from './settings.js';
import { createTransport, type Transport } from '../transport/transport.js';

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
 * @throws InputError naming `SUPABASE_URL` for plain http: to another machine
 *   ({@link checkCredentialTransport})
 */
export function connect(config: CliConfig, accessToken?: string): Connection {
  // Every client made here carries the owner's password or session: never over plain http:
  // to another machine.
  checkCredentialTransport(config);
  const transport = createTransport(config.supabaseUrl, config.timeoutMs, config.signal);
  const client = createNamecardClient(
    config,
    { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    { fetch: transport.fetch, accessToken },
  );
  return { client, transport };
}
