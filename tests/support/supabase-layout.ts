import { readFile } from 'node:fs/promises';
import pg from 'pg';

const BOOTSTRAP_SQL = new URL('../../emulator/bootstrap.sql', import.meta.url);

/**
 * Lays out a database of a fresh PostgreSQL server as Supabase's images do, so that
 * migrations run there with the rights they get on hosted Supabase:
 *
 * - `supabase_admin` is the only superuser (the server must have been initialised with it);
 * - `postgres` is NOSUPERUSER with CREATEROLE, CREATEDB, REPLICATION and BYPASSRLS, owns the
 *   database (so it may create schemas) and holds anon, authenticated and service_role WITH
 *   ADMIN OPTION (which PostgreSQL 16+ requires for `alter role … set`); it runs migrations;
 * - anon, authenticated, service_role and authenticator, with the statement time-outs, as
 *   emulator/bootstrap.sql makes them; `postgres` may set PostgREST's in-database settings on
 *   `authenticator` (`pgrst.db_pre_request`), as Supabase's supautils lets it
 *   (`privileged_role_allowed_configs`);
 * - the auth schema, auth.users (and the emulator's session tables) and auth.uid(), role(),
 *   email(), jwt() owned by GoTrue's `supabase_auth_admin`; `postgres` may use the tables
 *   (reference them, read and write rows) but not change or replace them.
 *
 * Roles are the server's, made once; each database laid out gets its own auth schema.
 * Reconstructed from Supabase's image init scripts as far as namecard depends on them; not a
 * copy of them.
 *
 * @param superuserUrl a connection string as `supabase_admin` to the new server's `postgres`
 * @param options.database another database to create (owned by `postgres`) and lay out
 *   instead of `postgres` itself
 * @returns the connection string as `postgres` to the database laid out
 * @throws the server's error when a statement fails
 */
export async function layOutSupabase(
  superuserUrl: string,
  options: { database?: string } = {},
): Promise<string> {
  const database = options.database ?? 'postgres';
  const target = new URL(superuserUrl);
  target.pathname = `/${database}`;
  const bootstrap = await readFile(BOOTSTRAP_SQL, 'utf8');
  const server = new pg.Client({ connectionString: superuserUrl });
  await server.connect();
  try {
    await server.query(`
      do $$ begin
        if not exists (select from pg_roles where rolname = 'postgres') then
          create role postgres login createrole createdb replication bypassrls;
          create role supabase_auth_admin login noinherit createrole;
        end if;
      end $$;
    `);
    if (database === 'postgres') await server.query('alter database postgres owner to postgres');
    else await server.query(`create database ${pg.escapeIdentifier(database)} owner postgres`);
  } finally {
    await server.end();
  }
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    await client.query(bootstrap);
    await client.query(`
      grant anon, authenticated, service_role to postgres with admin option;
      grant set on parameter "pgrst.db_pre_request" to postgres;
      alter schema auth owner to supabase_auth_admin;
      alter table auth.users owner to supabase_auth_admin;
      alter table auth.sessions owner to supabase_auth_admin;
      alter table auth.refresh_tokens owner to supabase_auth_admin;
      alter function auth.uid() owner to supabase_auth_admin;
      alter function auth.role() owner to supabase_auth_admin;
      alter function auth.email() owner to supabase_auth_admin;
      alter function auth.jwt() owner to supabase_auth_admin;
      grant usage on schema auth to postgres;
      grant all on all tables in schema auth to postgres;
      grant all on all sequences in schema auth to postgres;
    `);
  } finally {
    await client.end();
  }
  target.username = 'postgres';
  return target.toString();
}
