import type { WriteAct } from '../errors.js';

/**
 * What one request of the transport is, decided once, before it is sent, from the call
 * itself: its method, its path below the API's base URL (split into segments, never searched
 * for a substring) and the act its command declared. The retry rule and the write rule read
 * only this.
 *
 * - `auth`: GoTrue's (`/auth/v1/<endpoint>`): sign-in, token refresh, sign-out, the user.
 * - `read`: any other GET or HEAD (a table, a view, a function called with GET).
 * - `insert`: a POST to a table (`/rest/v1/<table>`).
 * - `rpc`: a POST to a function (`/rest/v1/rpc/<name>`), named.
 * - `write`: anything else (PATCH, PUT, DELETE, or a POST outside the REST API): still a
 *   data write, never sent twice, whatever its URL looks like.
 */
export type Call =
  | { kind: 'auth'; method: string; endpoint: string }
  | { kind: 'read'; method: string; path: string }
  | { kind: 'insert'; method: string; table: string; act?: WriteAct }
  | { kind: 'rpc'; method: string; name: string; act?: WriteAct }
  | { kind: 'write'; method: string; path: string; act?: WriteAct };

/** The calls that change data: never retried, and "outcome unknown" when their answer is lost. */
export type WriteCall = Extract<Call, { act?: WriteAct }>;

/** True for a data write (insert, RPC by POST, any other write). */
export function isWrite(call: Call): call is WriteCall {
  return call.kind === 'insert' || call.kind === 'rpc' || call.kind === 'write';
}

/** True for GET and HEAD, which change nothing. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * The path's segments below the base URL's own path, or undefined for a URL elsewhere (another
 * origin, or outside the base path).
 */
function segmentsBelow(base: URL, url: URL): string[] | undefined {
  if (url.origin !== base.origin) return undefined;
  const baseSegments = base.pathname.split('/').filter(Boolean);
  const segments = url.pathname.split('/').filter(Boolean);
  if (baseSegments.some((segment, i) => segments[i] !== segment)) return undefined;
  return segments.slice(baseSegments.length);
}

/**
 * Describes one request of the transport.
 *
 * @param baseUrl the API base URL (the project URL, possibly with a path)
 * @param method the request's method, any case
 * @param url the request's absolute URL
 * @param act the write its command declared (`Transport.guard`'s `act`), if any
 * @returns what the request is (see {@link Call})
 */
export function describeCall(baseUrl: string, method: string, url: string, act?: WriteAct): Call {
  const upper = method.toUpperCase();
  const target = new URL(url);
  const below = segmentsBelow(new URL(baseUrl), target) ?? [];
  const [api, version, first, second] = below;
  const path = target.pathname;
  if (api === 'auth' && version === 'v1')
    return { kind: 'auth', method: upper, endpoint: first ?? '' };
  if (isSafeMethod(upper)) return { kind: 'read', method: upper, path };
  const rest = api === 'rest' && version === 'v1';
  if (rest && upper === 'POST' && first === 'rpc' && second !== undefined && below.length === 4) {
    return { kind: 'rpc', method: upper, name: second, act };
  }
  if (rest && upper === 'POST' && first !== undefined && below.length === 3) {
    return { kind: 'insert', method: upper, table: first, act };
  }
  return { kind: 'write', method: upper, path, act };
}
