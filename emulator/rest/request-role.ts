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
 * The database role of a REST request, as PostgREST derives it: the verified JWT's
 * `role` claim, or anon without a token. Opaque `sb_…` keys are first swapped for
 * their JWT, as the Supabase CLI's gateway does.
 * @throws RestError 401 PGRST303 "JWT expired", 401 PGRST301 for any other bad token.
 */
export async function requestRole(c: Context): Promise<RequestRole> {
  const auth = c.req.header('authorization');
  let token: string | undefined;
  if (auth !== undefined) {
    const m = /^bearer\s+(.*)$/i.exec(auth.trim());
    token = m ? m[1]?.trim() : auth.trim();
  }
  if (token === undefined || token.startsWith('sb_')) {
    const apikey = c.req.header('apikey') ?? c.req.query('apikey') ?? '';
    token = apikey.startsWith('sb_') ? resolveApiKey(apikey) : token;
  }
  if (token === undefined || token === '') {
    return { role: ANON_ROLE, claims: { role: ANON_ROLE } };
  }
  let claims: JWTPayload;
  try {
    claims = await verifyJwt(token);
  } catch (e) {
    const expired = e instanceof JwtError && e.problem === 'expired';
    const message = e instanceof Error ? e.message : 'JWT cryptographic operation failed';
    throw new RestError(401, expired ? 'PGRST303' : 'PGRST301', message);
  }
  const role = typeof claims.role === 'string' && claims.role !== '' ? claims.role : ANON_ROLE;
  return { role, claims: { ...claims, role } };
}
