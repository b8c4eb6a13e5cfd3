import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { AuthError, renderAuthError } from './errors.js';

/**
 * Per-address limits on POST /auth/v1/token, as GoTrue keeps them: password sign-ins
 * and token refreshes each have their own count per address per window. The
 * defaults are hosted Supabase's and the Supabase CLI's (`sign_in_sign_ups = 30` and
 * `token_refresh = 150` per 5 minutes per IP address).
 */
export interface RateLimits {
  /** Password sign-ins per address per window; default 30. */
  signIn: number;
  /** Refresh-token grants per address per window; default 150. */
  tokenRefresh: number;
  /**
   * Visits counted (POST /rest/v1/rpc/namecard_count_visit) per address per window;
   * default 600. The emulator's own limit: hosted Supabase has none for a function
   * call, so there anyone may call it as often as they like.
   */
  visits: number;
  /** Window length in seconds; default 300. */
  windowSeconds: number;
  /**
   * A request header whose value is the client's address (for example
   * `X-Forwarded-For` behind a trusted proxy), as GoTrue's RATE_LIMIT_HEADER. For a list
   * (`client, proxy1, …`) the right-most address counts: the one the trusted proxy in
   * front appended, while everything left of it is whatever the client wrote (Express's
   * `trust proxy` with one hop). Unset: the connection's remote address, the only one a
   * client cannot choose.
   */
  header?: string;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  signIn: 30,
  tokenRefresh: 150,
  visits: 600,
  windowSeconds: 300,
};

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
