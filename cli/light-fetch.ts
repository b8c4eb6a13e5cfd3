import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

// Why not the global fetch here: on Node 20 its first use loads and compiles the bundled
// undici, which the benchmark measured at ~150 ms, five times Node's own start-up. `namecard
// status` makes one small GET, so it goes through node:http instead. This is deliberately
// tiny: GET/POST with string bodies, the fields of a Response that the namecard module and the
// CLI's transport read, and errors shaped like fetch's (`TypeError` with the socket error as
// `cause`), so the transport treats both alike. Commands that use supabase-js keep fetch.

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
 * has arrived.
 *
 * @param url an absolute http: or https: URL
 * @throws TypeError('fetch failed') with the socket error as `cause` when no answer came;
 *   the signal's reason (an AbortError) when `init.signal` aborted it
 */
export function lightFetch(url: string | URL, init: LightInit = {}): Promise<LightResponse> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      { method: init.method ?? 'GET', headers: init.headers, signal: init.signal },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
        res.on('end', () =>
          resolve(
            lightResponse(
              res.statusCode ?? 0,
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
