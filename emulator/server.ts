import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { authRoutes } from './auth/routes.js';
import type { ServerContext } from './context.js';
import { resolveApiKey } from './keys.js';
import { restRateLimits } from './auth/rate-limit.js';
import { forwardRoutes } from './rest/forward.js';
import { restRoutes } from './rest/routes.js';

/**
 * Request headers supabase-js (and a browser site using it) sends: apikey and
 * authorization on every call, x-client-info and content-type from its fetch wrapper,
 * x-supabase-api-version from auth-js, prefer / range / accept-profile /
 * content-profile from postgrest-js.
 */
export const CORS_ALLOW_HEADERS = [
  'apikey',
  'authorization',
  'content-type',
  'x-client-info',
  'x-supabase-api-version',
  'prefer',
  'range',
  'accept-profile',
  'content-profile',
];

/**
 * A browser's `User-Agent`: every current browser's starts with `Mozilla/` (curl, Node's
 * fetch, supabase-js on a server and the CLI send other ones).
 */
const BROWSER_AGENT = /^Mozilla\//;

/**
 * Why a request carrying a secret key (`sb_secret_…`) is refused, or undefined when it carries
 * none or may use it. Hosted Supabase refuses secret keys in requests that come from a browser,
 * which it recognises by the `User-Agent`, with 401 (Supabase's API keys guide); a secret key
 * in the query string ends up in logs and histories, so it is never accepted there either.
 *
 * @param c the request's context
 * @returns the refusal's message, or undefined
 */
export function secretKeyRefusal(c: Context): string | undefined {
  const isSecret = (value: string | undefined) => value?.trim().startsWith('sb_secret_') === true;
  const inQuery = c.req.queries('apikey')?.some(isSecret) ?? false;
  if (inQuery) return 'Secret API keys may not be sent in the URL: send them in the apikey header';
  const bearer = /^bearer\s+(.*)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (!isSecret(c.req.header('apikey')) && !isSecret(bearer)) return undefined;
  return BROWSER_AGENT.test(c.req.header('user-agent') ?? '')
    ? 'Forbidden use of secret API key in browser'
    : undefined;
}

/** Largest request body accepted on any route, in bytes (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Methods the product calls from a browser (reads, inserts, sign-in, and /manage's profile
 * edits with PATCH and DELETE); the preflight allows no others.
 */
export const CORS_ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'];

/** Response headers a browser client must be able to read. */
export const CORS_EXPOSE_HEADERS = [
  'Content-Range',
  'X-Supabase-Api-Version',
  'x-sb-error-code',
  'Preference-Applied',
];

/**
 * The HTTP app: CORS for a site on another origin, the gateway's body size limit
 * and apikey check, then GoTrue at /auth/v1 and PostgREST at /rest/v1: the emulator's own
 * REST layer, or the real PostgREST at `ctx.postgrestUrl` (forwardRoutes, after the REST rate
 * limits).
 * @param log receives one line per request (method, path, status, ms); never
 * headers, query strings or bodies, which may hold tokens.
 */
export function createApp(ctx: ServerContext, log?: (line: string) => void): Hono {
  const app = new Hono();

  if (log) {
    app.use(async (c, next) => {
      const started = performance.now();
      await next();
      const ms = (performance.now() - started).toFixed(1);
      log(`${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${ms}ms`);
    });
  }

  // As hosted Supabase answers: any origin as `*` and never credentials, since the API
  // is called with bearer tokens, not cookies. One middleware for every route.
  app.use(
    cors({
      origin: '*',
      allowMethods: CORS_ALLOW_METHODS,
      allowHeaders: CORS_ALLOW_HEADERS,
      exposeHeaders: CORS_EXPOSE_HEADERS,
      maxAge: 3600,
    }),
  );

  // Before anything reads a body: a declared Content-Length over the limit is refused
  // unread, a chunked body is cut off once it passes the limit. 413 with the message
  // Supabase's gateway (Kong's request-size-limiting) answers.
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => {
        // The rest of the body is never read, so the connection cannot carry another
        // request; saying so keeps clients from reusing it.
        c.header('Connection', 'close');
        return c.json({ message: 'Request size limit exceeded' }, 413);
      },
    }),
  );

  // The hosted gateway's answers (the local CLI gateway does not check at all).
  const requireApiKey: MiddlewareHandler = async (c, next) => {
    const refusedSecret = secretKeyRefusal(c);
    if (refusedSecret) return c.json({ message: refusedSecret }, 401);
    const apikey = c.req.header('apikey') ?? c.req.query('apikey');
    if (apikey === undefined || apikey === '') {
      return c.json(
        {
          message: 'No API key found in request',
          hint: 'No `apikey` request header or url param was found.',
        },
        401,
      );
    }
    if (resolveApiKey(apikey) === undefined) {
      return c.json(
        {
          message: 'Invalid API key',
          hint: 'Double check your Supabase `anon` or `service_role` API key.',
        },
        401,
      );
    }
    await next();
  };
  app.use('/auth/v1/*', requireApiKey);
  app.use('/rest/v1/*', requireApiKey);

  app.route('/auth/v1', authRoutes(ctx));
  app.route(
    '/rest/v1',
    ctx.postgrestUrl
      ? forwardRoutes(ctx.postgrestUrl, restRateLimits(ctx.rateLimits))
      : restRoutes(ctx),
  );

  app.get('/', (c) => c.json({ name: 'namecard emulator', auth: '/auth/v1', rest: '/rest/v1' }));
  app.notFound((c) => c.json({ message: 'no Route matched with those values' }, 404));
  return app;
}
