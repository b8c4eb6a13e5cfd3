import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import type { RateLimits } from '../limits.js';
import { AuthError, renderAuthError } from './errors.js';

export { DEFAULT_RATE_LIMITS, type RateLimits } from '../limits.js';

/** The function that counts a visit (supabase/schemas/visits.sql). */
export const COUNT_VISIT_FUNCTIONS = ['namecard_count_visit'];

/** The function that redeems an invitation code (supabase/schemas/members.sql). */
export const ACCEPT_INVITATION_FUNCTION = 'namecard_member_accept';

/** The address a request is counted against (see RateLimits.header). */
function clientAddress(c: Context, header: string | undefined): string {
  // The right-most entry: the trusted proxy appended it; the client wrote the ones before.
  const given = header ? c.req.header(header)?.split(',').at(-1)?.trim() : undefined;
  if (given) return given;
  return getConnInfo(c).remote.address ?? 'unknown';
}

/**
 * Middlewares for POST /token: counts each grant type against its own limit and
 * answers 429 `over_request_rate_limit` "Request rate limit reached" (GoTrue's code
 * and message) once an address is over it. Other grant types are not counted.
 */
export function tokenRateLimits(limits: RateLimits): MiddlewareHandler[] {
  const perGrant = (grantType: string, limit: number) =>
    rateLimiter({
      windowMs: limits.windowSeconds * 1000,
      limit,
      standardHeaders: false,
      keyGenerator: (c) => `${grantType}:${clientAddress(c, limits.header)}`,
      skip: (c) => c.req.query('grant_type') !== grantType,
      handler: (c) =>
        renderAuthError(
          c,
          new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached'),
        ),
    });
  return [perGrant('password', limits.signIn), perGrant('refresh_token', limits.tokenRefresh)];
}

/** True for a POST to /rpc/<one of `functions`>. */
const postsTo = (c: Context, functions: readonly string[]) =>
  c.req.method === 'POST' && functions.some((fn) => c.req.path.endsWith(`/rpc/${fn}`));

/** PostgREST's error body for a request over a limit: 429 `over_request_rate_limit`. */
function overLimit(c: Context): Response {
  c.header('Connection', 'close');
  return c.json(
    {
      code: 'over_request_rate_limit',
      details: null,
      hint: null,
      message: 'Request rate limit reached',
    },
    429,
  );
}

/**
 * Middleware for the REST routes: counts POSTs to the visit-counting functions
 * (/rpc/namecard_count_visit) per address and answers 429
 * `over_request_rate_limit` once an address is over `limits.visits` in the window, before the
 * body is read or the database touched. Other requests pass uncounted. The emulator's own rule
 * (see RateLimits.visits).
 */
export function visitRateLimit(limits: RateLimits): MiddlewareHandler {
  return rateLimiter({
    windowMs: limits.windowSeconds * 1000,
    limit: limits.visits,
    standardHeaders: false,
    keyGenerator: (c) => `visit:${clientAddress(c, limits.header)}`,
    skip: (c) => !postsTo(c, COUNT_VISIT_FUNCTIONS),
    handler: overLimit,
  });
}

/**
 * Middleware for the REST routes: counts tries to redeem an invitation code
 * (POST /rpc/namecard_member_accept) per address, as GoTrue counts sign-ins, and answers 429
 * `over_request_rate_limit` once an address is over `limits.invitations` in the window, before
 * the body is read or the database touched: guessing codes (192 bits) is hopeless, and this
 * keeps it slow too. Every try counts, a good code's too. The emulator's own rule (see
 * RateLimits.invitations).
 */
export function invitationRateLimit(limits: RateLimits): MiddlewareHandler {
  return rateLimiter({
    windowMs: limits.windowSeconds * 1000,
    limit: limits.invitations,
    standardHeaders: false,
    keyGenerator: (c) => `invitation:${clientAddress(c, limits.header)}`,
    skip: (c) => !postsTo(c, [ACCEPT_INVITATION_FUNCTION]),
    handler: overLimit,
  });
}

/** The request header a script sends its card token in (supabase/schemas/tokens.sql). */
export const TOKEN_HEADER = 'x-namecard-token';

/**
 * Whether the answer to a request with a card token is anything but the pre-request check's
 * refusal of the token (401 PT401: unknown, malformed, revoked, expired…). A 401 is also
 * PostgREST's answer to a privilege the anon role lacks (42501: a viewer token's write), which
 * a token that works may meet; a 401 without a body to tell (HEAD) counts as a refusal.
 */
async function tokenAccepted(c: Context): Promise<boolean> {
  if (c.res.status !== 401) return true;
  const text = await c.res
    .clone()
    .text()
    .catch(() => '');
  try {
    return (JSON.parse(text) as { code?: unknown }).code !== 'PT401';
  } catch {
    return false;
  }
}

/**
 * Middleware for the REST routes: counts refused card tokens (a request with the header
 * x-namecard-token refused by the pre-request check, 401 PT401: an unknown, revoked or expired
 * token, whatever the function, table or method) per address, as GoTrue counts sign-ins, and
 * answers 429 `over_request_rate_limit` once an address has been refused `limits.tokens` times
 * in the window, before the body is read or the database touched. Only a refusal is counted,
 * once its answer is known: a request whose token works never is, whatever else it answers (a
 * viewer token's refused write too), however many of them are in flight at once, so that a
 * script holding a good token is not slowed by its own calls; someone guessing secrets (192
 * bits) is. (A limiter that counts every request on arrival and takes the good ones back when
 * they are answered refuses a script's calls while more than the limit are in flight.) The
 * emulator's own rule (see RateLimits.tokens).
 */
export function tokenUseRateLimit(limits: RateLimits): MiddlewareHandler {
  const windowMs = limits.windowSeconds * 1000;
  const refused = new Map<string, { count: number; resetAt: number }>();
  /** The address's window now, a new one when the last has passed. */
  const windowOf = (address: string) => {
    const now = Date.now();
    const current = refused.get(address);
    if (current && current.resetAt > now) return current;
    // Windows of addresses not seen again are dropped once many have gathered.
    if (refused.size >= 10_000) {
      for (const [key, { resetAt }] of refused) if (resetAt <= now) refused.delete(key);
    }
    const fresh = { count: 0, resetAt: now + windowMs };
    refused.set(address, fresh);
    return fresh;
  };
  return async (c, next) => {
    if (c.req.header(TOKEN_HEADER) === undefined) return next();
    const address = clientAddress(c, limits.header);
    if (windowOf(address).count >= limits.tokens) return overLimit(c);
    await next();
    if (!(await tokenAccepted(c))) windowOf(address).count++;
  };
}

/**
 * The REST routes' limits per client address, in the order they run: counted visits,
 * invitation codes tried, refused card token uses (each answers 429 `over_request_rate_limit`
 * before the request reaches the database). The same for the emulator's own REST layer and for
 * requests forwarded to PostgREST.
 */
export function restRateLimits(limits: RateLimits): MiddlewareHandler[] {
  return [visitRateLimit(limits), invitationRateLimit(limits), tokenUseRateLimit(limits)];
}
