import { signJwt } from '../jwt.js';
import type { Grant } from './sessions.js';
import type { UserRow } from './users.js';
import { userJson } from './user-json.js';

/** What every access token of one emulator is signed with: its issuer and lifetime. */
export interface TokenSettings {
  /** Issuer: `<API URL>/auth/v1`. */
  issuer: string;
  /** Access token lifetime in seconds (GoTrue default 3600). */
  accessTokenLifetime: number;
}

/**
 * Signs an access token with GoTrue's claims, in GoTrue's order: iss, sub, aud,
 * exp, iat, email, phone, app_metadata, user_metadata, role, aal, amr, session_id,
 * is_anonymous. `exp = iat + accessTokenLifetime`.
 */
export async function issueAccessToken(
  user: UserRow,
  grant: Grant,
  settings: TokenSettings,
): Promise<{ token: string; iat: number; exp: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + settings.accessTokenLifetime;
  const token = await signJwt({
    iss: settings.issuer,
    sub: user.id,
    aud: user.aud,
    exp,
    iat,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    role: user.role,
    aal: 'aal1',
    amr: [{ method: 'password', timestamp: grant.signedInAt }],
    session_id: grant.sessionId,
    is_anonymous: user.is_anonymous,
  });
  return { token, iat, exp };
}

/**
 * The body of a successful token grant (password or refresh_token):
 * `{access_token, token_type, expires_in, expires_at, refresh_token, user}`.
 */
export async function sessionResponse(user: UserRow, grant: Grant, settings: TokenSettings) {
  const { token, exp } = await issueAccessToken(user, grant, settings);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: settings.accessTokenLifetime,
    expires_at: exp,
    refresh_token: grant.refreshToken,
    user: userJson(user),
  };
}
