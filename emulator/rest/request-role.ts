import type { Context } from 'hono';
import type { JWTPayload } from 'jose';
import { JwtError, verifyJwt } from '../jwt.js';
import { resolveApiKey } from '../keys.js';
import { RestError } from './errors.js';

/** PostgREST's `db-anon-role` in Supabase. */
export const ANON_ROLE = 'anon';

/** The database role a REST request runs as, and the claims it sees. */
export interface RequestRole {
  role: string;
  /** The claims as PostgREST stores them in request.jwt.claims (role included). */
  claims: JWTPayload & { role: string };
}

/**
 * The Authorization header Supabase CLI's gateway passes on to PostgREST: the request's own when
 * it is there and does not carry an opaque key (`Bearer sb_…`); otherwise, when the apikey is an
 * opaque key (`sb_publishable_…`, `sb_secret_…`), `Bearer <the JWT it stands for>`; otherwise
 * the request's own (possibly none).
 * @param authorization the request's Authorization header, if any
 * @param apikey the request's apikey (header, else query parameter), if any
 */
export function gatewayAuthorization(
  authorization: string | undefined,
  apikey: string | undefined,
): string | undefined {
  const token = bearerToken(authorization);
  if (token !== undefined && !token.startsWith('sb_')) return authorization;
  const jwt = apikey?.startsWith('sb_') ? resolveApiKey(apikey) : undefined;
  return jwt === undefined ? authorization : `Bearer ${jwt}`;
}

/** The token of an Authorization header (`Bearer <token>`, or the bare value), or undefined. */
function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const m = /^bearer\s+(.*)$/i.exec(authorization.trim());
  return m ? m[1]?.trim() : authorization.trim();
}

/**
 * The database role of a REST request, as PostgREST derives it: the verified JWT's
 * `role` claim, or anon without a token. Opaque `sb_…` keys are first swapped for
 * their JWT, as the Supabase CLI's gateway does (gatewayAuthorization).
 * @throws RestError 401 PGRST301 for a bad token, with PostgREST 12's message (jwtRefusal).
 */
export async function requestRole(c: Context): Promise<RequestRole> {
  const apikey = c.req.header('apikey') ?? c.req.query('apikey');
  const token = bearerToken(gatewayAuthorization(c.req.header('authorization'), apikey));
  if (token === undefined || token === '') {
    return { role: ANON_ROLE, claims: { role: ANON_ROLE } };
  }
  let claims: JWTPayload;
  try {
    claims = await verifyJwt(token);
  } catch (e) {
    throw new RestError(401, 'PGRST301', jwtRefusal(e));
  }
  const role = typeof claims.role === 'string' && claims.role !== '' ? claims.role : ANON_ROLE;
  return { role, claims: { ...claims, role } };
}

/**
 * PostgREST 12's message for a token it refuses (always 401 PGRST301): "JWT expired"; jose's
 * "JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got N)" for a token
 * that is not three dot-separated parts; "JWSError JWSInvalidSignature" for anything else.
 * @param e what verifyJwt threw
 */
export function jwtRefusal(e: unknown): string {
  if (e instanceof JwtError && e.problem === 'expired') return 'JWT expired';
  const parts = /Expected 3 parts in JWT; got (\d+)/.exec(e instanceof Error ? e.message : '');
  if (parts) {
    return `JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got ${parts[1]})`;
  }
  return 'JWSError JWSInvalidSignature';
}
