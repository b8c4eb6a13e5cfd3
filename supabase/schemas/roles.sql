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

-- What an instant may be when someone asks what visitors get then (epoch ms): until the end of
-- 2199 (the dates every table is held to), and from a day before now for anon (visitors, /go,
-- the CLI's preview: anyone with the public key), from 400 days before now for signed-in users
-- and the service. Further back, the entries ended since and the series cancelled since would
-- all have to be read; the day before now is what the materialised occurrences hold (a window
-- covers lookups from a day before it was opened), and covers clocks that differ. Who asks is
-- the request's API role (PostgREST's `role`), which security definer functions do not change.
-- Refused with 22023, PostgREST's 400, naming the argument; else true.
create or replace function private.namecard_check_instant(at_ms bigint, name text)
returns boolean
language plpgsql
stable
set search_path = ''
as $$
declare
  days_back integer := case when current_setting('role', true) = 'anon' then 1 else 400 end;
begin
  if at_ms is null
    or at_ms < (extract(epoch from now()) * 1000)::bigint - days_back::bigint * 86400000
    or at_ms >= 7258118400000
  then
    raise exception using
      errcode = '22023',
      message = format('%s must be an instant (epoch ms) from %s ago to the end of 2199, not %s',
        name, case days_back when 1 then 'a day' else days_back || ' days' end,
        coalesce(at_ms::text, 'null'));
  end if;
  return true;
end;
$$;

revoke all on function private.namecard_check_instant(bigint, text) from public;
grant execute on function private.namecard_check_instant(bigint, text) to authenticated, service_role;

-- The gate of the rule's lookups (namecard_in_force_at): the view /go reads inlines them, so anon
-- may call them directly too, and then only within namecard_check_instant's bounds; others (the
-- service's timeline walk, tests) may ask about any instant. True, or 22023. Security definer,
-- so that the private schema stays closed to anon; called once a lookup, before anything is read
-- (a one-time filter).
create or replace function public.namecard_instant_allowed(at_ms bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select current_setting('role', true) is distinct from 'anon'
    or private.namecard_check_instant(at_ms, 'at_ms')
$$;

comment on function public.namecard_instant_allowed(bigint) is
  'True when anon may ask what visitors get at epoch ms at_ms (from a day ago to the end of 2199), else 22023; true for everyone else.';

revoke all on function public.namecard_instant_allowed(bigint) from public;
grant execute on function public.namecard_instant_allowed(bigint) to anon, authenticated, service_role;

-- PostgREST runs /go's lookup as a prepared statement; a generic plan cannot know that
-- `stamp_end > $1` matches few rows (measured 0.3 ms -> 100-150 ms at 10^6 rows), so the API
-- roles keep custom plans. Role settings are the server's, not the database's: the schema
-- comparison (scripts/db-schema.ts) cannot see them, so a change here needs its statement
-- written into the migration by hand.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';
