import { ApiError, NamecardError, NetworkError, TimeoutError } from './errors.js';
import { narrowType } from './profiles.js';
import { isWellFormed, narrowRow } from './rules.js';
import type { SeriesRow } from './series.js';
import type { Segment } from './timeline.js';
import type { NamecardRow } from './types.js';

// The product's two reads of what visitors get, each one GET of a function on a URL fixed by the
// card's slug: the entry in force and its destination (`namecard_go`, the Redirecting.. page's
// one request) and the card's status (`namecard_status`: now, the active entry and the timeline,
// for `namecard status` and the manage page). Anyone may ask either about any slug; an unknown
// one answers as a card with nothing set. The database decides with its own clock, so the URLs
// are constant and no visitor's wrong phone clock can change the answer. Plain fetch, not
// supabase-js, because the Redirecting.. page must stay a few kilobytes.

/** The table of namecard entries. */
export const NAMECARD_TABLE = 'namecard';

/** The columns of an entry a visitor's answers carry. */
export const VIEW_COLUMNS = 'id,type,stamp_start,stamp_end';

/**
 * The columns {@link GO_FUNCTION} answers: the entry's, and its profile's destination `url`
 * (null when the profile follows the build's settings), so that one GET tells /go where to go.
 */
export const ACTIVE_COLUMNS = `${VIEW_COLUMNS},url`;

/** The columns of {@link STATUS_FUNCTION}. */
const STATUS_COLUMNS = 'now,active,timeline,labels,url,series_ahead';

/** The function answering a card's entry in force now and its destination (at most one row). */
export const GO_FUNCTION = 'namecard_go';

/** The function answering a card's status in one row: now, the active entry, the timeline. */
export const STATUS_FUNCTION = 'namecard_status';

/** One of the two reads, each one GET. */
export type LookupFunction = typeof GO_FUNCTION | typeof STATUS_FUNCTION;

/**
 * The part of fetch the lookup uses, so that the global fetch and the CLI's node:http
 * transport both fit.
 */
export type LookupFetch = (
  url: string,
  init: { headers: Record<string, string>; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** What {@link fetchActiveEntry} and {@link fetchStatus} need. */
export interface LookupOptions {
  /** API base URL, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  supabaseUrl: string;
  /** The public anon key, sent as the `apikey` query parameter. */
  anonKey: string;
  /** A signed-in person's access token, sent as the bearer when present. */
  accessToken?: string | null;
  /** The card to read, by its slug (`/go/?c=<slug>`; a bare `/go/` is `main`). */
  card: string;
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
 * The URL of a card's lookup: one GET of `fn` with the slug as its argument,
 * `/rest/v1/rpc/namecard_go?card=<slug>&select=…&apikey=…`.
 *
 * The anon key travels as the `apikey` query parameter rather than a header, so that an
 * anonymous visitor's request has no custom header and the browser sends it at once, with no
 * CORS preflight. Supabase's gateway accepts the key there (Kong's key-auth reads `apikey` from
 * the query string as well as the headers) and removes it before PostgREST sees the request
 * (`hide_credentials`), so that PostgREST never takes it for an argument.
 *
 * @param supabaseUrl API base URL without trailing slash
 * @param anonKey the public anon key
 * @param fn which read
 * @param card the card's slug
 * @example lookupUrl('https://x.supabase.co', 'key', 'namecard_go', 'studio')
 * // → 'https://x.supabase.co/rest/v1/rpc/namecard_go?card=studio&select=id,type,stamp_start,stamp_end,url&apikey=key'
 */
export function lookupUrl(
  supabaseUrl: string,
  anonKey: string,
  fn: LookupFunction,
  card: string,
): string {
  const columns = fn === STATUS_FUNCTION ? STATUS_COLUMNS : ACTIVE_COLUMNS;
  return `${supabaseUrl}/rest/v1/rpc/${fn}?card=${encodeURIComponent(card)}&select=${columns}&apikey=${encodeURIComponent(anonKey)}`;
}

/**
 * GETs one of the reads and answers its JSON body. Only a signed-in person's request carries a
 * header (`Authorization`); a visitor's is a CORS-simple request.
 *
 * @throws NetworkError when the server cannot be reached; TimeoutError after `timeoutMs`;
 *   ApiError with the server's `code` and `message` for a non-2xx answer
 */
async function fetchLookup(fn: LookupFunction, options: LookupOptions): Promise<unknown> {
  const { supabaseUrl, anonKey, accessToken, timeoutMs, signal, card } = options;
  const request: LookupFetch = options.fetch ?? fetch;
  const signals: AbortSignal[] = [];
  if (signal) signals.push(signal);
  const timer = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  if (timer) signals.push(timer);

  let response: Awaited<ReturnType<LookupFetch>>;
  let body: unknown;
  try {
    response = await request(lookupUrl(supabaseUrl, anonKey, fn, card), {
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
  return body;
}

const invalid = (what: string) =>
  new ApiError(200, 'invalid_response', `The server answered with something other than ${what}`);

/**
 * Reads the active entry of `options.card` (`namecard_go`): what visitors get now, by the
 * server's clock. An unknown or removed card answers as one with nothing set (null).
 *
 * @returns the active entry and its destination (`url`), or `null` when none is active
 *   (visitors get the main site)
 * @throws as {@link fetchLookup}; ApiError `invalid_response` when the body is not a JSON array
 *   of at most one well-formed row
 */
export async function fetchActiveEntry(options: LookupOptions): Promise<NamecardRow | null> {
  const body = await fetchLookup(GO_FUNCTION, options);
  if (!Array.isArray(body) || body.length > 1 || (body.length === 1 && !isWellFormed(body[0]))) {
    throw invalid('at most one entry');
  }
  return body.length === 1 ? narrowRow(body[0] as NamecardRow) : null;
}

/** What visitors get now and from now on, as the server answers it in one read. */
export interface CardStatus {
  /** The server's clock when it answered, epoch ms: the instant the rest is decided at. */
  now: number;
  /** The active entry (as `namecard_go` answers it), or null: visitors get the main site. */
  active: NamecardRow | null;
  /**
   * What visitors get from `now` on: the first segment starts at `now`; the last is open-ended
   * (`to: null`) unless the server capped the answer (24 segments), when more follows it.
   */
  timeline: Segment[];
  /** Labels of the profiles the timeline names, from their rows (`{ shop: 'Shop' }`). */
  labels: Readonly<Record<string, string>>;
  /**
   * The destination of the entry in force as /go's lookup answers it: the profile's own URL, or
   * null when it follows the build's setting. Followed only on an allowed origin (rules.ts's
   * destinationUrl).
   */
  url: string | null;
  /** The weekly series with an occurrence ahead, oldest first, each with its next start. */
  series?: StatusSeries[];
}

/**
 * A series as the status answers it: its row's rule (no stop marks) and `next`, the start of
 * its next occurrence (epoch ms, after the status's `now`).
 */
export type StatusSeries = Pick<
  SeriesRow,
  'id' | 'type' | 'weekdays' | 'start_time' | 'end_time' | 'time_zone' | 'first_date' | 'last_date'
> & { next: number };

/**
 * True when `value` holds a series' rule: a numeric id, a profile's name, ISO weekdays (1-7), the
 * local start and end and an IANA time zone as text. The one shape check of a series, for the
 * status here and the owner's series in series.ts (this module is the visitor's page's; series.ts
 * is not).
 */
export function hasSeriesRule(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    Number.isFinite(r.id) &&
    typeof r.type === 'string' &&
    Array.isArray(r.weekdays) &&
    r.weekdays.every((d) => Number.isInteger(d) && (d as number) >= 1 && (d as number) <= 7) &&
    typeof r.start_time === 'string' &&
    typeof r.end_time === 'string' &&
    typeof r.time_zone === 'string'
  );
}

function isStatusSeries(value: unknown): value is StatusSeries {
  const date = (v: unknown) => v === null || v === undefined || typeof v === 'string';
  return (
    hasSeriesRule(value) &&
    date(value.first_date) &&
    date(value.last_date) &&
    Number.isFinite(value.next)
  );
}

function isLabels(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((label) => typeof label === 'string')
  );
}

function isSegment(value: unknown): value is Segment {
  if (typeof value !== 'object' || value === null) return false;
  const { type, from, to } = value as Record<string, unknown>;
  return typeof type === 'string' && Number.isFinite(from) && (to === null || Number.isFinite(to));
}

/**
 * Reads what visitors of `options.card` get now and from now on (`namecard_status`) with one
 * GET: the server's now, the active entry and the timeline, all decided at that one instant. An
 * unknown or removed card answers as one with nothing set.
 *
 * @returns the card's status
 * @throws as {@link fetchLookup}; ApiError `invalid_response` when the body is not one row of
 *   that shape
 */
export async function fetchStatus(options: LookupOptions): Promise<CardStatus> {
  const body = await fetchLookup(STATUS_FUNCTION, options);
  return parseStatus(Array.isArray(body) && body.length === 1 ? body[0] : null);
}

/**
 * Checks and narrows one status object as `namecard_status` answers it (a row), and
 * as the write functions (`namecard_set`, `namecard_end_now`, `namecard_cancel`) include it in
 * their answers: `now` (epoch ms), `active` (entry or null), `timeline`, `labels` (name →
 * label), `url` (the destination in force, or null) and `series` (the series with an occurrence
 * ahead, read from `series_ahead`).
 *
 * @param value the parsed JSON object (other fields are ignored)
 * @returns the card's status
 * @throws ApiError `invalid_response` when it is not of that shape
 */
export function parseStatus(value: unknown): CardStatus {
  const row =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  const timeline = row?.timeline;
  if (
    !row ||
    !Number.isFinite(row.now) ||
    !(row.active === null || isWellFormed(row.active)) ||
    !Array.isArray(timeline) ||
    timeline.length === 0 ||
    !timeline.every(isSegment) ||
    !(row.labels === undefined || isLabels(row.labels)) ||
    !(row.url === undefined || row.url === null || typeof row.url === 'string') ||
    !(
      row.series_ahead === undefined ||
      (Array.isArray(row.series_ahead) && row.series_ahead.every(isStatusSeries))
    )
  ) {
    throw invalid("the card's status");
  }
  return {
    now: row.now as number,
    active: row.active === null ? null : narrowRow(row.active as NamecardRow),
    timeline: (timeline as Segment[]).map((segment) => ({
      ...segment,
      type: narrowType(segment.type),
    })),
    labels: (row.labels as Record<string, string> | undefined) ?? {},
    url: (row.url as string | null | undefined) ?? null,
    series: ((row.series_ahead as StatusSeries[] | undefined) ?? []).map((x) => ({
      ...x,
      type: narrowType(x.type),
      first_date: x.first_date ?? null,
      last_date: x.last_date ?? null,
    })),
  };
}
