import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db/index.js';

/** The project's migrations, as Supabase keeps them: `<version>_<name>.sql`. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../supabase/migrations/', import.meta.url));

export interface AppliedMigration {
  version: string;
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
      const done = await db.transaction(async (tx) => {
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
      });
      if (done) applied.push({ version, name });
    } catch (e) {
      throw new Error(`migration \`${file}\` failed: ${(e as Error).message}`, { cause: e });
    }
  }
  return applied;
}
