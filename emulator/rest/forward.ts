import { Hono, type Context } from 'hono';
import { proxy } from 'hono/proxy';
import { gatewayAuthorization } from './request-role.js';

/**
 * `/rest/v1` answered by the real PostgREST at `upstream` (e.g. `http://127.0.0.1:41234`), with
 * what Supabase's gateway does in front of it and nothing else: the path without `/rest/v1`, the
 * query string without any `apikey` parameter and the request without the `apikey` header (Kong's
 * key-auth with `hide_credentials`: PostgREST itself would read `?apikey=…` as a filter and answer
 * 400 `PGRST100`), and an opaque `sb_publishable_…` / `sb_secret_…` key turned into the JWT it
 * stands for (gatewayAuthorization, as the Supabase CLI's gateway does). PostgREST's status, body and
 * headers come back as it sent them, less the hop-by-hop headers (hono's proxy helper).
 * The apikey check, CORS, the body limit and the rate limits run before this (server.ts).
 * @param middlewares run on every request before it is forwarded (the REST rate limits)
 */
export function forwardRoutes(
  upstream: string,
  middlewares: Parameters<Hono['use']>[1][] = [],
): Hono {
  const app = new Hono();
  for (const middleware of middlewares) app.use(middleware);
  app.all('*', (c) => forward(upstream, c));
  return app;
}

/**
 * A query string without its `apikey` parameters, every other parameter as the client wrote it
 * (not decoded and encoded again).
 * @param search `?a=1&apikey=…` or ''
 * @returns the rest, e.g. `a=1`, without the `?`
 */
export function withoutApikey(search: string): string {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => part !== '' && decodeKey(part) !== 'apikey')
    .join('&');
}

function decodeKey(part: string): string {
  const key = part.split('=')[0] ?? '';
  try {
    return decodeURIComponent(key.replaceAll('+', ' '));
  } catch {
    return key;
  }
}

/**
 * Sends the request to PostgREST as the gateway would and answers what PostgREST answers.
 * @param upstream PostgREST's base URL, without a trailing slash
 */
export async function forward(upstream: string, c: Context): Promise<Response> {
  const url = new URL(c.req.url);
  const target = new URL(upstream);
  target.pathname = url.pathname.replace(/^\/rest\/v1/, '') || '/';
  target.search = withoutApikey(url.search);
  const apikey = c.req.header('apikey') ?? url.searchParams.get('apikey') ?? undefined;
  const authorization = gatewayAuthorization(c.req.header('authorization'), apikey);
  const headers = new Headers(c.req.raw.headers);
  headers.delete('apikey');
  headers.delete('host');
  if (authorization !== undefined) headers.set('authorization', authorization);
  return proxy(target, {
    method: c.req.method,
    headers,
    body: c.req.raw.body,
    duplex: c.req.raw.body ? 'half' : undefined,
  } as RequestInit);
}
