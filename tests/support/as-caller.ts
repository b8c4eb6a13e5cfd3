import pg from 'pg';
import { TOKEN_HEADER } from '../../shared/core/tokens.js';

/** The figures of one EXPLAIN (ANALYZE, BUFFERS) of a statement run as an API caller. */
export interface Explained {
  /** Shared buffers the execution read (hit or read). */
  buffers: number;
  /** Planning plus execution, ms. */
  ms: number;
}

/**
 * Who a statement runs as, as PostgREST sets a request up: anon; a card token (anon, with the
 * token in the request's headers and PostgREST's pre-request check run first); or a signed-in
 * person (authenticated, with their user id in the JWT's claims).
 */
export type ApiCaller =
  { kind: 'anon' } | { kind: 'token'; token: string } | { kind: 'person'; userId: string };

/**
 * The headers a request of `caller` carries besides the anon key (`apikey`, and as the bearer):
 * a card token's header; none for anon.
 * @throws for a person, whose request carries an access token a test signs in for
 */
export function requestHeadersOf(caller: ApiCaller): Record<string, string> {
  if (caller.kind === 'person') {
    throw new Error("a person's request needs their access token: sign them in first");
  }
  return caller.kind === 'token' ? { [TOKEN_HEADER]: caller.token } : {};
}

/**
 * Runs `sql` as `caller` on `client` (a superuser connection to the database the emulator uses),
 * inside EXPLAIN (ANALYZE, BUFFERS) in a transaction of its own that is rolled back, with the
 * role settings PostgREST applies (the API roles' custom plans). The figures are the server's own.
 * @throws the database's error for the statement (as the caller would meet it)
 */
export async function explainAs(
  client: pg.Client,
  caller: ApiCaller,
  sql: string,
): Promise<Explained> {
  await client.query('begin');
  try {
    const role = caller.kind === 'person' ? 'authenticated' : 'anon';
    const claims = caller.kind === 'person' ? { sub: caller.userId, role } : { role };
    const headers = caller.kind === 'token' ? { 'x-namecard-token': caller.token } : {};
    await client.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
        set_config('request.headers', $3, true),
        set_config('plan_cache_mode', 'force_custom_plan', true)`,
      [role, JSON.stringify(claims), JSON.stringify(headers)],
    );
    if (caller.kind === 'token') await client.query('select private.namecard_pre_request()');
    const { rows } = await client.query<{
      'QUERY PLAN': [
        {
          Plan: { 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number };
          'Planning Time': number;
          'Execution Time': number;
        },
      ];
    }>(`explain (analyze, buffers, format json) ${sql}`);
    const [top] = rows[0]!['QUERY PLAN'];
    return {
      buffers: (top.Plan['Shared Hit Blocks'] ?? 0) + (top.Plan['Shared Read Blocks'] ?? 0),
      ms: top['Planning Time'] + top['Execution Time'],
    };
  } finally {
    await client.query('rollback');
  }
}
