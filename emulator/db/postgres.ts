import pg from 'pg';
import type { Db, Queryable } from './types.js';
import { parseInt8 } from './types.js';

const INT8_OID = 20;

/**
 * Connects to a PostgreSQL server through a pool of `maxConnections` connections.
 * The first connection is opened here, so a wrong URL fails now, not on the first request.
 * @param url a `postgres://user:pass@host:port/db` connection string
 * @throws the connection error (for example ECONNREFUSED, or 3D000 when the database
 * does not exist).
 */
export async function openPostgres(url: string, maxConnections = 10): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? parseInt8
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next
  // checkout opens a fresh one.
  pool.on('error', () => {});
  const probe = await pool.connect();
  probe.release();

  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      // Without parameters pg uses the simple protocol and answers a script of
      // several statements with one result each; the rows are those of the last one.
      const result = (await c.query(sql, params ?? [])) as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(result) ? result.at(-1) : result;
      return (last?.rows ?? []) as T[];
    },
    async exec(script: string) {
      await c.query(script);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
