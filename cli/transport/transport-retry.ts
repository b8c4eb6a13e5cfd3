// The CLI's one retry rule, as pure functions of an answer: which answers are tried again, how
// long to wait first, and which answers prove that nothing ran. The transport's loop
// (fetchWithRetry in transport.ts) only asks these.

/** The gateway statuses: the only ones ever tried again. */
export const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * The waits before the 2nd, 3rd and 4th try of a request answered 502, 503 or 504 (the
 * retryable gateway statuses): four tries within about two seconds, enough to ride
 * out a gateway's restart or a brief overload without keeping a person or a CI job waiting.
 */
export const RETRY_DELAYS_MS = [250, 500, 1000] as const;

/**
 * The longest `Retry-After` the CLI waits for before a try: a server asking for more (a
 * maintenance window) gets a failure at once, not a command that hangs for an hour.
 */
export const RETRY_AFTER_CAP_MS = 5_000;

/**
 * PostgREST's own 503 codes: it could not connect to the database (PGRST000, PGRST001), its
 * schema cache was not loaded (PGRST002), or no pool connection was free (PGRST003). In all
 * four it ran no SQL, so even an insert is certain not to have happened.
 */
const NOT_EXECUTED_CODES = new Set(['PGRST000', 'PGRST001', 'PGRST002', 'PGRST003']);

/** What a request is, for the retry rule. */
export interface RetryContext {
  /** A GoTrue request (`/auth/v1/…`: sign-in, token refresh, sign-out), safe to send again. */
  auth?: boolean;
  /** The answer proves that no SQL ran (PostgREST's own 503, PGRST000-PGRST003). */
  notExecuted?: boolean;
}

/**
 * Whether a request answered `status` is tried again: the one retry rule of the CLI.
 *
 * Only the gateway statuses 502, 503 and 504 are retried, at most {@link RETRY_DELAYS_MS}
 * times. Reads (GET, HEAD) and GoTrue's requests are: a read changes nothing, and a refresh
 * token spent by a try whose answer was lost is answered again by GoTrue (the parent of the
 * active token, or within the reuse interval). A data write (an insert, or any other
 * non-GET REST request) never is: a gateway's 502/504 may come after the database committed
 * the insert, and a 503 from a gateway does not say whether it forwarded the request, so a
 * retry could store the entry twice. The one exception is a 503 that proves no SQL ran.
 *
 * @param method the HTTP method, any case
 * @param status the answer's HTTP status
 * @param attempt how many tries were made so far (1 after the first)
 * @param context what the request is (see {@link RetryContext})
 * @returns true when one more try is to be made
 */
export function shouldRetry(
  method: string,
  status: number,
  attempt: number,
  context: RetryContext = {},
): boolean {
  if (!GATEWAY_STATUSES.has(status) || attempt > RETRY_DELAYS_MS.length) return false;
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || context.auth) return true;
  return status === 503 && context.notExecuted === true;
}

/**
 * How long to wait before the next try: the answer's `Retry-After` when it has one
 * (delta-seconds or an HTTP date, RFC 9110 §10.2.3), else the CLI's own back-off.
 *
 * @param attempt how many tries were made so far (1 after the first)
 * @param retryAfter the answer's `Retry-After` header, or null
 * @param now the current time, epoch ms (for an HTTP date)
 * @returns the wait in milliseconds, or `undefined` when the server asks for more than
 *   {@link RETRY_AFTER_CAP_MS} (the caller gives up instead of waiting)
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: string | null,
  now = Date.now(),
): number | undefined {
  const own = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1] ?? 0;
  const asked = parseRetryAfter(retryAfter, now);
  if (asked === undefined) return own;
  return asked > RETRY_AFTER_CAP_MS ? undefined : asked;
}

/**
 * `Retry-After` in milliseconds from `now` (epoch ms), or undefined when absent or not
 * understood.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The body parsed as JSON, or `{ ok: false }` when it is not JSON. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** True when the body is PostgREST's own error saying it ran no SQL. */
export function provesNotExecuted(text: string): boolean {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return false;
  const code = (parsed.value as { code?: unknown }).code;
  return typeof code === 'string' && NOT_EXECUTED_CODES.has(code);
}
