import { Hono, type Context } from 'hono';
import type { ServerContext } from '../context.js';
import { sessionResponse } from './access-token.js';
import { requireCaller } from './bearer.js';
import { jsonBody, stringField } from './body.js';
import { AuthError } from './errors.js';
import { endSessions, startSession, type LogoutScope } from './sessions.js';
import { tokenSettings } from './token-routes.js';
import { userJson } from './user-json.js';
import { UserExistsError, createUser, findUserById } from './users.js';

/** The caller's account: GET /user, POST /logout, and POST /signup (off unless switched on). */
export function accountRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get('/user', (c) => currentUser(ctx, c));
  app.post('/logout', (c) => logout(ctx, c));
  app.post('/signup', (c) => signUp(ctx, c));
  return app;
}

/**
 * GET /user: the signed-in user as GoTrue describes it.
 * @throws AuthError as requireCaller (401 or 403).
 */
export async function currentUser(ctx: ServerContext, c: Context): Promise<Response> {
  const { user } = await requireCaller(c, ctx);
  return c.json(userJson(user));
}

/**
 * POST /logout?scope=global|local|others (default global): ends the caller's sessions;
 * 204.
 * @throws AuthError 400 validation_failed for another scope; as requireCaller.
 */
export async function logout(ctx: ServerContext, c: Context): Promise<Response> {
  const scope = c.req.query('scope') || 'global';
  if (!['global', 'local', 'others'].includes(scope)) {
    throw new AuthError(400, 'validation_failed', `Unsupported logout scope "${scope}"`);
  }
  const { user, sessionId } = await requireCaller(c, ctx);
  await endSessions(ctx.db, user.id, sessionId, scope as LogoutScope);
  return c.body(null, 204);
}

/**
 * POST /signup. Sign-up is off in this product; GoTrue checks that before validating
 * anything. With the switch on (a new hosted project's default, for `namecard doctor` to
 * detect), an email and password create a confirmed user and sign it in, as GoTrue does
 * with auto-confirm.
 * @throws AuthError 422 signup_disabled, 400 validation_failed, 422 user_already_exists.
 */
export async function signUp(ctx: ServerContext, c: Context): Promise<Response> {
  if (!ctx.signUps) {
    throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
  }
  const body = await jsonBody(c);
  const email = stringField(body, 'email');
  const password = stringField(body, 'password');
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
  return c.json(await sessionResponse(user, grant, tokenSettings(ctx)));
}
