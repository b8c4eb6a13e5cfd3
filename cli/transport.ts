import { STATUS_CODES } from 'node:http';
import { ApiError, NetworkError, TimeoutError, type NamecardError } from '../shared/core/errors.js';
import { lightFetch, lightResponse, type LightResponse } from './light-fetch.js';
import { OutcomeUnknownError } from './errors.js';

/** How long one request may take before the CLI gives up on it (`--timeout` changes it). */
export const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * The waits before the 2nd, 3rd and 4th try of a request answered 502, 503 or 504 (the
 * retryable gateway statuses): four tries within about two seconds, enough to ride
 * out a gateway's restart or a brief overload without keeping a person or a CI job waiting.
 */
export const RETRY_DELAYS_MS = [250, 500, 1000] as const;

const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * PostgREST's own 503 codes: it could not connect to the database (PGRST000, PGRST001), its
 * schema cache was not loaded (PGRST002), or no pool connection was free (PGRST003). In all
 * four it ran no SQL, so even an insert is certain not to have happened.
 */
const NOT_EXECUTED_CODES = new Set(['PGRST000', 'PGRST001', 'PGRST002', 'PGRST003']);

/** Errors that mean the connection was never made: nothing was sent, nothing was done. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/**
 * The contract every data and auth call in the CLI follows: the call goes through a transport's
 * `fetch`, and is wrapped in its `guard`, which throws the transport's own error whatever the
 * library on top (supabase-js) made of the failure. Writes are never retried (see
 * {@link createTransport} for the whole policy).
 */
export interface Transport<F = typeof fetch> {
  fetch: F;
  /**
   * Runs calls that use {@link Transport.fetch} and throws the transport's own error
   * (NetworkError "Cannot reach <url>", TimeoutError, OutcomeUnknownError, or ApiError for
   * gateway errors and garbage) when any request in them failed that way.
   */
  guard<T>(call: () => Promise<T>): Promise<T>;
}

/** The fields of an answer the transport reads: fetch's `Response` and {@link LightResponse} both have them. */
interface Answer {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** How one try is sent, and how a failure or a checked answer is handed back to the caller. */
interface Wire<R extends Answer> {
  send(
    input: string | URL | Request,
    method: string,
    init: RequestInit | undefined,
    signal: AbortSignal,
  ): Promise<R>;
  /** The answer to give the caller for an answer whose body `text` has been read and checked. */
  answer(response: R, text: string): R;
  /** An answer with status 599 and the failure as JSON, which no library retries. */
  failed(body: string): R;
}

type Failure = NamecardError;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function notConnected(error: unknown): boolean {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' && NOT_CONNECTED_CODES.has(cause.code);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** True when the body is PostgREST's own error saying it ran no SQL. */
function provesNotExecuted(text: string): boolean {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return false;
  const code = (parsed.value as { code?: unknown }).code;
  return typeof code === 'string' && NOT_EXECUTED_CODES.has(code);
}

const statusLine = (status: number) => `${status} ${STATUS_CODES[status] ?? ''}`.trim();

/**
 * The CLI's fetch. The policy, and why:
 *
 * - No answer at all: reported at once, never retried. A refused connection is "Cannot reach
 *   <url>"; supabase-js would otherwise wait (auth-js retries a failed refresh with back-off
 *   for up to ~25 s, postgrest-js retries GETs after 1, 2 and 4 s), which helps nobody when
 *   the backend is down.
 * - Time-out (`timeoutMs` per try): a TimeoutError; for a data write it is "outcome unknown"
 *   (OutcomeUnknownError), since the request was sent and the server may have stored the row.
 * - 502, 503 or 504: reads and auth requests are tried again after 250, 500 and 1000 ms, then
 *   fail naming the status. Retrying them is safe: a read changes nothing, and a refresh
 *   token that was spent by a try whose answer was lost is answered again by GoTrue (the
 *   parent of the active token, or within the reuse interval). A data write is NOT retried:
 *   a gateway's 502/504 may come after the database committed the insert, and a 503 from a
 *   gateway does not say whether it forwarded the request, so a retry could store the entry
 *   twice, and a failure could not honestly say "nothing was stored". It fails as "outcome
 *   unknown" and points to `namecard status`. The one exception is PostgREST's own 503
 *   (PGRST000-PGRST003), which proves no SQL ran: that write is retried like a read.
 * - An answer that is not JSON (an HTML error page, a truncated body): a clear error, not
 *   retried; for a data write, again "outcome unknown".
 *
 * Every failure is remembered for {@link Transport.guard} and handed to supabase-js as status
 * 599, which neither library retries (auth-js: 502-504, postgrest-js: 503, 520).
 *
 * @param baseUrl the API base URL, used in the messages
 * @param timeoutMs time-out per try in milliseconds
 */
export function createTransport(baseUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Transport {
  return transportOver<Response>(baseUrl, timeoutMs, {
    send: (input, _method, init, signal) =>
      fetch(input instanceof Request ? input.clone() : input, { ...init, signal }),
    answer: (response, text) => {
      const nullBody =
        response.status === 204 || response.status === 205 || response.status === 304;
      return new Response(nullBody || text === '' ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
    failed: (body) => Response.json(JSON.parse(body), { status: 599 }),
  });
}

/** A fetch with the transport's policy over node:http, for plain GET callers (`namecard status`). */
export type LightTransportFetch = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; signal?: AbortSignal },
) => Promise<LightResponse>;

/**
 * The same policy as {@link createTransport}, sending with node:http ({@link lightFetch})
 * instead of the global fetch: on Node 20, fetch's first use loads undici (~150 ms), which a
 * command making one small GET should not pay. Not for supabase-js, which needs a real fetch.
 *
 * @param baseUrl the API base URL, used in the messages
 * @param timeoutMs time-out per try in milliseconds
 */
export function createLightTransport(
  baseUrl: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Transport<LightTransportFetch> {
  return transportOver<LightResponse>(baseUrl, timeoutMs, {
    send: (input, method, init, signal) =>
      lightFetch(String(input), {
        method,
        headers: init?.headers as Record<string, string> | undefined,
        body: init?.body as string | undefined,
        signal,
      }),
    // Its text() answers the body read before again.
    answer: (response) => response,
    failed: (body) => lightResponse(599, '', { 'content-type': 'application/json' }, body),
  }) as Transport<LightTransportFetch>;
}

function transportOver<R extends Answer>(
  baseUrl: string,
  timeoutMs: number,
  wire: Wire<R>,
): Transport<(input: string | URL | Request, init?: RequestInit) => Promise<R>> {
  let failure: Failure | undefined;

  const fail = (error: Failure): R => {
    failure = error;
    return wire.failed(
      JSON.stringify({ code: error.code, message: error.message, msg: error.message }),
    );
  };
  // Touching the global `Request` would load undici too: a string or URL is never one.
  const isRequest = (input: unknown): input is Request =>
    typeof input === 'object' && !(input instanceof URL) && input !== null;

  const transportFetch = async (input: string | URL | Request, init?: RequestInit): Promise<R> => {
    const method = (init?.method ?? (isRequest(input) ? input.method : 'GET')).toUpperCase();
    const url = isRequest(input) ? input.url : String(input);
    const write = url.includes('/rest/v1/') && method !== 'GET' && method !== 'HEAD';

    for (let attempt = 1; ; attempt++) {
      // A timer that keeps the process alive, unlike AbortSignal.timeout(): when a server
      // resets the connection, Node 20's fetch waits on unref'd timers only, and the process
      // would exit (code 13) without a word.
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), timeoutMs);
      const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
      let response: R;
      let text: string;
      try {
        response = await wire.send(input, method, init, signal);
        text = await response.text();
      } catch (error) {
        if (init?.signal?.aborted) throw error;
        if (timeout.signal.aborted) {
          const late = `No answer from ${baseUrl} within ${timeoutMs} ms`;
          return fail(write ? new OutcomeUnknownError(late) : new TimeoutError(baseUrl, timeoutMs));
        }
        if (write && !notConnected(error)) {
          const lost = new NetworkError(baseUrl, error);
          return fail(
            Object.assign(
              new OutcomeUnknownError(`The connection to ${baseUrl} broke during the insert`),
              {
                cause: lost,
              },
            ),
          );
        }
        return fail(new NetworkError(baseUrl, error));
      } finally {
        clearTimeout(timer);
      }

      const { status } = response;
      if (GATEWAY_STATUSES.has(status)) {
        if (write && !provesNotExecuted(text)) {
          return fail(
            new OutcomeUnknownError(`${baseUrl} answered ${statusLine(status)} to the insert`),
          );
        }
        const delay = RETRY_DELAYS_MS[attempt - 1];
        if (delay !== undefined) {
          await sleep(delay);
          continue;
        }
        return fail(
          new ApiError(
            status,
            'gateway_error',
            `${baseUrl} answered ${statusLine(status)}, ${attempt} times in a row`,
            null,
            'The API or its gateway is having trouble: try again in a minute',
          ),
        );
      }

      const empty = text === '';
      if ((!empty && !parseJson(text).ok) || (write && response.ok && empty)) {
        const type = response.headers.get('content-type')?.split(';')[0] ?? 'no content type';
        const what = `${baseUrl} answered something that is not JSON (HTTP ${status}, ${type})`;
        if (write) return fail(new OutcomeUnknownError(`${what} to the insert`));
        return fail(
          new ApiError(
            status,
            'invalid_response',
            what,
            null,
            'Check that `SUPABASE_URL` (or `--api-url`) is the API URL of your Supabase project',
          ),
        );
      }
      return wire.answer(response, text);
    }
  };

  return {
    fetch: transportFetch,
    async guard(call) {
      failure = undefined;
      let result: Awaited<ReturnType<typeof call>>;
      try {
        result = await call();
      } catch (error) {
        if (failure) throw failure;
        throw error;
      }
      if (failure) throw failure;
      return result;
    },
  };
}
