import pg from 'pg';

/** The figures of one EXPLAIN (ANALYZE, BUFFERS) of a statement run as anon. */
export interface Explained {
  /** Shared buffers the execution read (hit or read). */
  buffers: number;
  /** Planning plus execution, ms. */
  ms: number;
}

/**
 * Runs `sql` as anon on `client` (a superuser connection to the database the emulator uses),
 * inside EXPLAIN (ANALYZE, BUFFERS) in a transaction of its own that is rolled back, with the
 * role settings PostgREST applies (anon's custom plans). The figures are the server's own.
 * @throws the database's error for the statement (as anon would meet it)
 */
export async function explainAsAnon(client: pg.Client, sql: string): Promise<Explained> {
  await client.query('begin');
  try {
    await client.query(`select set_config('role', 'anon', true),
      set_config('plan_cache_mode', 'force_custom_plan', true)`);
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
