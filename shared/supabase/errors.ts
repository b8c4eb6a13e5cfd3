import type { SupabaseClient } from '@supabase/supabase-js';
import { ApiError, NetworkError } from '../core/errors.js';

// What every data call of this folder shares: the part of a client it uses, and how a
// postgrest-js failure becomes a typed error.

/**
 * What the data calls use of a client: supabase-js's `from` and `rpc` (both hand the call to
 * its PostgREST client). A supabase-js client is one; so is the site's client, built from
 * supabase-js's auth and PostgREST parts (site/src/supabase.ts).
 */
export type DataClient = Pick<SupabaseClient, 'from' | 'rpc'>;

/** The shape of postgrest-js errors and of the `status` it returns with them. */
export interface PostgrestFailure {
  error: { code?: string; message?: string; details?: string | null; hint?: string | null } | null;
  status: number;
}

/**
 * Turns a postgrest-js failure into a typed error. postgrest-js reports a failed fetch with
 * status 0 and the fetch error's text as the message; that is the backend being unreachable.
 *
 * @param client the client that made the call (its API URL names an unreachable server)
 * @param failure postgrest-js's `{ error, status }`
 * @returns NetworkError for status 0, else ApiError with the server's code, message, details
 *   and hint
 */
export function toError(client: DataClient, failure: PostgrestFailure): ApiError | NetworkError {
  const e = failure.error ?? {};
  if (failure.status === 0) {
    // supabase-js keeps the API base URL on the client (a TypeScript-protected field).
    const url = (client as unknown as { supabaseUrl?: string }).supabaseUrl ?? 'the API';
    return new NetworkError(url.replace(/\/+$/, ''), e.message);
  }
  return new ApiError(
    failure.status,
    e.code || String(failure.status),
    e.message || `HTTP ${failure.status}`,
    e.details,
    e.hint,
  );
}
