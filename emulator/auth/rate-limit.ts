import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import type { RateLimits } from '../limits.js';
import { AuthError, renderAuthError } from './errors.js';

export { DEFAULT_RATE_LIMITS, type RateLimits } from '../limits.js';

/** The function that counts a visit (supabase/migrations/20261123000100_visits.sql). */
export const COUNT_VISIT_FUNCTION = 'namecard_count_visit';

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

/**
 * Middleware for the REST routes: counts POSTs to /rpc/namecard_count_visit per
 * address and answers 429 `over_request_rate_limit` once an address is over
 * `limits.visits` in the window, before the body is read or the database touched.
 * Other requests pass uncounted. The emulator's own rule (see RateLimits.visits).
 */
export function visitRateLimit(limits: RateLimits): MiddlewareHandler {
  return rateLimiter({
    windowMs: limits.windowSeconds * 1000,
    limit: limits.visits,
    standardHeaders: false,
    keyGenerator: (c) => `visit:${clientAddress(c, limits.header)}`,
    skip: (c) => c.req.method !== 'POST' || !c.req.path.endsWith(`/rpc/${COUNT_VISIT_FUNCTION}`),
    handler: (c) => {
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
    },
  });
}
