import pg from 'pg';
import type { Db, Queryable } from './types.js';
import { API_LOGIN_ROLE, parseInt8 } from './types.js';

const INT8_OID = 20;

function newPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
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
  return pool;
}

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

async function inTransaction<T>(pool: pg.Pool, fn: (tx: Queryable) => Promise<T>): Promise<T> {
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
}

/**
 * The connection string API requests use: the same server, database and password,
 * logged in as `authenticator` (Supabase gives its roles one password, too).
 */
export function apiLoginUrl(url: string): string {
  const api = new URL(url);
  api.username = API_LOGIN_ROLE;
  return api.toString();
}

/**
 * Connects to a PostgreSQL server through two pools of up to `maxConnections`
 * connections each: one as the URL's user (migrations, auth tables, admin) and one,
 * opened on first use, as `authenticator` for the emulator's own REST layer, so that a request
 * never runs on a superuser connection. Every API request shares that one pool, as every request
 * shares PostgREST's.
 * The first admin connection is opened here, so a wrong URL fails now, not on the
 * first request.
 * @param url a `postgres://user:pass@host:port/db` connection string
 * @throws the connection error (for example ECONNREFUSED, or 3D000 when the database
 * does not exist).
 */
export async function openPostgres(url: string, maxConnections = 10): Promise<Db> {
  const pool = newPool(url, maxConnections);
  const probe = await pool.connect();
  probe.release();
  let apiPool: pg.Pool | undefined;

  return {
    kind: 'postgres',
    ...wrap(pool),
    transaction: (fn) => inTransaction(pool, fn),
    apiTransaction(fn) {
      apiPool ??= newPool(apiLoginUrl(url), maxConnections);
      return inTransaction(apiPool, fn);
    },
    async close() {
      await Promise.all([pool.end(), apiPool?.end()]);
    },
  };
}
