import { readFile } from 'node:fs/promises';
import type { Db } from './db/index.js';
import { isDbError } from './db/index.js';

const BOOTSTRAP_SQL = new URL('./bootstrap.sql', import.meta.url);

// Roles are cluster-wide: two emulators bootstrapping different databases of one
// PostgreSQL server at the same moment can race on them ("tuple concurrently updated").
const RETRYABLE = new Set(['XX000', '40001', '40P01', '23505', '42710']);

/**
 * Creates what Supabase provides before any migration (API roles, the auth schema,
 * auth.uid()/role()/email()/jwt(), the migrations ledger). Idempotent.
 * @throws the database error when the script fails for a reason other than a
 * concurrent bootstrap of the same server (retried up to 5 times).
 */
export async function bootstrap(db: Db): Promise<void> {
  const script = await readFile(BOOTSTRAP_SQL, 'utf8');
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction((tx) => tx.exec(script));
      return;
    } catch (e) {
      if (attempt >= 5 || !isDbError(e) || !RETRYABLE.has(e.code)) throw e;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}
