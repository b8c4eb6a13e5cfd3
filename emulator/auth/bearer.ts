import type { Context } from 'hono';
import type { JWTPayload } from 'jose';
import type { ServerContext } from '../context.js';
import { JwtError, verifyJwt } from '../jwt.js';
import { AuthError } from './errors.js';
import { sessionExists } from './sessions.js';
import { findUserById, type UserRow } from './users.js';

/** The signed-in caller of `/user` or `/logout`, as its access token names it. */
export interface Caller {
  user: UserRow;
  /** The token's `session_id` claim; undefined for a token without one. */
  sessionId: string | undefined;
  /** The verified access token's claims. */
  claims: JWTPayload;
}

/**
 * Authenticates `/user` and `/logout` as GoTrue does: a Bearer access token whose
 * user and session still exist.
 * @throws AuthError 401 no_authorization (no Bearer header), 403 bad_jwt (bad,
 * expired, or without sub), 403 session_not_found (logged out), 403 user_not_found.
 */
export async function requireCaller(c: Context, ctx: ServerContext): Promise<Caller> {
  const match = /^bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!match?.[1]) {
    throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  }
  let claims: JWTPayload;
  try {
    claims = await verifyJwt(match[1]);
  } catch (e) {
    const reason =
      e instanceof JwtError && e.problem === 'expired'
        ? 'token has invalid claims: token is expired'
        : 'token signature is invalid';
    throw new AuthError(
      403,
      'bad_jwt',
      `invalid JWT: unable to parse or verify signature, ${reason}`,
    );
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  }
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  if (sessionId !== undefined && !(await sessionExists(ctx.db, sessionId))) {
    throw new AuthError(
      403,
      'session_not_found',
      'Session from session_id claim in JWT does not exist',
    );
  }
  const user = await findUserById(ctx.db, claims.sub).catch(() => undefined);
  if (!user) {
    throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  }
  return { user, sessionId, claims };
}
