import type { SupabaseClient } from '@supabase/supabase-js';
import { ApiError, NetworkError } from '../core/errors.js';
import { activeEntry } from '../core/rules.js';
import { LOOKUP_COLUMNS, NAMECARD_TABLE } from '../core/lookup.js';
import type { NamecardRow, NewEntry } from '../core/types.js';

// The three data calls of the product through supabase-js (DESIGN.md, shared/). Only the type
// of the client is imported, so code that never creates a client does not load supabase-js.

const ROW_COLUMNS = 'id,stamp_end,type,created_at,created_by';

/** The shape of postgrest-js errors and of the `status` it returns with them. */
interface PostgrestFailure {
  error: { code?: string; message?: string; details?: string | null; hint?: string | null } | null;
  status: number;
}

/**
 * Turns a postgrest-js failure into a typed error. postgrest-js reports a failed fetch with
 * status 0 and the fetch error's text as the message; that is the backend being unreachable.
 */
function toError(client: SupabaseClient, failure: PostgrestFailure): ApiError | NetworkError {
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

/**
 * Reads the active entry in one request: `stamp_end > now`, ordered by `id` descending,
 * limit 1, all applied on the server (the same query as {@link fetchActiveEntry}).
 *
 * @param client a supabase-js client (anon key, with or without a session)
 * @param now the reader's clock, epoch milliseconds
 * @returns the active entry or `null`
 * @throws ApiError with the server's code and message; NetworkError when unreachable
 */
export async function readActiveEntry(
  client: SupabaseClient,
  now: number,
): Promise<NamecardRow | null> {
  const result = await client
    .from(NAMECARD_TABLE)
    .select(LOOKUP_COLUMNS)
    .gt('stamp_end', Math.floor(now))
    .order('id', { ascending: false })
    .limit(1);
  if (result.error) throw toError(client, result);
  return activeEntry(result.data ?? [], now);
}

/**
 * Lists entries newest first (highest `id` first).
 *
 * @param client a supabase-js client
 * @param limit how many rows at most (a positive integer; default 20)
 * @returns the rows, newest first
 * @throws ApiError with the server's code and message; NetworkError when unreachable
 */
export async function listEntries(client: SupabaseClient, limit = 20): Promise<NamecardRow[]> {
  const result = await client
    .from(NAMECARD_TABLE)
    .select(ROW_COLUMNS)
    .order('id', { ascending: false })
    .limit(limit);
  if (result.error) throw toError(client, result);
  return (result.data ?? []) as NamecardRow[];
}

/**
 * Inserts an entry and returns the row the server stored (`Prefer: return=representation`).
 * Only owners may insert (RLS); the server fills in `id`, `created_at` and `created_by`.
 *
 * @param client a supabase-js client signed in as an owner
 * @param entry the profile and `stamp_end` (epoch ms)
 * @returns the inserted row, as confirmed by the server
 * @throws ApiError with the server's code and message (e.g. 42501 for a non-owner);
 *   NetworkError when unreachable; ApiError `no_row` when the server confirmed no row
 */
export async function insertEntry(client: SupabaseClient, entry: NewEntry): Promise<NamecardRow> {
  const result = await client
    .from(NAMECARD_TABLE)
    .insert({ type: entry.type, stamp_end: entry.stamp_end })
    .select(ROW_COLUMNS);
  if (result.error) throw toError(client, result);
  const row = (result.data ?? [])[0] as NamecardRow | undefined;
  if (!row)
    throw new ApiError(result.status, 'no_row', 'The server did not return the inserted row');
  return row;
}
