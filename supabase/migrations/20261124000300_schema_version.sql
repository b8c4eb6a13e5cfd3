-- The schema version: the version of the newest migration, so that `namecard doctor` (and anyone
-- with the anon key) can see with one call, `GET /rest/v1/rpc/namecard_schema_version`, whether
-- the database has every migration a version of namecard needs. A database without this
-- migration answers 404 (no such function), which the doctor reports as missing migrations.
--
-- Every later migration must redefine this function to return its own version (its file name's
-- timestamp), and bump shared/core/schema-version.ts; tests/unit/schema-version.test.ts fails
-- otherwise.
--
-- It applies as hosted Supabase's NON-superuser `postgres` role: creating a function in public
-- and granting EXECUTE on it to the API roles needs only ownership. (The role settings in
-- 20261121000000_namecard.sql, `alter role anon set …`, work there because Supabase's `postgres`
-- has CREATEROLE and holds the API roles with ADMIN OPTION, which PostgreSQL 16 and later
-- require for ALTER ROLE … SET on another role; on 15, CREATEROLE suffices.)

create or replace function public.namecard_schema_version()
returns text
language sql
immutable
set search_path = ''
as $$
  select '20261124000300'::text
$$;

comment on function public.namecard_schema_version() is
  'The version of the newest namecard migration applied to this database.';

-- Functions are executable by PUBLIC by default; only the API roles get it, explicitly.
revoke all on function public.namecard_schema_version() from public;
grant execute on function public.namecard_schema_version() to anon, authenticated, service_role;
