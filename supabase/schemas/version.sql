-- The schema's version: the newest migration's, so that `namecard doctor` and the site's
-- namecard.json learn with one call whether the database has every migration
-- (shared/core/schema-version.ts holds the same text; `npm run db:diff` sets both).

create or replace function public.namecard_schema_version()
returns text
language sql
immutable
set search_path = ''
as $$
  select '20261127160039'::text
$$;

comment on function public.namecard_schema_version() is
  'The version of the newest namecard migration applied to this database.';

revoke all on function public.namecard_schema_version() from public;
grant execute on function public.namecard_schema_version() to anon, authenticated, service_role;

