import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The API version auth-js announces; from it on errors use `{code, message}`. */
export const API_VERSION_2024_01_01 = '2024-01-01';

/** An error answered by the auth endpoints, with GoTrue's status, code and message. */
export class AuthError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

/** An OAuth-style error (`{error, error_description}`), always 400 in GoTrue. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/**
 * True when the request asked for API version 2024-01-01 or later
 * (header `X-Supabase-Api-Version: YYYY-MM-DD`).
 */
export function wantsModernErrors(c: Context): boolean {
  const version = c.req.header('x-supabase-api-version');
  return (
    version !== undefined &&
    /^\d{4}-\d{2}-\d{2}$/.test(version) &&
    version >= API_VERSION_2024_01_01
  );
}

/**
 * Renders an auth error the way GoTrue does: the 2024-01-01 envelope
 * `{code, message}` with the version echoed when the client asked for it, else the
 * legacy `{code:<status>, error_code, msg}`; `x-sb-error-code` in both cases.
 */
export function renderAuthError(c: Context, e: AuthError | OAuthError): Response {
  if (e instanceof OAuthError) {
    return c.json({ error: e.error, error_description: e.description }, 400);
  }
  c.header('x-sb-error-code', e.code);
  if (wantsModernErrors(c)) {
    c.header('X-Supabase-Api-Version', API_VERSION_2024_01_01);
    return c.json({ code: e.code, message: e.message }, e.status);
  }
  return c.json({ code: e.status, error_code: e.code, msg: e.message }, e.status);
}

/** GoTrue's answer to a wrong password, an unknown email or a phone sign-in: 400 invalid_credentials. */
export const invalidCredentials = () =>
  new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
