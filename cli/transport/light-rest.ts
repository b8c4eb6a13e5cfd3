import { ApiError } from '../../shared/core/errors.js';
import { TOKEN_HEADER } from '../../shared/core/tokens.js';
import type { CliConfig } from '../session/settings.js';
import type { LightTransportFetch } from './transport.js';

// The caller's PostgREST calls without supabase-js: the same requests its PostgREST client
// sends (a function by POST to /rest/v1/rpc/<name> with a JSON body; a table read by GET with
// select, filters and order), as the run's caller (a stored access token, or a card token in
// its header, as shared/supabase/client.ts sends it), through the light transport (which times
// out, never retries a write, and reports failures as typed errors). An error answer becomes
// the ApiError the supabase-js data calls make of it.

/** What a call answered: the parsed JSON body (null when empty) and the HTTP status. */
export interface RestAnswer {
  data: unknown;
  status: number;
}

/** The caller's calls over one transport. */
export interface CallerRest {
  /** POSTs `args` to the function `name` (`/rest/v1/rpc/<name>`). */
  rpc(name: string, args?: Record<string, unknown>): Promise<RestAnswer>;
  /** GETs `/rest/v1/<table>?<query>` (a table, or a function's read: `rpc/<name>`). */
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

/** Who a light call is made as: a person's access token, or a card token. */
export type LightCredential = { accessToken: string } | { cardToken: string };

/**
 * The caller's PostgREST calls, sent with `fetch` (the light transport's): with a person's
 * access token as the bearer, or with a card token in the header `x-namecard-token` and the anon
 * key alone.
 *
 * @param config the API URL and anon key
 */
export function callerRest(
  config: Pick<CliConfig, 'supabaseUrl' | 'anonKey'>,
  credential: LightCredential,
  fetch: LightTransportFetch,
): CallerRest {
  const base = `${config.supabaseUrl.replace(/\/+$/, '')}/rest/v1`;
  const headers: Record<string, string> =
    'cardToken' in credential
      ? { apikey: config.anonKey, [TOKEN_HEADER]: credential.cardToken }
      : { apikey: config.anonKey, Authorization: `Bearer ${credential.accessToken}` };
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
    read: async (table, query) => {
      const search = new URLSearchParams(query).toString();
      return answered(
        await fetch(`${base}/${table}${search === '' ? '' : `?${search}`}`, {
          headers: { ...headers, 'Accept-Profile': 'public' },
        }),
      );
    },
  };
}
