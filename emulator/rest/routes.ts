import { setImmediate as nextTurn } from 'node:timers/promises';
import { Hono, type Context } from 'hono';
import pLimit from 'p-limit';
import { visitRateLimit } from '../auth/rate-limit.js';
import type { ServerContext } from '../context.js';
import { isDbError } from '../db/index.js';
import { RestError, fromDbError, tableNotFound } from './errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { parsePrefer, parseQuery, parseRangeHeader, type ParsedQuery } from './query.js';
import { ANON_ROLE, requestRole, type RequestRole } from './request-role.js';
import {
  callArgs,
  chooseRoutine,
  groupParams,
  noRoutine,
  readPostPayload,
  type RpcPayload,
} from './rpc.js';
import type { RoutineInfo, TableInfo, WritePrivilege } from './schema-cache.js';
import {
  buildCall,
  buildDelete,
  buildInsert,
  buildRead,
  buildUpdate,
  type Statement,
} from './sql.js';

/** The only schema exposed, as in a default Supabase project. */
export const EXPOSED_SCHEMA = 'public';

const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_MEDIA_TYPE = 'application/vnd.pgrst.object+json';

/** `.single()` asks for one object instead of an array (Accept: vnd.pgrst.object+json). */
function wantsObject(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes(OBJECT_MEDIA_TYPE);
}

/** The answer body: the JSON array, or its only element for `.single()`. */
function renderBody(c: Context, body: string): string {
  if (!wantsObject(c)) {
    c.header('Content-Type', JSON_TYPE);
    return body;
  }
  c.header('Content-Type', `${OBJECT_MEDIA_TYPE}; charset=utf-8`);
  const [only] = JSON.parse(body) as unknown[];
  return JSON.stringify(only);
}

interface Outcome {
  body: string;
  page_count: number;
  total?: number;
}

/**
 * The PostgREST subset at /rest/v1: GET/HEAD, POST, PATCH, DELETE on tables of
 * public, and its functions at /rpc/<fn> (GET/HEAD, POST).
 */
export function restRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  app.onError((e, c) => {
    const err =
      e instanceof RestError
        ? e
        : (console.error('rest: unexpected failure:', e),
          new RestError(500, 'PGRST000', 'Unexpected failure in the emulator'));
    return errorResponse(c, err);
  });

  app.notFound((c) =>
    errorResponse(c, new RestError(404, 'PGRST125', `Invalid path specified in request URL`)),
  );

  /**
   * The request's role, checked before anything else is read or run: the bearer
   * token's signature, then whether the login role may switch to its role claim.
   * PostgreSQL refuses such a switch with 42501 `permission denied to set role`
   * (PostgREST: 403 for a token) or 22023 `role … does not exist` (PostgREST: 401).
   * @throws RestError 401 for a bad token or an unknown role, 403 for a role the
   * login role is not a member of (a superuser, pg_* roles, authenticator).
   */
  async function authorize(c: Context): Promise<RequestRole> {
    const who = await requestRole(c);
    const access = await ctx.schemaCache.roleAccess(ctx.db, who.role);
    if (access === 'missing') {
      throw new RestError(401, '22023', `role "${who.role}" does not exist`);
    }
    if (access === 'denied') {
      throw new RestError(403, '42501', `permission denied to set role "${who.role}"`);
    }
    return who;
  }

  /**
   * Visitors first: a write the request's role can never make (it holds no INSERT,
   * UPDATE or DELETE privilege on the table at all) is answered before its body is
   * read, with the error PostgreSQL would raise for it (42501 "permission denied for
   * table …": PostgREST's 401 for anon, 403 otherwise). The connection is closed
   * rather than the rest of the body drained, so a flood of anonymous bodies costs
   * no parsing. Anything else (an unknown table, another profile, a role with the
   * privilege, whom row-level security may still refuse) takes the normal path.
   * @returns the answer, or undefined when the request may go on.
   */
  async function refuseWithoutPrivilege(
    c: Context,
    who: RequestRole,
    privilege: WritePrivilege,
  ): Promise<Response | undefined> {
    const profile = c.req.header('content-profile');
    if (profile !== undefined && profile !== EXPOSED_SCHEMA) return undefined;
    const name = c.req.param('table') ?? '';
    const held = await ctx.schemaCache.hasPrivilege(
      ctx.db,
      who.role,
      EXPOSED_SCHEMA,
      name,
      privilege,
    );
    // Only tables: a write into a view that is not automatically updatable is refused by
    // PostgreSQL's rewriter (55000) before any permission is checked, so views take the
    // normal path and get that answer, as from PostgREST.
    if (!held || held.granted || held.kind !== 'table') return undefined;
    const isAnon = who.role === ANON_ROLE;
    c.header('Connection', 'close');
    return errorResponse(
      c,
      new RestError(isAnon ? 401 : 403, '42501', `permission denied for ${held.kind} ${name}`),
    );
  }

  /** Resolves the table, then runs `build`'s statement as `who` in one transaction. */
  async function run(
    c: Context,
    who: RequestRole,
    profileHeader: 'accept-profile' | 'content-profile',
    build: (table: TableInfo, query: ParsedQuery) => Promise<Statement> | Statement,
  ): Promise<Outcome> {
    checkProfile(c, profileHeader);
    const name = c.req.param('table') ?? '';
    const table = await ctx.schemaCache.table(ctx.db, EXPOSED_SCHEMA, name);
    if (!table) throw tableNotFound(EXPOSED_SCHEMA, name);
    const query = parseQuery(new URL(c.req.url).searchParams);
    const statement = await build(table, query);
    const readOnly = c.req.method === 'GET' || c.req.method === 'HEAD';
    return execute(c, who, `/${name}`, statement, { readOnly, single: wantsObject(c) });
  }

  /**
   * Runs `statement` as `who` in one transaction after PostgREST's settings (role,
   * claims, request.*; read-only when `readOnly`), and maps a database error to
   * PostgREST's answer.
   * @param opts.single fail with 406 PGRST116 (rolled back) unless exactly one row.
   * @throws RestError for a database error (fromDbError) or PGRST116.
   */
  async function execute(
    c: Context,
    who: RequestRole,
    path: string,
    statement: Statement,
    opts: { readOnly: boolean; single: boolean },
  ): Promise<Outcome> {
    const settings = await ctx.schemaCache.roleSettings(ctx.db, who.role);
    try {
      return await ctx.db.apiTransaction(async (tx) => {
        await tx.query(PRE_REQUEST, preRequestParams(c, who, path, settings, opts.readOnly));
        const [row] = await tx.query<Outcome>(statement.sql, statement.params);
        const outcome = row ?? { body: '[]', page_count: 0 };
        // PostgREST rolls a write back too when a single object was asked for.
        if (opts.single && outcome.page_count !== 1) {
          throw new RestError(
            406,
            'PGRST116',
            'Cannot coerce the result to a single JSON object',
            `The result contains ${outcome.page_count} rows`,
          );
        }
        return outcome;
      });
    } catch (e) {
      if (isDbError(e)) throw fromDbError(e, who.role === ANON_ROLE);
      throw e;
    }
  }

  /**
   * Finds the overload of public.`name` that `payload`'s arguments call, reading the
   * catalog again when the cached overloads have none (a function created since).
   * @throws RestError 404 PGRST202 when none fits, 300 PGRST203 when several do.
   */
  async function resolveRoutine(name: string, payload: RpcPayload): Promise<RoutineInfo> {
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

  /**
   * Calls a function of public as PostgREST's /rpc/<fn> does: POST arguments by
   * Content-Type (readPostPayload), GET/HEAD arguments from the query string; the
   * call runs as the request's role, read-only for GET/HEAD and for stable or
   * immutable functions (a write there fails 25006, answered 405). A scalar result
   * is that JSON value, a set an array (select, filters, order, limit, offset and
   * Range apply to rows), void is 204 without a body.
   */
  async function callRoutine(c: Context, read: boolean): Promise<Response> {
    const who = await authorize(c);
    checkProfile(c, read ? 'accept-profile' : 'content-profile');
    const name = c.req.param('fn') ?? '';
    const query = parseQuery(new URL(c.req.url).searchParams, { rpcArgs: read });
    const contentType = c.req.header('content-type');
    const payload: RpcPayload = read
      ? { kind: 'query', values: groupParams(query.args ?? []) }
      : await readRpcPayload(c, contentType);
    const routine = await resolveRoutine(name, payload);
    const merged = mergeRange(query, read ? parseRangeHeader(c.req.header('range')) : undefined);
    const statement = buildCall(routine, callArgs(routine, payload), merged);
    // A function the role may not EXECUTE is still in PostgREST's schema cache (it reads the
    // catalog as the login role, not per caller), so the call reaches PostgreSQL, which
    // refuses it with 42501 `permission denied for function …`: 401 for anon, 403 otherwise.
    const result: Outcome = await execute(c, who, `/rpc/${name}`, statement, {
      readOnly: read || routine.volatility !== 'v',
      single: routine.returnsSet && wantsObject(c),
    });
    c.header('Content-Range', contentRange(merged.offset ?? 0, result.page_count, undefined));
    if (routine.returnsVoid) return c.body(null, 204);
    let body = result.body;
    if (routine.returnsSet) body = renderBody(c, body);
    else c.header('Content-Type', JSON_TYPE);
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.body(body, 200);
  }

  // Counting a visit is open to anyone: limited per client address, before anything is read.
  app.use('/rpc/:fn', visitRateLimit(ctx.rateLimits));
  app.on(['GET', 'HEAD'], '/rpc/:fn', (c) => callRoutine(c, true));
  app.post('/rpc/:fn', (c) => callRoutine(c, false));
  app.on(['PATCH', 'PUT', 'DELETE'], '/rpc/:fn', (c) => {
    throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`);
  });

  app.on(['GET', 'HEAD'], '/:table', async (c) => {
    const prefer = parsePrefer(c.req.header('prefer'));
    let offset = 0;
    const who = await authorize(c);
    const result = await run(c, who, 'accept-profile', (table, query) => {
      const range = parseRangeHeader(c.req.header('range'));
      const merged = mergeRange(query, range);
      offset = merged.offset ?? 0;
      return buildRead(table, merged, prefer.count !== undefined);
    });
    const total = result.total ?? undefined;
    c.header('Content-Range', contentRange(offset, result.page_count, total));
    if (prefer.count) c.header('Preference-Applied', `count=${prefer.count}`);
    let status: 200 | 206 | 416 = 200;
    if (total !== undefined) {
      const last = offset + result.page_count - 1;
      if (offset > total && total > 0) status = 416;
      else if (1 + last - offset < total) status = 206;
    }
    if (status === 416) {
      throw new RestError(
        416,
        'PGRST103',
        'Requested range not satisfiable',
        `An offset of ${offset} was requested, but there are only ${total} rows.`,
      );
    }
    const body = renderBody(c, result.body);
    if (c.req.method === 'HEAD') return c.body(null, status);
    return c.body(body, status);
  });

  app.post('/:table', async (c) => {
    const prefer = parsePrefer(c.req.header('prefer'));
    const representation = prefer.return === 'representation';
    const who = await authorize(c);
    const refused = await refuseWithoutPrivilege(c, who, 'INSERT');
    if (refused) return refused;
    const payload = await readJson(c);
    const rows = Array.isArray(payload) ? payload : [payload];
    if (!rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
      throw new RestError(
        400,
        'PGRST102',
        'Empty or invalid json',
        'expected an object or an array of objects',
      );
    }
    const records = rows as Record<string, unknown>[];
    const result = await run(c, who, 'content-profile', (table, query) => {
      const columns = query.columns ?? [...new Set(records.flatMap((r) => Object.keys(r)))];
      if (records.length === 0) {
        return { sql: `select '[]' as body, 0 as page_count`, params: [] };
      }
      return buildInsert(table, records, columns, { representation, select: query.select });
    });
    return mutationResponse(c, result, representation, true, prefer.count !== undefined);
  });

  app.patch('/:table', async (c) => {
    const prefer = parsePrefer(c.req.header('prefer'));
    const representation = prefer.return === 'representation';
    const who = await authorize(c);
    const refused = await refuseWithoutPrivilege(c, who, 'UPDATE');
    if (refused) return refused;
    const payload = await readJson(c);
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'expected a JSON object');
    }
    const result = await run(c, who, 'content-profile', (table, query) =>
      buildUpdate(table, payload as Record<string, unknown>, query, representation),
    );
    return mutationResponse(c, result, representation, false, prefer.count !== undefined);
  });

  app.delete('/:table', async (c) => {
    const prefer = parsePrefer(c.req.header('prefer'));
    const representation = prefer.return === 'representation';
    const who = await authorize(c);
    const refused = await refuseWithoutPrivilege(c, who, 'DELETE');
    if (refused) return refused;
    const result = await run(c, who, 'content-profile', (table, query) =>
      buildDelete(table, query, representation),
    );
    return mutationResponse(c, result, representation, false, prefer.count !== undefined);
  });

  return app;
}

/** Only public is exposed: another Accept-Profile/Content-Profile is refused. */
function checkProfile(c: Context, header: 'accept-profile' | 'content-profile'): void {
  const profile = c.req.header(header);
  if (profile !== undefined && profile !== EXPOSED_SCHEMA) {
    throw new RestError(
      406,
      'PGRST106',
      `The schema must be one of the following: ${EXPOSED_SCHEMA}`,
    );
  }
}

/** The body as text, or as bytes for application/octet-stream (a bytea argument). */
async function readBody(c: Context, contentType: string | undefined): Promise<string | Buffer> {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (media === 'application/octet-stream') return Buffer.from(await c.req.arrayBuffer());
  return c.req.text();
}

// One statement sets everything PostgREST sets, transaction-locally: the role's own
// settings first (while still the login role), then search path, role and claims.
// GET and HEAD run read-only, as in PostgREST (and calls of stable or immutable functions).
const PRE_REQUEST = `select
  (select count(set_config(k, v, true)) from unnest($7::text[], $8::text[]) as t(k, v)),
  case when $9::boolean then set_config('transaction_read_only', 'on', true) end,
  set_config('search_path', '"public", "extensions"', true),
  set_config('role', $1, true),
  set_config('request.jwt.claims', $2, true),
  set_config('request.method', $3, true),
  set_config('request.path', $4, true),
  set_config('request.headers', $5, true),
  set_config('request.cookies', $6, true),
  set_config('timezone', 'UTC', true)`;

function preRequestParams(
  c: Context,
  who: RequestRole,
  path: string,
  settings: { names: string[]; values: string[] },
  readOnly: boolean,
): unknown[] {
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, key) => {
    headers[key.toLowerCase()] = value;
  });
  const cookies: Record<string, string> = {};
  for (const part of (headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return [
    who.role,
    JSON.stringify(who.claims),
    c.req.method,
    path,
    JSON.stringify(headers),
    JSON.stringify(cookies),
    settings.names,
    settings.values,
    readOnly,
  ];
}

/** limit/offset parameters narrowed further by a `Range` header. */
function mergeRange(
  query: ParsedQuery,
  range: { offset: number; limit?: number } | undefined,
): ParsedQuery {
  if (!range) return query;
  const offset = range.offset + (query.offset ?? 0);
  const limits = [range.limit, query.limit].filter((n): n is number => n !== undefined);
  return { ...query, offset, limit: limits.length > 0 ? Math.min(...limits) : undefined };
}

/** `first-last/total`, `*∕total` when empty; total is `*` without a count. */
function contentRange(offset: number, count: number, total: number | undefined): string {
  const t = total === undefined ? '*' : String(total);
  return count > 0 ? `${offset}-${offset + count - 1}/${t}` : `*/${t}`;
}

function mutationResponse(
  c: Context,
  result: Outcome,
  representation: boolean,
  created: boolean,
  counted: boolean,
): Response {
  c.header('Content-Range', `*/${counted ? result.page_count : '*'}`);
  if (!representation) return c.body(null, created ? 201 : 204);
  return c.body(renderBody(c, result.body), created ? 201 : 200);
}

/**
 * Bodies are parsed one at a time, each in its own turn of the event loop, so that
 * many large bodies arriving together cannot hold the loop for their combined parse
 * time: lookups waiting on I/O run between two parses. Own code (a p-limit queue plus
 * a yield) because PostgREST has no equivalent; it leaves the JSON to PostgreSQL.
 */
const parsing = pLimit(1);

/**
 * The body as JSON, parsed under `parsing`.
 * @throws RestError 400 PGRST102 "Empty or invalid json" when it is not JSON, or when it
 * nests deeper than MAX_JSON_DEPTH levels (this emulator's own limit; see json-depth.ts).
 */
async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  return parsing(async () => {
    await nextTurn();
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      throw new RestError(
        400,
        'PGRST102',
        'Empty or invalid json',
        `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RestError(400, 'PGRST102', 'Empty or invalid json');
    }
  });
}

/**
 * A POST's arguments (readPostPayload), read under `parsing` like every other body: one
 * body at a time, and a JSON body nesting deeper than MAX_JSON_DEPTH is refused unparsed.
 * @throws RestError 400 PGRST102 as readPostPayload, or for too deep a JSON body.
 */
async function readRpcPayload(c: Context, contentType: string | undefined): Promise<RpcPayload> {
  const raw = await readBody(c, contentType);
  return parsing(async () => {
    await nextTurn();
    const media = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
    if (media === 'application/json' && nestsDeeperThan(raw.toString(), MAX_JSON_DEPTH)) {
      throw new RestError(
        400,
        'PGRST102',
        'Empty or invalid json',
        `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    return readPostPayload(contentType, raw);
  });
}

/** PostgREST's error body, plus its Proxy-Status and (for 401) WWW-Authenticate. */
function errorResponse(c: Context, e: RestError): Response {
  c.header('Proxy-Status', `PostgREST; error=${e.code}`);
  if (e.status === 401) {
    c.header(
      'WWW-Authenticate',
      e.code.startsWith('PGRST3')
        ? `Bearer error="invalid_token", error_description="${e.message}"`
        : 'Bearer',
    );
  }
  c.header('Content-Type', JSON_TYPE);
  return c.body(JSON.stringify(e.toJSON()), e.status);
}
