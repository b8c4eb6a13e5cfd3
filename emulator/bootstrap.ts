import { readFile } from 'node:fs/promises';
import type { Db, Queryable } from './db/index.js';
import { API_LOGIN_ROLE, isDbError } from './db/index.js';

const BOOTSTRAP_SQL = new URL('./bootstrap.sql', import.meta.url);

// Roles are cluster-wide: two emulators bootstrapping different databases of one
// PostgreSQL server at the same moment can race on them ("tuple concurrently updated").
const RETRYABLE = new Set(['XX000', '40001', '40P01', '23505', '42710']);

/**
 * Gives `authenticator` the password of the connection string, unless it already
 * has it (a role is cluster-wide; rewriting it on every start would contend).
 * PostgreSQL cannot bind a password as a parameter, so it is quoted with format(%L).
 */
async function setApiPassword(tx: Queryable, password: string): Promise<void> {
  const [role] = await tx.query<{ has_password: boolean }>(
    `select rolpassword is not null as has_password from pg_authid where rolname = $1`,
    [API_LOGIN_ROLE],
  );
  if (role?.has_password) return;
  const [stmt] = await tx.query<{ sql: string }>(
    `select format('alter role %I password %L', $1::text, $2::text) as sql`,
    [API_LOGIN_ROLE, password],
  );
  if (stmt) await tx.exec(stmt.sql);
}

/**
 * Creates what Supabase provides before any migration (API roles, the auth schema,
 * auth.uid()/role()/email()/jwt(), the migrations ledger). Idempotent.
 * @param opts.apiPassword the password `authenticator` logs in with (PostgreSQL with a
 * password in DATABASE_URL); set only when the role has none yet.
 * @throws the database error when the script fails for a reason other than a
 * concurrent bootstrap of the same server (retried up to 5 times).
 */
export async function bootstrap(db: Db, opts: { apiPassword?: string } = {}): Promise<void> {
  const script = await readFile(BOOTSTRAP_SQL, 'utf8');
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        await tx.exec(script);
        if (opts.apiPassword) await setApiPassword(tx, opts.apiPassword);
      });
      return;
    } catch (e) {
      if (attempt >= 5 || !isDbError(e) || !RETRYABLE.has(e.code)) throw e;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}
