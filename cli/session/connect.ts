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
 * @param credential.accessToken a stored access token to call the API with (see caller.ts);
 *   the client's `auth` is then not available
 * @param credential.cardToken a card token: every request carries it in the header
 *   `x-namecard-token`, with the anon key and no session
 * @throws InputError naming `SUPABASE_URL` for plain http: to another machine
 *   ({@link checkCredentialTransport})
 */
export function connect(
  config: CliConfig,
  credential: { accessToken?: string; cardToken?: string } = {},
): Connection {
  // Every client made here may carry a password, a session or a card token: never over plain
  // http: to another machine.
  checkCredentialTransport(config);
  const transport = createTransport(config.supabaseUrl, config.timeoutMs, config.signal);
  const client = createNamecardClient(
    config,
    { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    { fetch: transport.fetch, ...credential },
  );
  return { client, transport };
}

/**
 * A connection that calls the API with a session's access token and never refreshes it itself:
 * supabase-js would refresh a session whose access token expires within 90 s before each
 * request, rotating its refresh token where the conf store never sees it (the stored one is then
 * spent). The CLI refreshes the stored session itself, once a run (session.ts's restore).
 *
 * @param session a session just signed in or refreshed
 */
export function connectAs(config: CliConfig, session: { access_token: string }): Connection {
  return connect(config, { accessToken: session.access_token });
}
