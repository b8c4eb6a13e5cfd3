import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDbError, type Db } from './db/index.js';

// A migration may touch cluster-wide catalogs (ALTER ROLE … SET); emulators
// migrating other databases of the same server at the same moment can collide there.
const RETRYABLE = new Set(['XX000', '40001', '40P01']);

/** The project's migrations, as Supabase keeps them: `<version>_<name>.sql`. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../supabase/migrations/', import.meta.url));

/** A migration file applied, as supabase_migrations.schema_migrations records it. */
export interface AppliedMigration {
  /** The file name's timestamp prefix, e.g. `20261123000100`. */
  version: string;
  /** The rest of the file name, without `.sql`. */
  name: string;
}

/**
 * Applies every `*.sql` file of `dir` in filename order, each in its own transaction
 * and each only once (recorded in supabase_migrations.schema_migrations, as the
 * Supabase CLI records them).
 * @returns the migrations applied by this call (empty when all were applied before)
 * @throws `Error` naming the file when a migration fails; earlier ones stay applied.
 */
export async function applyMigrations(db: Db, dir = MIGRATIONS_DIR): Promise<AppliedMigration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const applied: AppliedMigration[] = [];
  for (const file of files) {
    const match = /^([0-9]+)_?(.*)\.sql$/.exec(file);
    if (!match) throw new Error(`migration \`${file}\` must be named <version>_<name>.sql`);
    const [, version = '', name = ''] = match;
    const sql = await readFile(path.join(dir, file), 'utf8');
    try {
      const done = await withRetry(() =>
        db.transaction(async (tx) => {
          // Serialises concurrent emulators on one database.
          await tx.query('select pg_advisory_xact_lock(54321)');
          const seen = await tx.query(
            'select 1 from supabase_migrations.schema_migrations where version = $1',
            [version],
          );
          if (seen.length > 0) return false;
          await tx.exec(sql);
          await tx.query(
            'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
            [version, name, [sql]],
          );
          return true;
        }),
      );
      if (done) applied.push({ version, name });
    } catch (e) {
      throw new Error(`migration \`${file}\` failed: ${(e as Error).message}`, { cause: e });
    }
  }
  return applied;
}

async function withRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= 5 || !isDbError(e) || !RETRYABLE.has(e.code)) throw e;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}
