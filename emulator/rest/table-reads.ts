import { Hono, type Context } from 'hono';
import type { ServerContext } from '../context.js';
import { contentLocation, contentRange, mergeRange, renderBody } from './answers.js';
import { RestError } from './errors.js';
import { parsePrefer, parseRangeHeader } from './query.js';
import { authorize, runOnTable } from './run.js';
import { buildRead } from './sql.js';

/** GET and HEAD on `/:table`: PostgREST's reads of a table or view of public. */
export function tableReadRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.on(['GET', 'HEAD'], '/:table', (c) => readTable(ctx, c));
  return app;
}

/**
 * Reads rows of `:table` as the request's role: select, filters, order, limit and offset
 * from the query string, narrowed by a `Range` header; `Prefer: count=…` adds the total.
 * Content-Range `first-last/total`; 206 when the page is not all rows; HEAD without a body.
 * @throws RestError 416 PGRST103 for an offset past the counted rows; as runOnTable.
 */
export async function readTable(ctx: ServerContext, c: Context): Promise<Response> {
  const prefer = parsePrefer(c.req.header('prefer'));
  let offset = 0;
  const who = await authorize(ctx, c);
  const result = await runOnTable(ctx, c, who, 'accept-profile', (table, query) => {
    const range = parseRangeHeader(c.req.header('range'));
    const merged = mergeRange(query, range, ctx.maxRows);
    offset = merged.offset ?? 0;
    return buildRead(table, merged, prefer.count !== undefined);
  });
  const total = result.total ?? undefined;
  c.header('Content-Range', contentRange(offset, result.page_count, total));
  c.header(
    'Content-Location',
    contentLocation(c.req.param('table') ?? '', new URL(c.req.url).searchParams),
  );
  if (prefer.count) c.header('Preference-Applied', `count=${prefer.count}`);
  const status = readStatus(offset, result.page_count, total);
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
}

/**
 * A read's status as PostgREST gives it: 200 without a count or for every row, 206 for a
 * part of the counted rows, 416 for an offset past them.
 * @param offset the first row asked for, 0-based
 * @param pageCount the rows answered
 * @param total the counted rows, or undefined without `Prefer: count`
 */
export function readStatus(
  offset: number,
  pageCount: number,
  total: number | undefined,
): 200 | 206 | 416 {
  if (total === undefined) return 200;
  const last = offset + pageCount - 1;
  if (offset > total && total > 0) return 416;
  if (1 + last - offset < total) return 206;
  return 200;
}
