import { request as httpRequest, type IncomingMessage } from 'node:http';

// Why not the global fetch here: on Node 20 its first use loads and compiles the bundled
// undici, which the benchmark measured at ~150 ms, five times Node's own start-up. `namecard
// status` makes one small GET, so it goes through node:http instead. This is deliberately
// tiny: GET/POST with string bodies, the fields of a Response that the namecard module and the
// CLI's transport read, and errors shaped like fetch's (`TypeError` with the socket error as
// `cause`), so the transport treats both alike. Commands that use supabase-js keep fetch.
// Like the transport's fetch it never follows a redirect itself (node:http does not), and it
// stops reading an answer past `maxBytes`. node:https (with TLS and node:crypto, several ms to
// load) is loaded only for an https: URL.

/** The part of a fetch `Response` that the CLI and `fetchActiveEntry` read. */
export interface LightResponse {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** The part of `RequestInit` that {@link lightFetch} honours. */
export interface LightInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** The most bytes of body read; past it the request is dropped with {@link AnswerTooLargeError}. */
  maxBytes?: number;
}

/** An answer's body was longer than the reader's limit: reading stopped there. */
export class AnswerTooLargeError extends Error {
  /**
   * @param maxBytes the limit in bytes
   * @param status the answer's HTTP status
   */
  constructor(
    readonly maxBytes: number,
    readonly status: number,
  ) {
    super(`The answer is longer than ${maxBytes} bytes`);
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * Builds a {@link LightResponse} around an already-read body.
 *
 * @param status HTTP status; `ok` is true for 200-299
 * @param headers response headers by lower-case name
 */
export function lightResponse(
  status: number,
  statusText: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): LightResponse {
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText,
    headers: {
      get: (name) => {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: async () => body,
    json: async () => JSON.parse(body) as unknown,
  };
}

/**
 * One HTTP(S) request with node:http, answered as a {@link LightResponse} once the whole body
 * has arrived. Redirects are answered as they are, never followed.
 *
 * @param url an absolute http: or https: URL
 * @throws TypeError('fetch failed') with the socket error as `cause` when no answer came;
 *   the signal's reason (an AbortError) when `init.signal` aborted it; AnswerTooLargeError
 *   when the body (or its announced `content-length`) is longer than `init.maxBytes`, after
 *   dropping the connection
 */
export async function lightFetch(url: string | URL, init: LightInit = {}): Promise<LightResponse> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const maxBytes = init.maxBytes ?? Infinity;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      { method: init.method ?? 'GET', headers: init.headers, signal: init.signal },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const tooLarge = () => {
          reject(new AnswerTooLargeError(maxBytes, status));
          res.destroy();
          req.destroy();
        };
        if (Number(res.headers['content-length']) > maxBytes) return tooLarge();
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) tooLarge();
          else chunks.push(chunk);
        });
        res.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
        res.on('end', () =>
          resolve(
            lightResponse(
              status,
              res.statusMessage ?? '',
              res.headers,
              Buffer.concat(chunks).toString('utf8'),
            ),
          ),
        );
      },
    );
    req.on('error', (error) => {
      if (init.signal?.aborted) reject(init.signal.reason);
      else reject(new TypeError('fetch failed', { cause: error }));
    });
    req.end(init.body);
  });
}
