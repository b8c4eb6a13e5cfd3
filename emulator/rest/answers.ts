import type { Context } from 'hono';
import type { ParsedQuery } from './query.js';
import { JSON_TYPE } from './schema-errors.js';

const OBJECT_MEDIA_TYPE = 'application/vnd.pgrst.object+json';

/** What one statement answers: the JSON body, the rows in it, and the count when asked. */
export interface Outcome {
  /** The rows as a JSON array (text). */
  body: string;
  page_count: number;
  /** The total row count, with `Prefer: count=…` only. */
  total?: number;
}

/** `.single()` asks for one object instead of an array (Accept: vnd.pgrst.object+json). */
export function wantsObject(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes(OBJECT_MEDIA_TYPE);
}

/**
 * The answer body: the JSON array, or its only element for `.single()`; sets the
 * matching Content-Type.
 */
export function renderBody(c: Context, body: string): string {
  if (!wantsObject(c)) {
    c.header('Content-Type', JSON_TYPE);
    return body;
  }
  c.header('Content-Type', `${OBJECT_MEDIA_TYPE}; charset=utf-8`);
  const [only] = JSON.parse(body) as unknown[];
  return JSON.stringify(only);
}

/**
 * limit/offset parameters narrowed further by a `Range` header (offsets add up, the
 * smaller limit wins).
 */
export function mergeRange(
  query: ParsedQuery,
  range: { offset: number; limit?: number } | undefined,
): ParsedQuery {
  if (!range) return query;
  const offset = range.offset + (query.offset ?? 0);
  const limits = [range.limit, query.limit].filter((n): n is number => n !== undefined);
  return { ...query, offset, limit: limits.length > 0 ? Math.min(...limits) : undefined };
}

/** Content-Range: `first-last/total`, `*∕total` when empty; total is `*` without a count. */
export function contentRange(offset: number, count: number, total: number | undefined): string {
  const t = total === undefined ? '*' : String(total);
  return count > 0 ? `${offset}-${offset + count - 1}/${t}` : `*/${t}`;
}

/**
 * The answer to an insert (`created`: 201), update or delete (200, or 204 without
 * `Prefer: return=representation`): Content-Range `*∕n` with a count, `*∕*` without.
 */
export function mutationResponse(
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
