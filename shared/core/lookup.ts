import { ApiError, NetworkError, TimeoutError } from './errors.js';
import { activeEntry } from './rules.js';
import type { NamecardRow } from './types.js';

// The active-entry lookup as one plain REST request. The Redirecting.. page must stay under
// 10 KB of script, so it cannot carry supabase-js; this builds the very same PostgREST query
// that `readActiveEntry` (data.ts) sends through supabase-js: filter, order and limit are
// applied on the server, so the answer is at most one row whatever the table size.

/** The table of namecard entries. */
export const NAMECARD_TABLE = 'namecard';

/** The columns the lookup reads. */
export const LOOKUP_COLUMNS = 'id,stamp_end,type';

/**
 * The PostgREST query string of the active-entry lookup:
 * `select=id,stamp_end,type&stamp_end=gt.<now>&order=id.desc&limit=1` (DESIGN.md, Data).
 *
 * @param now the reader's clock, epoch milliseconds
 */
export function activeEntryQuery(now: number): string {
  return `select=${LOOKUP_COLUMNS}&stamp_end=gt.${Math.floor(now)}&order=id.desc&limit=1`;
}

/** What {@link fetchActiveEntry} needs. */
export interface LookupOptions {
  /** API base URL, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  supabaseUrl: string;
  /** The public anon key, sent as `apikey` (and as the bearer when there is no session). */
  anonKey: string;
  /** A session's access token, sent as the bearer when present (spec §6). */
  accessToken?: string | null;
  /** The reader's clock, epoch milliseconds. */
  now: number;
  /** Time-out in milliseconds; none when omitted. */
  timeoutMs?: number;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** The fetch to use (e.g. the CLI's, which retries gateway errors); the global one by default. */
  fetch?: typeof fetch;
}

/**
 * Reads the active entry with one GET on `/rest/v1/namecard`, as the Redirecting.. page and
 * `namecard status` do. The answer is checked with {@link activeEntry}, so a row that is not
 * active or not well-formed is never returned.
 *
 * @returns the active entry, or `null` when none is active
 * @throws NetworkError when the server cannot be reached; TimeoutError after `timeoutMs`;
 *   ApiError with the server's `code` and `message` for a non-2xx answer, or
 *   `invalid_response` when the body is not a JSON array
 */
export async function fetchActiveEntry(options: LookupOptions): Promise<NamecardRow | null> {
  const { supabaseUrl, anonKey, accessToken, now, timeoutMs, signal } = options;
  const request = options.fetch ?? fetch;
  const signals: AbortSignal[] = [];
  if (signal) signals.push(signal);
  const timer = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  if (timer) signals.push(timer);

  let response: Response;
  let body: unknown;
  try {
    response = await request(`${supabaseUrl}/rest/v1/${NAMECARD_TABLE}?${activeEntryQuery(now)}`, {
      headers: {
        apikey: anonKey,
        Authorization: `Bearer ${accessToken || anonKey}`,
        Accept: 'application/json',
        'Accept-Profile': 'public',
      },
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    if (timer?.aborted) throw new TimeoutError(supabaseUrl, timeoutMs ?? 0);
    if (signal?.aborted) throw error;
    throw new NetworkError(supabaseUrl, error);
  }

  if (!response.ok) {
    const e = (body ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    throw new ApiError(
      response.status,
      str(e.code) ?? String(response.status),
      str(e.message) ?? `HTTP ${response.status}`,
      str(e.details),
      str(e.hint),
    );
  }
  if (!Array.isArray(body)) {
    throw new ApiError(
      response.status,
      'invalid_response',
      'The server answered with something other than a list of rows',
    );
  }
  return activeEntry(body, now);
}
