import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Context } from 'hono';
import pLimit from 'p-limit';
import { RestError } from './errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { ALL_KEYS_MUST_MATCH, readPostPayload, type RpcPayload } from './rpc.js';

/**
 * Bodies are parsed one at a time, each in its own turn of the event loop, so that
 * many large bodies arriving together cannot hold the loop for their combined parse
 * time: lookups waiting on I/O run between two parses. Own code (a p-limit queue plus
 * a yield) because PostgREST has no equivalent; it leaves the JSON to PostgreSQL.
 */
const parsing = pLimit(1);

const tooDeep = () =>
  new RestError(
    400,
    'PGRST102',
    'Empty or invalid json',
    `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
  );

/** The body as text, or as bytes for application/octet-stream (a bytea argument). */
async function readBody(c: Context, contentType: string | undefined): Promise<string | Buffer> {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (media === 'application/octet-stream') return Buffer.from(await c.req.arrayBuffer());
  return c.req.text();
}

/**
 * The body as JSON, parsed under `parsing`.
 * @throws RestError 400 PGRST102 "Empty or invalid json" when it is not JSON, or when it
 * nests deeper than MAX_JSON_DEPTH levels (this emulator's own limit; see json-depth.ts).
 */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  return parsing(async () => {
    await nextTurn();
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw tooDeep();
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
export async function readRpcPayload(
  c: Context,
  contentType: string | undefined,
): Promise<RpcPayload> {
  const raw = await readBody(c, contentType);
  return parsing(async () => {
    await nextTurn();
    const media = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
    const text = raw.toString();
    if (media === 'application/json' && nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      // An array's elements must be objects with the same keys, and the first one of such an
      // array nests arrays, so PostgREST answers it so; the limit is the emulator's own.
      throw text.trimStart().startsWith('[[') ? ALL_KEYS_MUST_MATCH() : tooDeep();
    }
    return readPostPayload(contentType, raw);
  });
}
