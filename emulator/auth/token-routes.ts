import { Hono, type Context } from 'hono';
import type { ServerContext } from '../context.js';
import { sessionResponse, type TokenSettings } from './access-token.js';
import { jsonBody, stringField } from './body.js';
import { AuthError, OAuthError, invalidCredentials } from './errors.js';
import { tokenRateLimits } from './rate-limit.js';
import {
  alreadyUsedError,
  assertRefreshTokenShape,
  rotateRefreshToken,
  startSession,
} from './sessions.js';
import { checkPassword, findUserById, hashForUnknownEmail, touchLastSignIn } from './users.js';

/** POST /token: the password and refresh-token grants, each limited per client address. */
export function tokenRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  // Ready before the first sign-in, so the first unknown email is not slower.
  void hashForUnknownEmail();
  app.use('/token', ...tokenRateLimits(ctx.rateLimits));
  app.post('/token', (c) => tokenGrant(ctx, c));
  return app;
}

/** Where access tokens come from and how long they last, for one running emulator. */
export function tokenSettings(ctx: ServerContext): TokenSettings {
  return { issuer: `${ctx.baseUrl}/auth/v1`, accessTokenLifetime: ctx.accessTokenLifetime };
}

/**
 * POST /token?grant_type=password|refresh_token: a session (access and refresh token,
 * user) as GoTrue answers it.
 * @throws AuthError 400 invalid_credentials "unsupported_grant_type" for any other grant,
 * before the body is read; as passwordGrant and refreshGrant.
 */
export async function tokenGrant(ctx: ServerContext, c: Context): Promise<Response> {
  // The grant type first: an unknown one is refused before a byte of the body is read (the
  // body is capped at 1 MiB on every route, like the REST routes').
  const grantType = c.req.query('grant_type');
  if (grantType !== 'password' && grantType !== 'refresh_token') {
    throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
  }
  const body = await jsonBody(c);
  const grant = grantType === 'password' ? passwordGrant : refreshGrant;
  return c.json(await grant(ctx, body));
}

/**
 * The password grant: checks email and password, then starts a session.
 * @throws AuthError 400 validation_failed (no email or phone), invalid_credentials (wrong
 * password, unknown email, any phone), email_not_confirmed.
 */
export async function passwordGrant(ctx: ServerContext, body: Record<string, unknown>) {
  const email = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  const password = stringField(body, 'password');
  if (email === '' && phone === '') {
    throw new AuthError(400, 'validation_failed', 'missing email or phone');
  }
  // No phone users exist here: a phone sign-in can only fail.
  if (email === '') throw invalidCredentials();
  // bcrypt runs outside any transaction so that PGlite's single connection is
  // not held for the ~70 ms a comparison takes.
  const user = await checkPassword(ctx.db, email, password);
  if (!user) throw invalidCredentials();
  if (!user.email_confirmed_at)
    throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
  const grant = await ctx.db.transaction(async (tx) => {
    await touchLastSignIn(tx, user.id);
    return startSession(tx, user.id);
  });
  const fresh = (await findUserById(ctx.db, user.id)) ?? user;
  return sessionResponse(fresh, grant, tokenSettings(ctx));
}

/**
 * The refresh-token grant: rotates the token (GoTrue's reuse interval applies) and
 * answers the session anew.
 * @throws OAuthError invalid_request without a token; AuthError 400 for a malformed,
 * already used or unknown token, or a deleted user.
 */
export async function refreshGrant(ctx: ServerContext, body: Record<string, unknown>) {
  const token = stringField(body, 'refresh_token');
  if (token === '') throw new OAuthError('invalid_request', 'refresh_token required');
  assertRefreshTokenShape(token);
  const outcome = await ctx.db.transaction((tx) =>
    rotateRefreshToken(tx, token, ctx.refreshTokenReuseInterval),
  );
  if ('alreadyUsed' in outcome) throw alreadyUsedError();
  const user = await findUserById(ctx.db, outcome.userId);
  if (!user) {
    throw new AuthError(
      400,
      'refresh_token_not_found',
      'Invalid Refresh Token: Refresh Token Not Found',
    );
  }
  return sessionResponse(user, outcome, tokenSettings(ctx));
}
