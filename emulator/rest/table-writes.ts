import { Hono, type Context } from 'hono';
import { TOKEN_HEADER } from '../auth/rate-limit.js';
import type { WritePrivilege } from '../catalog/schema-cache.js';
import type { ServerContext } from '../context.js';
import { mutationResponse } from './answers.js';
import { readJson } from './bodies.js';
import { RestError } from './errors.js';
import { parsePrefer } from './query.js';
import { ANON_ROLE, type RequestRole } from './request-role.js';
import { authorize, runOnTable } from './run.js';
import { EXPOSED_SCHEMA, errorResponse } from './schema-errors.js';
import { buildDelete, buildInsert, buildUpdate } from './sql.js';

/** POST, PATCH and DELETE on `/:table`: PostgREST's writes to a table or view of public. */
export function tableWriteRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.post('/:table', (c) => insertRows(ctx, c));
  app.patch('/:table', (c) => updateRows(ctx, c));
  app.delete('/:table', (c) => deleteRows(ctx, c));
  return app;
}

/**
 * What every write reads from `Prefer` first: whether rows are answered, whether counted, and
 * the `return` asked for (answered in Preference-Applied).
 */
function writePreferences(c: Context): {
  representation: boolean;
  preferred: { return?: string; counted: boolean };
} {
  const header = c.req.header('prefer');
  const prefer = parsePrefer(header);
  const counted = prefer.count !== undefined;
  const asked = /(^|,)\s*return=/.test(header ?? '');
  return {
    representation: prefer.return === 'representation',
    preferred: asked ? { return: prefer.return, counted } : { counted },
  };
}

/**
 * POST: inserts one object or an array of objects (columns: `columns=` or the union of
 * their keys); 201, with the rows for `Prefer: return=representation`.
 * @throws RestError 400 PGRST102 for a body that is not an object or array of objects.
 */
export async function insertRows(ctx: ServerContext, c: Context): Promise<Response> {
  const { representation, preferred } = writePreferences(c);
  const who = await authorize(ctx, c);
  const refused = await refuseWithoutPrivilege(ctx, c, who, 'INSERT');
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
  const result = await runOnTable(ctx, c, who, 'content-profile', (table, query) => {
    const columns = query.columns ?? [...new Set(records.flatMap((r) => Object.keys(r)))];
    if (records.length === 0) {
      return { sql: `select '[]' as body, 0 as page_count`, params: [] };
    }
    return buildInsert(table, records, columns, { representation, select: query.select });
  });
  return mutationResponse(c, result, preferred, true);
}

/**
 * PATCH: updates the rows the filters select with one JSON object's values; 204, or 200
 * with the rows for `Prefer: return=representation`.
 * @throws RestError 400 PGRST102 for a body that is not one JSON object.
 */
export async function updateRows(ctx: ServerContext, c: Context): Promise<Response> {
  const { representation, preferred } = writePreferences(c);
  const who = await authorize(ctx, c);
  const refused = await refuseWithoutPrivilege(ctx, c, who, 'UPDATE');
  if (refused) return refused;
  const payload = await readJson(c);
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'expected a JSON object');
  }
  const result = await runOnTable(ctx, c, who, 'content-profile', (table, query) =>
    buildUpdate(table, payload as Record<string, unknown>, query, representation),
  );
  return mutationResponse(c, result, preferred, false);
}

/**
 * DELETE: deletes the rows the filters select; 204, or 200 with the rows for
 * `Prefer: return=representation`.
 */
export async function deleteRows(ctx: ServerContext, c: Context): Promise<Response> {
  const { representation, preferred } = writePreferences(c);
  const who = await authorize(ctx, c);
  const refused = await refuseWithoutPrivilege(ctx, c, who, 'DELETE');
  if (refused) return refused;
  const result = await runOnTable(ctx, c, who, 'content-profile', (table, query) =>
    buildDelete(table, query, representation),
  );
  return mutationResponse(c, result, preferred, false);
}

/**
 * Visitors first: an anonymous write anon can never make (it holds no INSERT,
 * UPDATE or DELETE privilege on the table at all) is answered before its body is
 * read, with the error PostgreSQL would raise for it (42501 "permission denied for
 * table …": PostgREST's 401 for anon). The connection is closed rather than the rest
 * of the body drained, so a flood of anonymous bodies costs no parsing. Anything else
 * (another role, which needs a signed token, an unknown table, another profile, a
 * privilege row-level security may still refuse) takes the normal path, and gets
 * PostgreSQL's own answer (a column default it may not run comes before the table). So does
 * a request with a card token: the pre-request check answers it first, as in PostgREST (a
 * wrong token is 401 PT401 whatever it asks, and counts against the token limit).
 * @returns the answer, or undefined when the request may go on.
 */
export async function refuseWithoutPrivilege(
  ctx: ServerContext,
  c: Context,
  who: RequestRole,
  privilege: WritePrivilege,
): Promise<Response | undefined> {
  const profile = c.req.header('content-profile');
  if (who.role !== ANON_ROLE || c.req.header(TOKEN_HEADER) !== undefined) return undefined;
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
  c.header('Connection', 'close');
  return errorResponse(
    c,
    new RestError(401, '42501', `permission denied for ${held.kind} ${name}`),
  );
}
