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

/** The migrations ledger, as the Supabase CLI makes it (as the role that runs migrations). */
const LEDGER_SQL = `
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  name text,
  statements text[],
  applied_at timestamptz not null default now()
);`;

/**
 * Whether the database was laid out by Supabase's own images (`supabase start`, a hosted
 * project's copy): GoTrue's role `supabase_auth_admin` owns auth.users and the emulator's
 * user is no superuser (Supabase's `postgres`). Then the API roles, the auth schema and its
 * helpers are Supabase's, which that user may not change, and the bootstrap leaves them alone.
 */
async function isSupabaseLayout(tx: Queryable): Promise<boolean> {
  const [row] = await tx.query<{ supabase: boolean }>(
    `select exists (
         select 1 from pg_catalog.pg_class c
         join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         join pg_catalog.pg_roles r on r.oid = c.relowner
         where n.nspname = 'auth' and c.relname = 'users' and r.rolname = 'supabase_auth_admin')
       and not (select rolsuper from pg_catalog.pg_roles where rolname = current_user)
       as supabase`,
  );
  return row?.supabase ?? false;
}

/**
 * Creates what Supabase provides before any migration (API roles, the auth schema,
 * auth.uid()/role()/email()/jwt(), the migrations ledger). Idempotent. On a database laid
 * out by Supabase's images ({@link isSupabaseLayout}) only the ledger is made, as the
 * Supabase CLI makes it before its first `db push`.
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
        if (!(await isSupabaseLayout(tx))) {
          await tx.exec(script);
          if (opts.apiPassword) await setApiPassword(tx, opts.apiPassword);
        }
        await tx.exec(LEDGER_SQL);
      });
      return;
    } catch (e) {
      if (attempt >= 5 || !isDbError(e) || !RETRYABLE.has(e.code)) throw e;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}
