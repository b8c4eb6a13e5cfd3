import { PGlite, types } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { lockDataDir } from './dir-lock.js';
import { makePrivateDir, restrictTree } from './private-files.js';
import type { Db, Queryable } from './types.js';
import { API_LOGIN_ROLE, parseInt8 } from './types.js';

/**
 * Opens PGlite: persisted in `dataDir` (created with its missing parents when
 * missing) or in memory when `dataDir` is omitted. A persisted directory and all in it
 * are made owner-only (folders 0700, files 0600) once open and again on close. PGlite has a single connection; its `transaction()` queues
 * callers, so concurrent requests are serialised rather than interleaved.
 * A persisted directory is locked for this process (see dir-lock.ts) until close.
 * @throws DataDirInUseError when another running process has the directory open;
 * the PGlite error when it cannot be opened (for example a different PGlite version).
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir) await makePrivateDir(dataDir);
  const unlock = dataDir ? await lockDataDir(dataDir) : async () => {};
  const restrict = dataDir ? () => restrictTree(dataDir) : async () => {};
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir, {
      parsers: { [types.INT8]: (v: string) => parseInt8(v) },
      // The migrations index cards with GiST over bigints (btree_gist's operator classes), as
      // hosted Supabase and a PostgreSQL server with its contrib modules can.
      extensions: { btree_gist },
    });
  } catch (e) {
    await unlock();
    throw e;
  }
  try {
    await restrict();
  } catch (e) {
    await pg.close().catch(() => {});
    await unlock();
    throw e;
  }
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      if (params && params.length > 0) return (await q.query<T>(sql, params)).rows;
      // Without parameters use the simple protocol, which (like pg) allows several
      // statements; the rows are those of the last one.
      const results = await q.exec(sql);
      return (results.at(-1)?.rows ?? []) as T[];
    },
    async exec(script: string) {
      await q.exec(script);
    },
  });
  const [{ admin } = { admin: 'postgres' }] = (
    await pg.query<{ admin: string }>('select current_user as admin')
  ).rows;
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    apiTransaction: (fn) => pg.transaction((tx) => asApiLogin(tx, admin, () => fn(wrap(tx)))),
    async close() {
      try {
        await pg.close();
        await restrict();
      } finally {
        await unlock();
      }
    },
  };
}

/**
 * Runs `body` inside the open transaction with `authenticator` as the session user.
 *
 * PGlite has one connection, logged in as its superuser, so a second login as
 * PostgREST's authenticator is impossible; switching the session user is the nearest
 * equivalent. What it protects against: with a non-superuser session user,
 * PostgreSQL itself refuses `set_config('role', …)` for any role `authenticator` is
 * not a member of (42501), and nothing in the request runs with superuser rights.
 * What it does not: the connection still belongs to the superuser, so SQL that could
 * run arbitrary statements in the transaction could switch back; API requests never
 * run client-written SQL, and the role claim is also checked before any SQL runs.
 *
 * The switch back is an explicit `set session authorization <admin>`: in PGlite
 * neither COMMIT, ROLLBACK nor RESET restores the session user (measured), and a
 * savepoint lets the switch back run even when the request's statement failed.
 */
async function asApiLogin<T>(
  tx: Pick<PGlite, 'exec'>,
  admin: string,
  body: () => Promise<T>,
): Promise<T> {
  const restore = `set session authorization "${admin.replaceAll('"', '""')}"`;
  await tx.exec(`savepoint pgrst_api; set session authorization ${API_LOGIN_ROLE}`);
  try {
    const result = await body();
    await tx.exec(restore);
    return result;
  } catch (e) {
    await tx.exec(`rollback to savepoint pgrst_api; ${restore}`);
    throw e;
  }
}
