import { PGlite, types } from '@electric-sql/pglite';
import { lockDataDir } from './dir-lock.js';
import type { Db, Queryable } from './types.js';
import { parseInt8 } from './types.js';

/**
 * Opens PGlite: persisted in `dataDir` (created when missing) or in memory when
 * `dataDir` is omitted. PGlite has a single connection; its `transaction()` queues
 * callers, so concurrent requests are serialised rather than interleaved.
 * A persisted directory is locked for this process (see dir-lock.ts) until close.
 * @throws DataDirInUseError when another running process has the directory open;
 * the PGlite error when it cannot be opened (for example a different PGlite version).
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  const unlock = dataDir ? await lockDataDir(dataDir) : async () => {};
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir, {
      parsers: { [types.INT8]: (v: string) => parseInt8(v) },
    });
  } catch (e) {
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
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async close() {
      try {
        await pg.close();
      } finally {
        await unlock();
      }
    },
  };
}
