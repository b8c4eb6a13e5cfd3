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
  c.header(
    'Content-Location',
    contentLocation(c.req.param('table') ?? '', new URL(c.req.url).searchParams),
  );
  const status = answerRange(c, offset, result.page_count, result.total ?? undefined, prefer.count);
  const body = renderBody(c, result.body);
  if (c.req.method === 'HEAD') return c.body(null, status);
  return c.body(body, status);
}

/**
 * A read's range as PostgREST gives it: Content-Range (`first-last/total`, `*` without a count),
 * the count preference honoured in Preference-Applied, and the status: 200 without a count or for
 * every row, 206 for a part of the counted rows.
 * @param c the request's context, whose headers are set
 * @param offset the first row asked for, 0-based
 * @param pageCount the rows answered
 * @param total the counted rows, or undefined without `Prefer: count`
 * @param count the `Prefer: count=` asked for, if any
 * @throws RestError 416 PGRST103 for an offset past the counted rows
 */
export function answerRange(
  c: Context,
  offset: number,
  pageCount: number,
  total: number | undefined,
  count: string | undefined,
): 200 | 206 {
  c.header('Content-Range', contentRange(offset, pageCount, total));
  if (count) c.header('Preference-Applied', `count=${count}`);
  if (total === undefined) return 200;
  if (offset > total && total > 0) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${total} rows.`,
    );
  }
  return pageCount < total ? 206 : 200;
}
