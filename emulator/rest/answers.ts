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
 * smaller limit wins) and by the API's row cap (PostgREST's `db-max-rows`).
 * @param maxRows the most rows one answer holds
 */
export function mergeRange(
  query: ParsedQuery,
  range: { offset: number; limit?: number } | undefined,
  maxRows: number,
): ParsedQuery {
  const offset = (range?.offset ?? 0) + (query.offset ?? 0);
  const limits = [range?.limit, query.limit, maxRows].filter((n): n is number => n !== undefined);
  return { ...query, ...(range ? { offset } : {}), limit: Math.min(...limits) };
}

/** Content-Range: `first-last/total`, `*∕total` when empty; total is `*` without a count. */
export function contentRange(offset: number, count: number, total: number | undefined): string {
  const t = total === undefined ? '*' : String(total);
  return count > 0 ? `${offset}-${offset + count - 1}/${t}` : `*/${t}`;
}

/**
 * The answer to an insert (`created`: 201), update or delete (200, or 204 without
 * `Prefer: return=representation`), as PostgREST 12 gives it: Content-Range `*∕n` with a count,
 * `*∕*` without for an insert, `0-(n-1)∕*` (`*∕*` for no row) for an update or delete; the
 * `return` preference it honoured in Preference-Applied.
 * @param preferred the request's `Prefer: return=…`, if any
 */
export function mutationResponse(
  c: Context,
  result: Outcome,
  preferred: { return?: string; counted: boolean },
  created: boolean,
): Response {
  const { counted } = preferred;
  c.header(
    'Content-Range',
    created
      ? `*/${counted ? result.page_count : '*'}`
      : contentRange(0, result.page_count, counted ? result.page_count : undefined),
  );
  if (preferred.return !== undefined) c.header('Preference-Applied', `return=${preferred.return}`);
  if (preferred.return !== 'representation') return c.body(null, created ? 201 : 204);
  return c.body(renderBody(c, result.body), created ? 201 : 200);
}

/**
 * The Content-Location PostgREST 12 sends with a read of a table or view: `/<name>?<query>`,
 * its parameters (the gateway's `apikey` removed) sorted by name and each URL-encoded but for
 * letters, digits and `-._~`; no `?` without parameters.
 * @param name the table or view
 * @param search the request's query string
 */
export function contentLocation(name: string, search: URLSearchParams): string {
  const encode = (text: string) =>
    [...new TextEncoder().encode(text)]
      .map((byte) =>
        /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
          ? String.fromCharCode(byte)
          : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
      )
      .join('');
  const params = [...search.entries()]
    .filter(([key]) => key !== 'apikey')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${encode(key)}=${encode(value)}`);
  return `/${name}${params.length > 0 ? `?${params.join('&')}` : ''}`;
}
