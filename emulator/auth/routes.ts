import { Hono, type Context, type Next } from 'hono';
import type { ServerContext } from '../context.js';
import { aboutRoutes } from './about-routes.js';
import { accountRoutes } from './account-routes.js';
import {
  API_VERSION_2024_01_01,
  AuthError,
  OAuthError,
  renderAuthError,
  wantsModernErrors,
} from './errors.js';
import { tokenRoutes } from './token-routes.js';

/**
 * The GoTrue subset at /auth/v1, one area per kind of request: token grants (token-routes),
 * the caller's account (user, logout, signup: account-routes), and settings and health
 * (about-routes). Errors are answered in GoTrue's shape (errors.ts).
 */
export function authRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.use(stampApiVersion);
  app.onError(answerAuthError);
  app.notFound((c) => renderAuthError(c, new AuthError(404, 'not_found', 'Not Found')));
  app.route('/', tokenRoutes(ctx));
  app.route('/', accountRoutes(ctx));
  app.route('/', aboutRoutes(ctx));
  return app;
}

/** A client asking for GoTrue's 2024-01-01 errors is told that it got them. */
async function stampApiVersion(c: Context, next: Next): Promise<void> {
  await next();
  if (wantsModernErrors(c)) c.header('X-Supabase-Api-Version', API_VERSION_2024_01_01);
}

/** GoTrue's errors as they are; anything else logged and answered 500 unexpected_failure. */
function answerAuthError(e: Error, c: Context): Response {
  if (e instanceof AuthError || e instanceof OAuthError) return renderAuthError(c, e);
  console.error('auth: unexpected failure:', e);
  return renderAuthError(c, new AuthError(500, 'unexpected_failure', 'Unexpected failure'));
}
