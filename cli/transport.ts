import { AsyncLocalStorage } from 'node:async_hooks';
import { STATUS_CODES } from 'node:http';
import { setTimeout as wait } from 'node:timers/promises';
import { ApiError, NamecardError, NetworkError, TimeoutError } from '../shared/core/errors.js';
import type { LookupOptions } from '../shared/core/lookup.js';
import { AnswerTooLargeError, lightFetch, type LightResponse } from './light-fetch.js';
import { OutcomeUnknownError, writeRequestName, type WriteAct } from './errors.js';

/** How long one request may take before the CLI gives up on it (`--timeout` changes it). */
export const DEFAULT_TIMEOUT_MS = 15_000;

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
 * The largest answer the CLI reads, in bytes (after decompression). The biggest real answer,
 * `namecard list --limit 1000` signed in, is about 200 KB; anything far past that is a wrong
 * URL or a hostile server, and reading it whole would take the memory with it.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** How many redirects on the same origin one request follows. */
export const MAX_REDIRECTS = 5;

const GATEWAY_STATUSES = new Set([502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The redirects that keep the method and the body (RFC 9110 §15.4.8, §15.4.9). */
const BODY_KEEPING_REDIRECTS = new Set([307, 308]);

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

/** `Retry-After` in milliseconds from `now`, or undefined when absent or not understood. */
function parseRetryAfter(value: string | null, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

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
   * The owner's write this call makes, as the command names it: an "outcome unknown" of one
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

/** A request's scope in {@link Transport.guard}: where its failure goes. */
interface Scope {
  fail(error: NamecardError): void;
  /** The write the call makes, as its command named it. */
  act?: WriteAct;
}

/** What a request is, worked out once from its method, its URL and its call. */
interface RequestFacts {
  method: string;
  auth: boolean;
  /** Not a read and not GoTrue's: a data write, never sent twice. */
  write: boolean;
  /** The write as its command named it (see {@link GuardOptions.act}). */
  act?: WriteAct;
}

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

const CHECK_URL_HINT =
  'Check that `SUPABASE_URL` (or `--api-url`) is the API URL of your Supabase project';

/** Reads a fetch body, counting bytes, and stops past `maxBytes` without keeping the rest. */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
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
 */
export function createTransport(baseUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Transport {
  return transportOver<Response>(baseUrl, timeoutMs, {
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

function transportOver<R extends Answer>(
  baseUrl: string,
  timeoutMs: number,
  wire: Wire<R>,
): Transport<(input: string | URL | Request, init?: RequestInit) => Promise<R>> {
  const scopes = new AsyncLocalStorage<Scope>();
  const origin = new URL(baseUrl).origin;

  // Touching the global `Request` would load undici too: a string or URL is never one.
  const isRequest = (input: unknown): input is Request =>
    typeof input === 'object' && !(input instanceof URL) && input !== null;

  /** The failure of a data write whose answer does not say whether it was stored. */
  const unknownOutcome = (facts: RequestFacts, what: string, cause?: unknown) =>
    Object.assign(new OutcomeUnknownError(what, facts.act), cause === undefined ? {} : { cause });

  /**
   * One try: sends, follows same-origin redirects as the policy allows, reads the body.
   *
   * @throws the typed error of the failure; the caller's abort reason
   */
  async function oneTry(
    input: string | Request,
    facts: RequestFacts,
    init: RequestInit | undefined,
    outside: AbortSignal[],
  ): Promise<{ response: R; text: string }> {
    let target = input;
    const method = facts.method;
    let body = init?.body;
    for (let redirects = 0; ; redirects++) {
      // A timer that keeps the process alive, unlike AbortSignal.timeout(): when a server
      // resets the connection, Node 20's fetch waits on unref'd timers only, and the process
      // would exit (code 13) without a word.
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), timeoutMs);
      const signal = AbortSignal.any([...outside, timeout.signal]);
      let sent: { response: R; text: string };
      try {
        sent = await wire.send(target, method, { ...init, body }, signal, MAX_ANSWER_BYTES);
      } catch (error) {
        for (const s of outside) if (s.aborted) throw s.reason;
        if (error instanceof AnswerTooLargeError) {
          const what = `${baseUrl} answered more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB (HTTP ${error.status})`;
          if (facts.write) throw unknownOutcome(facts, `${what} to ${writeRequestName(facts.act)}`);
          throw new ApiError(error.status, 'answer_too_large', what, null, CHECK_URL_HINT);
        }
        if (timeout.signal.aborted) {
          const late = `No answer from ${baseUrl} within ${timeoutMs} ms`;
          throw facts.write ? unknownOutcome(facts, late) : new TimeoutError(baseUrl, timeoutMs);
        }
        if (facts.write && !notConnected(error)) {
          throw unknownOutcome(
            facts,
            `The connection to ${baseUrl} broke during ${writeRequestName(facts.act)}`,
            new NetworkError(baseUrl, error),
          );
        }
        throw new NetworkError(baseUrl, error);
      } finally {
        clearTimeout(timer);
      }

      const { status } = sent.response;
      const location = sent.response.headers.get('location');
      if (!REDIRECT_STATUSES.has(status) || location === null) return sent;
      const from = isRequest(target) ? target.url : target;
      const next = new URL(location, from);
      const refuse = (why: string) =>
        new ApiError(
          status,
          'redirect_refused',
          `${baseUrl} answered ${statusLine(status)} to ${next.origin}, ${why}: not followed`,
          null,
          'Set `SUPABASE_URL` (or `--api-url`) to the address the API answers at',
        );
      if (next.origin !== origin) throw refuse('another origin');
      const safeMethod = method === 'GET' || method === 'HEAD';
      if (!safeMethod && !BODY_KEEPING_REDIRECTS.has(status)) {
        throw refuse(`which would turn the ${method} into a GET`);
      }
      if (!safeMethod && isRequest(target) && target.body !== null) {
        throw refuse('and the request body cannot be sent again');
      }
      if (redirects >= MAX_REDIRECTS) throw refuse(`after ${MAX_REDIRECTS} redirects`);
      if (safeMethod) body = undefined;
      target = next.href;
    }
  }

  /** One request with retries: the answer for the caller, or its typed error. */
  async function exchange(
    input: string | URL | Request,
    init: RequestInit | undefined,
    act: WriteAct | undefined,
  ): Promise<R> {
    const request = isRequest(input) ? input : String(input);
    const url = isRequest(request) ? request.url : request;
    const method = (init?.method ?? (isRequest(request) ? request.method : 'GET')).toUpperCase();
    const read = method === 'GET' || method === 'HEAD';
    const auth = new URL(url).pathname.includes('/auth/v1/');
    // Every request that is neither a read nor GoTrue's counts as a write, named or not: a
    // write is never sent twice, whatever its URL looks like.
    const facts: RequestFacts = { method, auth, write: !read && !auth, act };
    const outside = init?.signal ? [init.signal] : [];

    for (let attempt = 1; ; attempt++) {
      const { response, text } = await oneTry(request, facts, init, outside);
      const { status } = response;
      if (GATEWAY_STATUSES.has(status)) {
        const notExecuted = facts.write && provesNotExecuted(text);
        if (facts.write && !notExecuted) {
          throw unknownOutcome(
            facts,
            `${baseUrl} answered ${statusLine(status)} to ${writeRequestName(facts.act)}`,
          );
        }
        if (shouldRetry(method, status, attempt, { auth: facts.auth, notExecuted })) {
          const delay = retryDelayMs(attempt, response.headers.get('retry-after'));
          if (delay === undefined) {
            const asked = parseRetryAfter(response.headers.get('retry-after'), Date.now()) ?? 0;
            throw new ApiError(
              status,
              'gateway_error',
              `${baseUrl} answered ${statusLine(status)} and asks to wait ${Math.ceil(asked / 1000)} s before trying again`,
              null,
              'The API or its gateway is having trouble: try again later',
            );
          }
          try {
            await wait(delay, undefined, {
              signal: outside.length > 0 ? AbortSignal.any(outside) : undefined,
            });
          } catch (error) {
            for (const s of outside) if (s.aborted) throw s.reason;
            throw error;
          }
          continue;
        }
        throw new ApiError(
          status,
          'gateway_error',
          `${baseUrl} answered ${statusLine(status)}, ${attempt} times in a row`,
          null,
          'The API or its gateway is having trouble: try again in a minute',
        );
      }

      const empty = text === '';
      if ((!empty && !parseJson(text).ok) || (facts.write && response.ok && empty)) {
        const type = response.headers.get('content-type')?.split(';')[0] ?? 'no content type';
        const what = `${baseUrl} answered something that is not JSON (HTTP ${status}, ${type})`;
        if (facts.write) throw unknownOutcome(facts, `${what} to ${writeRequestName(facts.act)}`);
        throw new ApiError(status, 'invalid_response', what, null, CHECK_URL_HINT);
      }
      return wire.answer(response, text);
    }
  }

  const transportFetch = async (input: string | URL | Request, init?: RequestInit): Promise<R> => {
    const scope = scopes.getStore();
    try {
      return await exchange(input, init, scope?.act);
    } catch (error) {
      if (!scope || !(error instanceof NamecardError)) throw error;
      // The guard rejects with the error; supabase-js is left waiting (see createTransport).
      scope.fail(error);
      return new Promise<R>(() => undefined);
    }
  };

  return {
    fetch: transportFetch,
    guard<T>(call: () => PromiseLike<T>, options: GuardOptions = {}): Promise<T> {
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
    },
  };
}

/**
 * The one lookup-options object of a CLI run: the API, its anon key and the transport's fetch
 * (which times out, retries and reports failures itself, so no `timeoutMs` is set here).
 *
 * @param config the run's API URL and anon key
 * @param transport the run's transport (either kind)
 */
export function lookupOptions(
  config: { supabaseUrl: string; anonKey: string },
  transport: Transport<LightTransportFetch> | Transport,
): LookupOptions {
  return { supabaseUrl: config.supabaseUrl, anonKey: config.anonKey, fetch: transport.fetch };
}
