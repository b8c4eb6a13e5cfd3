import { ApiError, NamecardError, NetworkError, TimeoutError } from './errors.js';
import { isWellFormed } from './rules.js';
import type { NamecardRow } from './types.js';

// The one active-entry query of the product, as one plain REST request: the Redirecting..
// page, `namecard status` and the manage page all send it. The database decides what is active
// with its own clock (the view `namecard_active`), so the URL is constant and no visitor's
// wrong phone clock can change the answer. It is a plain fetch, not supabase-js, because the
// Redirecting.. page must stay a few kilobytes.

/** The table of namecard entries. */
export const NAMECARD_TABLE = 'namecard';

/** The view answering the active entry (at most one row), decided by the server's clock. */
export const ACTIVE_VIEW = 'namecard_active';

/** The view answering the next scheduled entry (at most one row). */
export const NEXT_VIEW = 'namecard_next';

/** The columns both views answer. */
export const VIEW_COLUMNS = 'id,type,stamp_start,stamp_end';

/** One of the two views. */
export type EntryView = typeof ACTIVE_VIEW | typeof NEXT_VIEW;

/**
 * The part of fetch the lookup uses, so that the global fetch and the CLI's node:http
 * transport both fit.
 */
export type LookupFetch = (
  url: string,
  init: { headers: Record<string, string>; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** What {@link fetchActiveEntry} needs. */
export interface LookupOptions {
  /** API base URL, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  supabaseUrl: string;
  /** The public anon key, sent as the `apikey` query parameter. */
  anonKey: string;
  /** A signed-in owner's access token, sent as the bearer when present. */
  accessToken?: string | null;
  /** Time-out in milliseconds; none when omitted. */
  timeoutMs?: number;
  /** Cancels the request. */
  signal?: AbortSignal;
  /**
   * The fetch to use; the global one by default. The CLI's transport retries gateway errors
   * and throws its own typed errors (NamecardError), which the lookup passes on unchanged.
   */
  fetch?: LookupFetch;
}

/**
 * The URL of a view's lookup: `/rest/v1/<view>?select=id,type,stamp_start,stamp_end&apikey=…`.
 *
 * The anon key travels as the `apikey` query parameter rather than a header, so that an
 * anonymous visitor's request has no custom header and the browser sends it at once, with no
 * CORS preflight. Supabase's gateway accepts the key there (Kong's key-auth reads `apikey` from
 * the query string as well as the headers) and PostgREST never treats `apikey` as a filter.
 *
 * @param supabaseUrl API base URL without trailing slash
 * @param anonKey the public anon key
 * @param view which view
 */
export function viewUrl(supabaseUrl: string, anonKey: string, view: EntryView): string {
  return `${supabaseUrl}/rest/v1/${view}?select=${VIEW_COLUMNS}&apikey=${encodeURIComponent(anonKey)}`;
}

/**
 * Reads one of the views with one GET. Only a signed-in owner's request carries a header
 * (`Authorization`); a visitor's is a CORS-simple request.
 *
 * @returns the view's row, or `null` when it answers none
 * @throws NetworkError when the server cannot be reached; TimeoutError after `timeoutMs`;
 *   ApiError with the server's `code` and `message` for a non-2xx answer, or
 *   `invalid_response` when the body is not a JSON array of at most one well-formed row
 */
export async function fetchViewEntry(
  view: EntryView,
  options: LookupOptions,
): Promise<NamecardRow | null> {
  const { supabaseUrl, anonKey, accessToken, timeoutMs, signal } = options;
  const request: LookupFetch = options.fetch ?? fetch;
  const signals: AbortSignal[] = [];
  if (signal) signals.push(signal);
  const timer = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  if (timer) signals.push(timer);

  let response: Awaited<ReturnType<LookupFetch>>;
  let body: unknown;
  try {
    response = await request(viewUrl(supabaseUrl, anonKey, view), {
      headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {},
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    if (timer?.aborted) throw new TimeoutError(supabaseUrl, timeoutMs ?? 0);
    if (signal?.aborted) throw error;
    // A fetch that reports its own typed failure (the CLI's transport) is taken at its word.
    if (error instanceof NamecardError) throw error;
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
  if (!Array.isArray(body) || body.length > 1 || (body.length === 1 && !isWellFormed(body[0]))) {
    throw new ApiError(
      response.status,
      'invalid_response',
      'The server answered with something other than at most one entry',
    );
  }
  return (body[0] as NamecardRow | undefined) ?? null;
}

/**
 * Reads the active entry (view `namecard_active`): what visitors get now, by the server's clock.
 *
 * @returns the active entry, or `null` when none is active (visitors get the main site)
 * @throws as {@link fetchViewEntry}
 */
export function fetchActiveEntry(options: LookupOptions): Promise<NamecardRow | null> {
  return fetchViewEntry(ACTIVE_VIEW, options);
}

/**
 * Reads the next scheduled entry (view `namecard_next`): the entry not yet started that will
 * take effect soonest, by the server's clock.
 *
 * @returns that entry, or `null` when nothing is scheduled
 * @throws as {@link fetchViewEntry}
 */
export function fetchNextEntry(options: LookupOptions): Promise<NamecardRow | null> {
  return fetchViewEntry(NEXT_VIEW, options);
}
