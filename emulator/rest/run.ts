import type { Context } from 'hono';
import type { ServerContext } from '../context.js';
import { API_LOGIN_ROLE, isDbError } from '../db/index.js';
import type { TableInfo } from '../catalog/schema-cache.js';
import { type Outcome, wantsObject } from './answers.js';
import { RestError, fromDbError, noRelationship, tableNotFound } from './errors.js';
import { parseQuery, type ParsedQuery } from './query.js';
import { ANON_ROLE, requestRole, type RequestRole } from './request-role.js';
import { EXPOSED_SCHEMA, checkProfile } from './schema-errors.js';
import type { Statement } from './sql.js';

/**
 * The request's role, checked before anything else is read or run: the bearer
 * token's signature, then whether the login role may switch to its role claim.
 * PostgreSQL refuses such a switch with 42501 `permission denied to set role`
 * (PostgREST: 403 for a token) or 22023 `role … does not exist` (PostgREST 12: 400).
 * @throws RestError 401 for a bad token, 400 for an unknown role, 403 for a role the
 * login role is not a member of (a superuser, pg_* roles).
 */
export async function authorize(ctx: ServerContext, c: Context): Promise<RequestRole> {
  const who = await requestRole(c);
  const access = await ctx.schemaCache.roleAccess(ctx.db, who.role);
  if (access === 'missing') {
    throw new RestError(400, '22023', `role "${who.role}" does not exist`);
  }
  if (access === 'denied') {
    throw new RestError(403, '42501', `permission denied to set role "${who.role}"`);
  }
  return who;
}

/**
 * Resolves the request's table (`:table` of public), then runs `build`'s statement as
 * `who` in one transaction (read-only for GET and HEAD).
 * @throws RestError 406 PGRST106 for another profile, 404 42P01 for an unknown table, 400
 * PGRST200 for an embedded resource (noRelationship), or as {@link execute}.
 */
export async function runOnTable(
  ctx: ServerContext,
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
  if (query.embed !== undefined) throw noRelationship(EXPOSED_SCHEMA, name, query.embed);
  const statement = await build(table, query);
  const readOnly = c.req.method === 'GET' || c.req.method === 'HEAD';
  return execute(ctx, c, who, `/${name}`, statement, { readOnly, single: wantsObject(c) });
}

/**
 * Runs `statement` as `who` in one transaction after PostgREST's settings (role,
 * claims, request.*; read-only when `readOnly`), and maps a database error to
 * PostgREST's answer.
 * @param path the request path below /rest/v1 (`request.path`), e.g. `/rpc/fn`
 * @param opts.single fail with 406 PGRST116 (rolled back) unless exactly one row.
 * @throws RestError for a database error (fromDbError) or PGRST116.
 */
export async function execute(
  ctx: ServerContext,
  c: Context,
  who: RequestRole,
  path: string,
  statement: Statement,
  opts: { readOnly: boolean; single: boolean },
): Promise<Outcome> {
  const settings = await ctx.schemaCache.roleSettings(ctx.db, who.role);
  const preRequest = await preRequestFunction(ctx);
  try {
    return await ctx.db.apiTransaction(async (tx) => {
      await tx.query(PRE_REQUEST, preRequestParams(c, who, path, settings, opts.readOnly));
      if (preRequest) await tx.query(`select ${preRequest}()`);
      const [row] = await tx.query<Outcome>(statement.sql, statement.params);
      const outcome = row ?? { body: '[]', page_count: 0 };
      // PostgREST rolls a write back too when a single object was asked for.
      if (opts.single && outcome.page_count !== 1) {
        throw new RestError(
          406,
          'PGRST116',
          'JSON object requested, multiple (or no) rows returned',
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

/** A schema-qualified function name, safe to write into SQL as it is. */
const QUALIFIED_NAME = /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/;

/**
 * The function PostgREST calls before every request (`db-pre-request`), as the database
 * configures it for PostgREST: the setting `pgrst.db_pre_request` of the login role
 * (PostgREST's in-database configuration, `db-config`), or none. Cached as role settings are.
 */
async function preRequestFunction(ctx: ServerContext): Promise<string | undefined> {
  const { names, values } = await ctx.schemaCache.roleSettings(ctx.db, API_LOGIN_ROLE);
  const name = values[names.indexOf('pgrst.db_pre_request')];
  return name !== undefined && QUALIFIED_NAME.test(name) ? name : undefined;
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

/** PRE_REQUEST's parameters: role, claims, method, path, headers and cookies as JSON, settings. */
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
