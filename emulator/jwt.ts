import { SignJWT, errors, jwtVerify, type JWTPayload } from 'jose';
import { LOCAL_JWT_SECRET } from './keys.js';

const SECRET = new TextEncoder().encode(LOCAL_JWT_SECRET);

/** Clock skew PostgREST allows on exp/nbf/iat, in seconds. */
export const JWT_CLOCK_SKEW_SECONDS = 30;

/**
 * Signs `payload` with HS256 and the local secret; the header is exactly
 * `{"alg":"HS256","typ":"JWT"}` and the payload keys keep their order, so the
 * well-known local keys are reproduced byte for byte.
 */
export function signJwt(payload: JWTPayload): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(SECRET);
}

/** Why a token was refused: past its `exp`, or anything else (signature, shape, algorithm). */
export type JwtProblem = 'expired' | 'invalid';

/** verifyJwt refused a token; `problem` says why. */
export class JwtError extends Error {
  constructor(
    readonly problem: JwtProblem,
    message: string,
  ) {
    super(message);
    this.name = 'JwtError';
  }
}

/**
 * Verifies an HS256 token signed with the local secret (exp/nbf/iat checked with a
 * 30 s skew) and returns its claims.
 * @throws JwtError `expired` when exp has passed, `invalid` for anything else
 * (wrong shape, wrong signature, wrong algorithm).
 */
export async function verifyJwt(token: string): Promise<JWTPayload> {
  const parts = token.split('.').length;
  if (parts !== 3) throw new JwtError('invalid', `Expected 3 parts in JWT; got ${parts}`);
  try {
    const { payload } = await jwtVerify(token, SECRET, {
      algorithms: ['HS256'],
      clockTolerance: JWT_CLOCK_SKEW_SECONDS,
    });
    return payload;
  } catch (e) {
    if (e instanceof errors.JWTExpired) throw new JwtError('expired', 'JWT expired');
    throw new JwtError('invalid', 'JWT cryptographic operation failed');
  }
}
