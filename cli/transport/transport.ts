import { AsyncLocalStorage } from 'node:async_hooks';
import { STATUS_CODES } from 'node:http';
import { ApiError, NamecardError, NetworkError, TimeoutError } from '../../shared/core/errors.js';
import { AnswerTooLargeError, lightFetch, type LightResponse } from './light-fetch.js';
import { OutcomeUnknownError, writeRequestName, type WriteAct } from '../errors.js';
import {
  describeCall,
  isSafeMethod,
  isWrite,
  type Call,
  type WriteCall,
} from './transport-call.js';
import {
  GATEWAY_STATUSES,
  parseJson,
  parseRetryAfter,
  provesNotExecuted,
  retryDelayMs,
  shouldRetry,
} from './transport-retry.js';

export { describeCall, type Call } from './transport-call.js';
export {
  RETRY_AFTER_CAP_MS,
  RETRY_DELAYS_MS,
  retryDelayMs,
  shouldRetry,
  type RetryContext,
} from './transport-retry.js';

// The transport, as named steps (each below, in the order a request meets them):
//   describeCall          what the request is, once (transport-call.ts)
//   fetchWithRetry        tries again as shouldRetry says, waiting retryDelayMs (transport-retry.ts)
//   sendFollowingRedirects  one try: follows same-origin redirects as redirectTarget allows
//   sendOnce              one request under the time-out; sendFailure names what went wrong
//   readCapped / lightFetch  the body, cut off past MAX_ANSWER_BYTES
//   checkAnswer           an answer that is not JSON is a failure (for a write: outcome unknown)
// A write's lost answer is always `unknownOutcome`, naming the act its command declared.

/** How long one request may take before the CLI gives up on it (`--timeout` changes it). */
export const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * The largest answer the CLI reads, in bytes (after decompression). The biggest real answer,
 * `namecard list --limit 1000` signed in, is about 200 KB; anything far past that is a wrong
 * URL or a hostile server, and reading it whole would take the memory with it.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** How many redirects on the same origin one request follows. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The redirects that keep the method and the body (RFC 9110 §15.4.8, §15.4.9). */
const BODY_KEEPING_REDIRECTS = new Set([307, 308]);

/** Errors that mean the connection was never made: nothing was sent, nothing was done. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

const CHECK_URL_HINT =
  'Check that `SUPABASE_URL` (or `--api-url`) is the API URL of your Supabase project';

/**
 * The CLI's connection to the API: the fetch that supabase-js and the lookups use, and the
 * way a call learns how its own requests failed.
 */
export interface Transport<F = typeof fetch> {
  /**
   * The fetch with the CLI's policy (see {@link createTransport}). Outside a
   * {@link Transport.guard} call it throws its typed error (NetworkError, TimeoutError,
   * OutcomeUnknownError, ApiError) itself: `fetchViewEntry` passes that on as it is.
   */
  fetch: F;
  /**
   * Runs `call` in a scope of its own and rejects with the typed error of the first request
   * of that scope that failed, as soon as it failed: the way to call supabase-js, which
   * would otherwise turn the failure into a message of its own. Calls in flight at the same
   * time each get their own error. A request (and its wait between tries) is cancelled by
   * the caller's own AbortSignal (`init.signal`, e.g. `LookupOptions.signal`).
   */
  guard<T>(call: () => PromiseLike<T>, options?: GuardOptions): Promise<T>;
}

/** What a {@link Transport.guard} call is. */
export interface GuardOptions {
  /**
   * The write this call makes, as the command names it: an "outcome unknown" of one
   * of its requests says which act may or may not have happened.
   */
  act?: WriteAct;
}

/** The fields of an answer the transport reads: fetch's `Response` and {@link LightResponse} both have them. */
interface Answer {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
}

/** How one try is sent and its body read, and how the answer is handed back to the caller. */
interface Wire<R extends Answer> {
  /**
   * Sends one request (never following a redirect) and reads the whole body.
   *
   * @throws AnswerTooLargeError past `maxBytes`; the signal's reason when aborted; a
   *   TypeError for a network failure
   */
  send(
    input: string | Request,
    method: string,
    init: RequestInit | undefined,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<{ response: R; text: string }>;
  /** The answer to give the caller for an answer whose body `text` has been read and checked. */
  answer(response: R, text: string): R;
}

/**
 * Reads a fetch body, counting bytes, and stops past `maxBytes` without keeping the rest.
 *
 * @throws AnswerTooLargeError past `maxBytes` (an announced length past it: before reading)
 */
export async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new AnswerTooLargeError(maxBytes, response.status);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(maxBytes, response.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The CLI's fetch. The policy, and why:
 *
 * - No answer at all: reported at once, never retried. A refused connection is "Cannot reach
 *   <url>"; supabase-js would otherwise wait (auth-js retries a failed refresh with back-off
 *   for up to ~25 s, postgrest-js retries GETs after 1, 2 and 4 s), which helps nobody when
 *   the backend is down.
 * - Time-out (`timeoutMs` per try): a TimeoutError; for a data write it is "outcome unknown"
 *   (OutcomeUnknownError), since the request was sent and the server may have stored the row.
 * - 502, 503 or 504: tried again as {@link shouldRetry} decides, after 250, 500 and 1000 ms
 *   or the answer's `Retry-After` (at most {@link RETRY_AFTER_CAP_MS}); then a failure naming
 *   the status. A data write answered so fails as "outcome unknown" and points to
 *   `namecard status`.
 * - An answer that is not JSON (an HTML error page, a truncated body): a clear error, not
 *   retried; for a data write, again "outcome unknown".
 * - An answer longer than {@link MAX_ANSWER_BYTES}: reading stops there, and it fails.
 * - A redirect to another origin (scheme, host or port) is never followed: nothing, not the
 *   password, not the anon key, is sent there, and the call fails naming that origin. On the
 *   same origin, a GET or HEAD follows 301, 302, 303, 307 and 308; any other method follows
 *   only 307 and 308, which keep the method and body (a 301/302/303 would turn a write into a
 *   GET, so it fails instead); at most {@link MAX_REDIRECTS} in a row.
 *
 * Failures travel as typed errors with their own call ({@link Transport.guard}); supabase-js
 * never sees a made-up answer. Inside a guard, the failed request's promise is left pending
 * for supabase-js: auth-js would print a thrown error with console.error and keep only its
 * text, postgrest-js would turn it into a message; the guard has already rejected, and a
 * pending promise holds nothing open.
 *
 * @param baseUrl the API base URL, used in the messages and as the one origin requests go to
 * @param timeoutMs time-out per try in milliseconds
 * @param signal ends every request of this transport, and every wait between tries, when it
 *   aborts (a run's own time limit, as `namecard doctor` has); a NamecardError as its reason is
 *   the error the calls fail with
 */
export function createTransport(
  baseUrl: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  signal?: AbortSignal,
): Transport {
  return transportOver<Response>(baseUrl, timeoutMs, signal, {
    send: async (input, method, init, signal, maxBytes) => {
      const response = await fetch(typeof input === 'string' ? input : input.clone(), {
        ...init,
        method,
        signal,
        redirect: 'manual',
      });
      return { response, text: await readCapped(response, maxBytes) };
    },
    answer: (response, text) => {
      const nullBody =
        response.status === 204 || response.status === 205 || response.status === 304;
      return new Response(nullBody || text === '' ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  });
}

/**
 * A fetch with the transport's policy over node:http, for callers of plain requests with
 * string bodies (`namecard status`, and the caller's commands on the light path).
 */
export type LightTransportFetch = (
  url: string,
  init?: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    signal?: AbortSignal;
  },
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
  return transportOver<LightResponse>(baseUrl, timeoutMs, undefined, {
    send: async (input, method, init, signal, maxBytes) => {
      const response = await lightFetch(typeof input === 'string' ? input : input.url, {
        method,
        headers: init?.headers as Record<string, string> | undefined,
        body: init?.body as string | undefined,
        signal,
        maxBytes,
      });
      return { response, text: await response.text() };
    },
    // Its text() answers the body read before again.
    answer: (response) => response,
  }) as Transport<LightTransportFetch>;
}

/** A request's scope in {@link Transport.guard}: where its failure goes. */
interface Scope {
  fail(error: NamecardError): void;
  /** The write the call makes, as its command named it. */
  act?: WriteAct;
}

/** One transport's fixed parts: where it sends, how long a try may take, and how. */
interface Link<R extends Answer> {
  /** The API base URL: named in messages; its origin is the one redirects may go to. */
  baseUrl: string;
  timeoutMs: number;
  /** Ends every request when it aborts (see {@link createTransport}). */
  signal?: AbortSignal;
  wire: Wire<R>;
}

/** An answer whose body has been read. */
interface Sent<R extends Answer> {
  response: R;
  text: string;
}

/** What is sent: the caller's URL (or Request) and init, and the caller's own abort signals. */
interface Outgoing {
  target: string | Request;
  init: RequestInit | undefined;
  outside: AbortSignal[];
}

// Touching the global `Request` would load undici too: a string or URL is never one.
const isRequest = (input: unknown): input is Request =>
  typeof input === 'object' && !(input instanceof URL) && input !== null;

const statusLine = (status: number) => `${status} ${STATUS_CODES[status] ?? ''}`.trim();

function notConnected(error: unknown): boolean {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' && NOT_CONNECTED_CODES.has(cause.code);
}

/** The caller's abort reason, when one of its signals has aborted. */
function callerAbort(outside: AbortSignal[]): { reason: unknown } | undefined {
  const aborted = outside.find((s) => s.aborted);
  return aborted ? { reason: aborted.reason } : undefined;
}

/** The failure of a data write whose answer does not say whether it was stored. */
function unknownOutcome(call: WriteCall, what: string, cause?: unknown): OutcomeUnknownError {
  const error = new OutcomeUnknownError(what, call.act);
  return cause === undefined ? error : Object.assign(error, { cause });
}

/**
 * What a try that got no answer failed with: a too long answer, a time-out, a broken
 * connection (for a write: outcome unknown, unless the connection was never made).
 */
function sendFailure(
  link: Link<Answer>,
  call: Call,
  error: unknown,
  timedOut: boolean,
): NamecardError {
  const { baseUrl, timeoutMs } = link;
  if (error instanceof AnswerTooLargeError) {
    const what = `${baseUrl} answered more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB (HTTP ${error.status})`;
    if (isWrite(call)) return unknownOutcome(call, `${what} to ${writeRequestName(call.act)}`);
    return new ApiError(error.status, 'answer_too_large', what, null, CHECK_URL_HINT);
  }
  if (timedOut) {
    const late = `No answer from ${baseUrl} within ${timeoutMs} ms`;
    return isWrite(call) ? unknownOutcome(call, late) : new TimeoutError(baseUrl, timeoutMs);
  }
  if (isWrite(call) && !notConnected(error)) {
    return unknownOutcome(
      call,
      `The connection to ${baseUrl} broke during ${writeRequestName(call.act)}`,
      new NetworkError(baseUrl, error),
    );
  }
  return new NetworkError(baseUrl, error);
}

/**
 * Sends one request (no redirect followed) and reads its body, within `link.timeoutMs`.
 *
 * @throws the caller's abort reason; else the typed error of {@link sendFailure}
 */
async function sendOnce<R extends Answer>(
  link: Link<R>,
  call: Call,
  out: Outgoing,
): Promise<Sent<R>> {
  // A timer that keeps the process alive, unlike AbortSignal.timeout(): when a server
  // resets the connection, Node 20's fetch waits on unref'd timers only, and the process
  // would exit (code 13) without a word.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), link.timeoutMs);
  const signal = AbortSignal.any([...out.outside, timeout.signal]);
  try {
    return await link.wire.send(out.target, call.method, out.init, signal, MAX_ANSWER_BYTES);
  } catch (error) {
    const aborted = callerAbort(out.outside);
    if (aborted) throw aborted.reason;
    throw sendFailure(link, call, error, timeout.signal.aborted);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Where a redirect answer leads, if it is followed: same origin only; a GET or HEAD follows
 * 301, 302, 303, 307 and 308, any other method only 307 and 308 (which keep method and body)
 * and only when its body can be sent again; at most {@link MAX_REDIRECTS} in a row.
 *
 * @param from the URL that answered
 * @param redirects how many redirects were followed before this one
 * @returns the next URL, or undefined when the answer is not a redirect
 * @throws ApiError `redirect_refused` naming the origin and the reason
 */
export function redirectTarget(
  baseUrl: string,
  method: string,
  from: string | Request,
  answer: Answer,
  redirects: number,
): string | undefined {
  const { status } = answer;
  const location = answer.headers.get('location');
  if (!REDIRECT_STATUSES.has(status) || location === null) return undefined;
  const next = new URL(location, isRequest(from) ? from.url : from);
  const refuse = (why: string) =>
    new ApiError(
      status,
      'redirect_refused',
      `${baseUrl} answered ${statusLine(status)} to ${next.origin}, ${why}: not followed`,
      null,
      'Set `SUPABASE_URL` (or `--api-url`) to the address the API answers at',
    );
  if (next.origin !== new URL(baseUrl).origin) throw refuse('another origin');
  const safe = isSafeMethod(method);
  if (!safe && !BODY_KEEPING_REDIRECTS.has(status)) {
    throw refuse(`which would turn the ${method} into a GET`);
  }
  if (!safe && isRequest(from) && from.body !== null) {
    throw refuse('and the request body cannot be sent again');
  }
  if (redirects >= MAX_REDIRECTS) throw refuse(`after ${MAX_REDIRECTS} redirects`);
  return next.href;
}

/** One try: sends, and follows same-origin redirects as {@link redirectTarget} allows. */
async function sendFollowingRedirects<R extends Answer>(
  link: Link<R>,
  call: Call,
  first: Outgoing,
): Promise<Sent<R>> {
  let out = first;
  for (let redirects = 0; ; redirects++) {
    const sent = await sendOnce(link, call, out);
    const next = redirectTarget(link.baseUrl, call.method, out.target, sent.response, redirects);
    if (next === undefined) return sent;
    // A GET or HEAD sends no body; a 307/308 of a write sends its body again.
    const init = isSafeMethod(call.method) ? { ...out.init, body: undefined } : out.init;
    out = { ...out, target: next, init };
  }
}

/**
 * The wait before trying a gateway answer (502, 503, 504) again.
 *
 * @returns the wait in milliseconds
 * @throws OutcomeUnknownError for a write (unless the answer proves no SQL ran); ApiError
 *   `gateway_error` when {@link shouldRetry} says no more tries, or the server asks to wait
 *   longer than the cap
 */
function gatewayRetryDelay(baseUrl: string, call: Call, sent: Sent<Answer>, attempt: number) {
  const { status, headers } = sent.response;
  const write = isWrite(call);
  const notExecuted = write && provesNotExecuted(sent.text);
  if (write && !notExecuted) {
    throw unknownOutcome(
      call,
      `${baseUrl} answered ${statusLine(status)} to ${writeRequestName(call.act)}`,
    );
  }
  const context = { auth: call.kind === 'auth', notExecuted };
  if (!shouldRetry(call.method, status, attempt, context)) {
    throw new ApiError(
      status,
      'gateway_error',
      `${baseUrl} answered ${statusLine(status)}, ${attempt} times in a row`,
      null,
      'The API or its gateway is having trouble: try again in a minute',
    );
  }
  const delay = retryDelayMs(attempt, headers.get('retry-after'));
  if (delay !== undefined) return delay;
  const asked = parseRetryAfter(headers.get('retry-after'), Date.now()) ?? 0;
  throw new ApiError(
    status,
    'gateway_error',
    `${baseUrl} answered ${statusLine(status)} and asks to wait ${Math.ceil(asked / 1000)} s before trying again`,
    null,
    'The API or its gateway is having trouble: try again later',
  );
}

/**
 * Waits `ms` before the next try; the caller's abort ends the wait with its reason. Loads
 * node:timers/promises only then: most runs never wait.
 */
async function waitBeforeRetry(ms: number, outside: AbortSignal[]): Promise<void> {
  const { setTimeout: wait } = await import('node:timers/promises');
  try {
    await wait(ms, undefined, {
      signal: outside.length > 0 ? AbortSignal.any(outside) : undefined,
    });
  } catch (error) {
    const aborted = callerAbort(outside);
    if (aborted) throw aborted.reason;
    throw error;
  }
}

/**
 * One request with its retries (postgrest-js's fetchWithRetry is the model): tries, and
 * while the answer is a gateway status that {@link shouldRetry} allows, waits and tries again.
 *
 * @returns the first answer that is not a gateway status
 * @throws the typed error of the try or of {@link gatewayRetryDelay}
 */
async function fetchWithRetry<R extends Answer>(
  link: Link<R>,
  call: Call,
  out: Outgoing,
): Promise<Sent<R>> {
  for (let attempt = 1; ; attempt++) {
    const sent = await sendFollowingRedirects(link, call, out);
    if (!GATEWAY_STATUSES.has(sent.response.status)) return sent;
    await waitBeforeRetry(gatewayRetryDelay(link.baseUrl, call, sent, attempt), out.outside);
  }
}

/**
 * An answer the caller may have: JSON, or empty (except a write's success, which always says
 * what it stored).
 *
 * @throws ApiError `invalid_response`; for a write, OutcomeUnknownError
 */
function checkAnswer(baseUrl: string, call: Call, sent: Sent<Answer>): void {
  const { response, text } = sent;
  const empty = text === '';
  const write = isWrite(call);
  if ((empty || parseJson(text).ok) && !(write && response.ok && empty)) return;
  const type = response.headers.get('content-type')?.split(';')[0] ?? 'no content type';
  const what = `${baseUrl} answered something that is not JSON (HTTP ${response.status}, ${type})`;
  if (write) throw unknownOutcome(call, `${what} to ${writeRequestName(call.act)}`);
  throw new ApiError(response.status, 'invalid_response', what, null, CHECK_URL_HINT);
}

/** One call of the transport's fetch: what it is, its tries, its checked answer. */
async function exchange<R extends Answer>(
  link: Link<R>,
  input: string | URL | Request,
  init: RequestInit | undefined,
  act: WriteAct | undefined,
): Promise<R> {
  const target = isRequest(input) ? input : String(input);
  const url = isRequest(target) ? target.url : target;
  const method = init?.method ?? (isRequest(target) ? target.method : 'GET');
  const call = describeCall(link.baseUrl, method, url, act);
  const outside = [init?.signal, link.signal].filter((s): s is AbortSignal => s != null);
  const sent = await fetchWithRetry(link, call, { target, init, outside });
  checkAnswer(link.baseUrl, call, sent);
  return link.wire.answer(sent.response, sent.text);
}

/**
 * A guard's scope: runs `call` in it, and rejects with the first failure of one of its
 * requests as soon as it happens.
 */
function guardIn<T>(
  scopes: AsyncLocalStorage<Scope>,
  call: () => PromiseLike<T>,
  options: GuardOptions,
): Promise<T> {
  let failedOnce = false;
  let reject: (error: NamecardError) => void = () => undefined;
  const failed = new Promise<never>((_, rejectFailed) => {
    reject = rejectFailed;
  });
  const scope: Scope = {
    act: options.act,
    fail(error) {
      if (failedOnce) return;
      failedOnce = true;
      reject(error);
    },
  };
  // `await` inside the scope: a thenable (a postgrest-js query) starts its request when
  // awaited, and must do so in this scope.
  return Promise.race([scopes.run(scope, async () => await call()), failed]);
}

/** The transport over one wire: its fetch and its guard. */
function transportOver<R extends Answer>(
  baseUrl: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  wire: Wire<R>,
): Transport<(input: string | URL | Request, init?: RequestInit) => Promise<R>> {
  const scopes = new AsyncLocalStorage<Scope>();
  const link: Link<R> = { baseUrl, timeoutMs, signal, wire };
  const transportFetch = async (input: string | URL | Request, init?: RequestInit): Promise<R> => {
    const scope = scopes.getStore();
    try {
      return await exchange(link, input, init, scope?.act);
    } catch (error) {
      if (!scope || !(error instanceof NamecardError)) throw error;
      // The guard rejects with the error; supabase-js is left waiting (see createTransport).
      scope.fail(error);
      return new Promise<R>(() => undefined);
    }
  };
  return {
    fetch: transportFetch,
    guard: (call, options = {}) => guardIn(scopes, call, options),
  };
}
