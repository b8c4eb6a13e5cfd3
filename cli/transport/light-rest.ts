import { ApiError } from '../../shared/core/errors.js';
import type { CliConfig } from '../session/settings.js';
import type { LightTransportFetch } from './transport.js';

// The owner's PostgREST calls without supabase-js: the same requests its PostgREST client
// sends (a function by POST to /rest/v1/rpc/<name> with a JSON body; a table read by GET with
// select, filters and order), with the stored access token, through the light transport
// (which times out, never retries a write, and reports failures as typed errors). An error
// answer becomes the ApiError the supabase-js data calls make of it.

/** What a call answered: the parsed JSON body (null when empty) and the HTTP status. */
export interface RestAnswer {
  data: unknown;
  status: number;
}

/** The owner's calls over one transport with one access token. */
export interface OwnerRest {
  /** POSTs `args` to the function `name` (`/rest/v1/rpc/<name>`). */
  rpc(name: string, args?: Record<string, unknown>): Promise<RestAnswer>;
  /** GETs `/rest/v1/<table>?<query>`. */
  read(table: string, query: Record<string, string>): Promise<RestAnswer>;
}

/**
 * The answer of a call, or the ApiError of an error answer, as postgrest-js reads an answer and
 * the data calls turn its error into an ApiError: an error body's `code`, `message`, `details`
 * and `hint` (the status, or `HTTP <status>`, when it has none); a body that is not JSON is the
 * message; a 404 with an empty body or a JSON list is no error (postgrest-js's reading).
 */
async function answered(response: Awaited<ReturnType<LightTransportFetch>>): Promise<RestAnswer> {
  const text = await response.text();
  const { status } = response;
  if (response.ok) return { data: text === '' ? null : (JSON.parse(text) as unknown), status };
  let error: Record<string, unknown>;
  try {
    const body = JSON.parse(text) as unknown;
    if (Array.isArray(body) && status === 404) return { data: [], status: 200 };
    error = (body ?? {}) as Record<string, unknown>;
  } catch {
    if (status === 404 && text === '') return { data: null, status: 204 };
    error = { message: text };
  }
  throw new ApiError(
    status,
    (error.code as string) || String(status),
    (error.message as string) || `HTTP ${status}`,
    error.details as string | null | undefined,
    error.hint as string | null | undefined,
  );
}

/**
 * The owner's PostgREST calls with `accessToken`, sent with `fetch` (the light transport's).
 *
 * @param config the API URL and anon key
 */
export function ownerRest(
  config: Pick<CliConfig, 'supabaseUrl' | 'anonKey'>,
  accessToken: string,
  fetch: LightTransportFetch,
): OwnerRest {
  const base = `${config.supabaseUrl.replace(/\/+$/, '')}/rest/v1`;
  const headers = { apikey: config.anonKey, Authorization: `Bearer ${accessToken}` };
  return {
    rpc: async (name, args = {}) =>
      answered(
        await fetch(`${base}/rpc/${name}`, {
          method: 'POST',
          headers: {
            ...headers,
            'Content-Type': 'application/json',
            'Content-Profile': 'public',
          },
          body: JSON.stringify(args),
        }),
      ),
    read: async (table, query) =>
      answered(
        await fetch(`${base}/${table}?${new URLSearchParams(query).toString()}`, {
          headers: { ...headers, 'Accept-Profile': 'public' },
        }),
      ),
  };
}

/** The owner's writes a card token makes through its own function (supabase/schemas/tokens.sql). */
const TOKEN_WRITES: Readonly<Record<string, string>> = {
  namecard_set: 'namecard_token_set',
  namecard_end_now: 'namecard_token_end_now',
  namecard_cancel: 'namecard_token_cancel',
};

/**
 * The owner's writes with a card token (NAMECARD_TOKEN) instead of a session: the anon key, and
 * each write sent to the token's function with the token in its JSON body (never in a URL).
 * A table read is refused (the light path then keeps the answer's own labels).
 *
 * @param config the API URL and anon key
 * @param token the card token, `nct_…`
 */
export function tokenRest(
  config: Pick<CliConfig, 'supabaseUrl' | 'anonKey'>,
  token: string,
  fetch: LightTransportFetch,
): OwnerRest {
  // As supabase-js sends a request without a session: the anon key as the bearer too.
  const anon = ownerRest(config, config.anonKey, fetch);
  return {
    rpc: (name, args = {}) => {
      const fn = TOKEN_WRITES[name];
      if (fn === undefined) return Promise.reject(new Error(`no token call for ${name}`));
      return anon.rpc(fn, { token, ...args });
    },
    read: () => Promise.reject(new Error('a card token reads no table here')),
  };
}
