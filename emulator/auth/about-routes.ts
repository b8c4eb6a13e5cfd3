import { Hono, type Context } from 'hono';
import type { ServerContext } from '../context.js';

/** What the server says about itself: GET /settings and GET /health. */
export function aboutRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.get('/settings', (c) => authSettings(ctx, c));
  app.get('/health', health);
  return app;
}

/**
 * GET /settings: GoTrue's public settings; email sign-in only, sign-up and its
 * auto-confirm as `ctx.signUps` says.
 */
export function authSettings(ctx: ServerContext, c: Context): Response {
  return c.json({
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
  });
}

/** GET /health: GoTrue's health answer, naming the emulator. */
export function health(c: Context): Response {
  return c.json({ version: 'namecard-emulator', name: 'GoTrue', description: 'GoTrue subset' });
}
