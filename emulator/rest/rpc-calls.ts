import { Hono, type Context } from 'hono';
import type { RoutineInfo } from '../catalog/schema-cache.js';
import type { ServerContext } from '../context.js';
import { type Outcome, mergeRange, renderBody, wantsObject } from './answers.js';
import { readRpcPayload } from './bodies.js';
import { parsePrefer, parseQuery, parseRangeHeader } from './query.js';
import { callArgs, chooseRoutine, groupParams, noRoutine, type RpcPayload } from './rpc.js';
import { authorize, execute } from './run.js';
import { EXPOSED_SCHEMA, JSON_TYPE, checkProfile, unsupportedMethod } from './schema-errors.js';
import { buildCall } from './sql.js';
import { answerRange } from './table-reads.js';

/**
 * `/:fn` (mounted at /rpc): calls of any function of public, whatever its name; GET and
 * HEAD read, POST may write, other methods are refused with 405 PGRST117.
 */
export function rpcRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.on(['GET', 'HEAD'], '/:fn', (c) => callRoutine(ctx, c, true));
  app.post('/:fn', (c) => callRoutine(ctx, c, false));
  app.on(['PATCH', 'PUT', 'DELETE'], '/:fn', unsupportedMethod);
  return app;
}

/**
 * Calls a function of public as PostgREST's /rpc/<fn> does: POST arguments by
 * Content-Type (readPostPayload), GET/HEAD arguments from the query string; the
 * call runs as the request's role, read-only for GET/HEAD and for stable or
 * immutable functions (a write there fails 25006, answered 405). A scalar result
 * is that JSON value, a set an array (select, filters, order, limit, offset and
 * Range apply to rows), void is 204 without a body. `Prefer: count=…` counts the result's
 * rows as a table read counts its own: Content-Range `first-last/total`,
 * `Preference-Applied`, 206 for a part of them.
 * @param read true for GET and HEAD (arguments in the query string)
 * @throws RestError 416 PGRST103 for an offset past the counted rows; as authorize,
 *   resolveRoutine and execute.
 */
export async function callRoutine(
  ctx: ServerContext,
  c: Context,
  read: boolean,
): Promise<Response> {
  const who = await authorize(ctx, c);
  checkProfile(c, read ? 'accept-profile' : 'content-profile');
  const name = c.req.param('fn') ?? '';
  const query = parseQuery(new URL(c.req.url).searchParams, { rpcArgs: read });
  const payload: RpcPayload = read
    ? { kind: 'query', values: groupParams(query.args ?? []) }
    : await readRpcPayload(c, c.req.header('content-type'));
  const routine = await resolveRoutine(ctx, name, payload);
  const range = read ? parseRangeHeader(c.req.header('range')) : undefined;
  const merged = mergeRange(query, range, ctx.maxRows);
  const prefer = parsePrefer(c.req.header('prefer'));
  // PostgREST counts a function's rows exactly, for `estimated` too; `planned` it leaves
  // uncounted (a function's result has no plan's estimate).
  const counted = prefer.count === 'exact' || prefer.count === 'estimated';
  const statement = buildCall(routine, callArgs(routine, payload), merged, counted);
  // A function the role may not EXECUTE is still in PostgREST's schema cache (it reads the
  // catalog as the login role, not per caller), so the call reaches PostgreSQL, which
  // refuses it with 42501 `permission denied for function …`: 401 for anon, 403 otherwise.
  const result: Outcome = await execute(ctx, c, who, `/rpc/${name}`, statement, {
    readOnly: read || routine.volatility !== 'v',
    single: routine.returnsSet && wantsObject(c),
  });
  const offset = merged.offset ?? 0;
  const total = counted ? Number(result.total) : undefined;
  const status = answerRange(c, offset, result.page_count, total, prefer.count);
  if (routine.returnsVoid) return c.body(null, 204);
  let body = result.body;
  if (routine.returnsSet) body = renderBody(c, body);
  else c.header('Content-Type', JSON_TYPE);
  if (c.req.method === 'HEAD') return c.body(null, status);
  return c.body(body, status);
}

/**
 * Finds the overload of public.`name` that `payload`'s arguments call, reading the
 * catalog again when the cached overloads have none (a function created since).
 * @throws RestError 404 PGRST202 when none fits, 300 PGRST203 when several do.
 */
export async function resolveRoutine(
  ctx: ServerContext,
  name: string,
  payload: RpcPayload,
): Promise<RoutineInfo> {
  const first = await ctx.schemaCache.routine(ctx.db, EXPOSED_SCHEMA, name);
  let { overloads } = first;
  let routine = chooseRoutine(overloads, payload);
  if (!routine && first.cached) {
    const fresh = { fresh: true };
    ({ overloads } = await ctx.schemaCache.routine(ctx.db, EXPOSED_SCHEMA, name, fresh));
    routine = chooseRoutine(overloads, payload);
  }
  if (!routine) {
    const others =
      overloads.length > 0 ? [] : await ctx.schemaCache.routineNames(ctx.db, EXPOSED_SCHEMA);
    throw noRoutine(EXPOSED_SCHEMA, name, payload, overloads, others);
  }
  return routine;
}
