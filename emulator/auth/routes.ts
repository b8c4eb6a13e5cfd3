import { Hono, type Context } from 'hono';
import type { ServerContext } from '../context.js';
import { sessionResponse, type TokenSettings } from './access-token.js';
import { requireCaller } from './bearer.js';
import {
  API_VERSION_2024_01_01,
  AuthError,
  OAuthError,
  invalidCredentials,
  renderAuthError,
  wantsModernErrors,
} from './errors.js';
import {
  alreadyUsedError,
  assertRefreshTokenShape,
  endSessions,
  rotateRefreshToken,
  startSession,
  type LogoutScope,
} from './sessions.js';
import { userJson } from './user-json.js';
import { tokenRateLimits } from './rate-limit.js';
import {
  checkPassword,
  createUser,
  findUserById,
  hashForUnknownEmail,
  touchLastSignIn,
  UserExistsError,
} from './users.js';

/** The GoTrue subset at /auth/v1: token grants, user, logout, signup (off), settings. */
export function authRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  const settings = (): TokenSettings => ({
    issuer: `${ctx.baseUrl}/auth/v1`,
    accessTokenLifetime: ctx.accessTokenLifetime,
  });

  app.use(async (c, next) => {
    await next();
    if (wantsModernErrors(c)) c.header('X-Supabase-Api-Version', API_VERSION_2024_01_01);
  });

  app.onError((e, c) => {
    if (e instanceof AuthError || e instanceof OAuthError) return renderAuthError(c, e);
    console.error('auth: unexpected failure:', e);
    return renderAuthError(c, new AuthError(500, 'unexpected_failure', 'Unexpected failure'));
  });

  app.notFound((c) => renderAuthError(c, new AuthError(404, 'not_found', 'Not Found')));

  // Ready before the first sign-in, so the first unknown email is not slower.
  void hashForUnknownEmail();
  app.use('/token', ...tokenRateLimits(ctx.rateLimits));

  app.post('/token', async (c) => {
    // The grant type first: an unknown one is refused before a byte of the body is read (the
    // body is capped at 1 MiB on every route, like the REST routes').
    const grantType = c.req.query('grant_type');
    if (grantType !== 'password' && grantType !== 'refresh_token') {
      throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
    }
    const body = await jsonBody(c);
    return c.json(grantType === 'password' ? await passwordGrant(body) : await refreshGrant(body));
  });

  async function passwordGrant(body: Record<string, unknown>) {
    const email = typeof body.email === 'string' ? body.email : '';
    const phone = typeof body.phone === 'string' ? body.phone : '';
    const password = typeof body.password === 'string' ? body.password : '';
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
    return sessionResponse(fresh, grant, settings());
  }

  async function refreshGrant(body: Record<string, unknown>) {
    const token = typeof body.refresh_token === 'string' ? body.refresh_token : '';
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
    return sessionResponse(user, outcome, settings());
  }

  app.get('/user', async (c) => {
    const { user } = await requireCaller(c, ctx);
    return c.json(userJson(user));
  });

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') || 'global';
    if (!['global', 'local', 'others'].includes(scope)) {
      throw new AuthError(400, 'validation_failed', `Unsupported logout scope "${scope}"`);
    }
    const { user, sessionId } = await requireCaller(c, ctx);
    await endSessions(ctx.db, user.id, sessionId, scope as LogoutScope);
    return c.body(null, 204);
  });

  // Sign-up is off in this product; GoTrue checks that before validating anything. With the
  // switch on (a new hosted project's default, for `namecard doctor` to detect), an email and
  // password create a confirmed user and sign it in, as GoTrue does with auto-confirm.
  app.post('/signup', async (c) => {
    if (!ctx.signUps) {
      throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    }
    const body = await jsonBody(c);
    const email = typeof body.email === 'string' ? body.email : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (email === '' || password === '') {
      throw new AuthError(400, 'validation_failed', 'Signup requires a valid password');
    }
    let id: string;
    try {
      ({ id } = await createUser(ctx.db, email, password));
    } catch (e) {
      if (e instanceof UserExistsError) {
        throw new AuthError(422, 'user_already_exists', 'User already registered');
      }
      throw e;
    }
    const grant = await ctx.db.transaction((tx) => startSession(tx, id));
    const user = await findUserById(ctx.db, id);
    if (!user) throw new AuthError(500, 'unexpected_failure', 'Unexpected failure');
    return c.json(await sessionResponse(user, grant, settings()));
  });

  app.get('/settings', (c) =>
    c.json({
      external: {
        anonymous_users: false,
        email: true,
        phone: false,
      },
      disable_signup: !ctx.signUps,
      mailer_autoconfirm: ctx.signUps,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
    }),
  );

  app.get('/health', (c) =>
    c.json({ version: 'namecard-emulator', name: 'GoTrue', description: 'GoTrue subset' }),
  );

  return app;
}

/**
 * Parses the JSON request body (empty body = `{}`).
 * @throws AuthError 400 bad_json when it is not a JSON object.
 */
async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    throw new Error('expected a JSON object');
  } catch (e) {
    throw new AuthError(
      400,
      'bad_json',
      `Could not parse request body as JSON: ${(e as Error).message}`,
    );
  }
}
