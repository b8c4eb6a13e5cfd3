-- Who may do what: the first card's owners as a deployment's admin lists them, the session
-- check every write makes, and the API roles' plan settings. Cards and members: cards.sql.

-- Owners live outside the exposed schemas: the API can neither read nor change the list.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated;

create table private.namecard_owner (
  user_id uuid primary key references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

comment on table private.namecard_owner is 'The owners of the first card (kept equal to its members with role owner).';

revoke all on table private.namecard_owner from public;

-- False when the caller's access token names a session that was signed out: every owner write
-- checks it, so "sign out everywhere" stops a stolen token at once.
create or replace function private.namecard_session_live()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.jwt() ->> 'session_id') is null
    or exists (
      select 1 from auth.sessions as s
      where s.id::text = (select auth.jwt() ->> 'session_id')
    )
$$;

comment on function private.namecard_session_live() is
  'False when the caller''s access token names a session that no longer exists.';

revoke all on function private.namecard_session_live() from public;
grant execute on function private.namecard_session_live() to authenticated, service_role;

-- PostgREST runs /go's lookup as a prepared statement; a generic plan cannot know that
-- `stamp_end > $1` matches few rows (measured 0.3 ms -> 100-150 ms at 10^6 rows), so the API
-- roles keep custom plans. Role settings are the server's, not the database's: the schema
-- comparison (scripts/db-schema.ts) cannot see them, so a change here needs its statement
-- written into the migration by hand.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';
