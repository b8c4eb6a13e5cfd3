import type { Context } from 'hono';
import { RestError } from './errors.js';

/** `.single()`'s media type (Accept: application/vnd.pgrst.object+json), as answered. */
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

/** Whether the request asks for one object (`.single()`). */
const wantsObject = (c: Context) =>
  (c.req.header('accept') ?? '').includes('application/vnd.pgrst.object+json');

/** The only schema exposed, as in a default Supabase project. */
export const EXPOSED_SCHEMA = 'public';

/** The Content-Type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Only public is exposed: another Accept-Profile (reads) or Content-Profile (writes) is
 * refused, as PostgREST refuses a schema not in `db-schemas`.
 * @throws RestError 406 PGRST106 naming the one schema allowed.
 */
export function checkProfile(c: Context, header: 'accept-profile' | 'content-profile'): void {
  const profile = c.req.header(header);
  if (profile !== undefined && profile !== EXPOSED_SCHEMA) {
    throw new RestError(
      406,
      'PGRST106',
      `The schema must be one of the following: ${EXPOSED_SCHEMA}`,
    );
  }
}

/**
 * PostgREST's error body for `e`, with its Proxy-Status header and, for 401, its
 * WWW-Authenticate (`invalid_token` for a token PostgREST itself refused, PGRST3xx).
 * @returns the answer, status `e.status`, JSON body `{ code, details, hint, message }`.
 */
export function errorResponse(c: Context, e: RestError): Response {
  c.header('Proxy-Status', `PostgREST; error=${e.code}`);
  if (e.status === 401) {
    c.header(
      'WWW-Authenticate',
      e.code.startsWith('PGRST3')
        ? `Bearer error="invalid_token", error_description="${e.message}"`
        : 'Bearer',
    );
  }
  // PostgREST 12 answers `.single()`'s refusal with both media types in Content-Type.
  const single = e.code === 'PGRST116' && wantsObject(c);
  c.header('Content-Type', single ? `${JSON_TYPE}, ${OBJECT_TYPE}` : JSON_TYPE);
  return c.body(JSON.stringify(e.toJSON()), e.status);
}

/**
 * The REST routes' error handler: a RestError is answered as it says, anything else is
 * logged and answered 500 PGRST000, never with its text (which may hold SQL or data).
 */
export function answerRestError(e: Error, c: Context): Response {
  if (e instanceof RestError) return errorResponse(c, e);
  console.error('rest: unexpected failure:', e);
  return errorResponse(c, new RestError(500, 'PGRST000', 'Unexpected failure in the emulator'));
}

/** A path PostgREST has no route for: 404 PGRST125. */
export function invalidPath(c: Context): Response {
  return errorResponse(c, new RestError(404, 'PGRST125', `Invalid path specified in request URL`));
}

/**
 * A method /rpc/<fn> does not take (PATCH, PUT, DELETE): PostgREST 12's 405 PGRST101.
 * @throws RestError 405 PGRST101, always.
 */
export function unsupportedMethod(c: Context): never {
  throw new RestError(405, 'PGRST101', `Cannot use the ${c.req.method} method on RPC`);
}
