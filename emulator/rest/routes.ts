import { Hono } from 'hono';
import { restRateLimits } from '../auth/rate-limit.js';
import type { ServerContext } from '../context.js';
import { rpcRoutes } from './rpc-calls.js';
import { answerRestError, invalidPath } from './schema-errors.js';
import { tableReadRoutes } from './table-reads.js';
import { tableWriteRoutes } from './table-writes.js';

export { EXPOSED_SCHEMA } from './schema-errors.js';

/**
 * The PostgREST subset at /rest/v1, one area per kind of request: functions at
 * /rpc/<fn> (GET/HEAD, POST), then reads (GET/HEAD) and writes (POST, PATCH, DELETE) of
 * the tables of public. Errors are answered in PostgREST's shape (schema-errors.ts).
 */
export function restRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.onError(answerRestError);
  app.notFound(invalidPath);
  // Counting a visit, redeeming a code and guessing card tokens are limited per client address,
  // before anything is read (card tokens on every route and method).
  for (const limit of restRateLimits(ctx.rateLimits)) app.use('*', limit);
  // /rpc first: `/:table` would not match its two segments, but the order says which wins.
  app.route('/rpc', rpcRoutes(ctx));
  app.route('/', tableReadRoutes(ctx));
  app.route('/', tableWriteRoutes(ctx));
  return app;
}
