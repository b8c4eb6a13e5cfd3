import { NetworkError, TimeoutError } from '../shared/errors.js';

/** How long one request may take before the CLI gives up on it. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** A fetch for supabase-js that fails fast, and a guard that reports its failures. */
export interface Transport {
  fetch: typeof fetch;
  /**
   * Runs supabase-js calls and throws NetworkError ("Cannot reach <url>") or TimeoutError
   * when any request in them got no answer, whatever supabase-js made of it.
   */
  guard<T>(call: () => Promise<T>): Promise<T>;
}

/**
 * A fetch that turns "no answer" into an immediate, non-retryable answer and remembers why.
 *
 * Why: when the backend is down, supabase-js would wait before failing. auth-js retries a
 * failed token refresh with back-off for up to ~25 s and logs each failure with
 * `console.error`; postgrest-js retries GETs after 1, 2 and 4 s (its `retry` option is not
 * passed through by supabase-js 2.109's `createClient`). A person at a terminal or a CI job
 * gains nothing from that when the connection is refused, so the CLI says "Cannot reach"
 * at once. HTTP 503/520 answers are still retried by postgrest-js as it intends.
 *
 * @param baseUrl the API base URL, used in the messages
 * @param timeoutMs time-out per request in milliseconds
 */
export function createTransport(baseUrl: string, timeoutMs = REQUEST_TIMEOUT_MS): Transport {
  let failure: NetworkError | TimeoutError | undefined;

  const failFast: typeof fetch = async (input, init) => {
    const timer = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timer]) : timer;
    try {
      return await fetch(input, { ...init, signal });
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      // A data write that timed out may have been stored: the error says so (an entry).
      const method = (init?.method ?? 'GET').toUpperCase();
      const url = input instanceof Request ? input.url : String(input);
      const write = url.includes('/rest/v1/') && method !== 'GET' && method !== 'HEAD';
      failure = timer.aborted
        ? new TimeoutError(baseUrl, timeoutMs, write)
        : new NetworkError(baseUrl, error);
      // Status 599 is outside what either library retries (auth-js: 502-504, postgrest-js:
      // 503, 520); the guard replaces whatever error they build from it with `failure`.
      return Response.json(
        { code: failure.code, message: failure.message, msg: failure.message },
        { status: 599 },
      );
    }
  };

  return {
    fetch: failFast,
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
