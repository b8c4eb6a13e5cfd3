-- Who may do what: the owners' list, the checks every owner write makes, and the API roles'
-- plan settings.

-- Owners live outside the exposed schemas: the API can neither read nor change the list.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated;

create table private.namecard_owner (
  user_id uuid primary key references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

comment on table private.namecard_owner is 'Users allowed to insert into public.namecard.';

revoke all on table private.namecard_owner from public;

-- Security definer, so that policies consult the owners' list without the API roles reading it.
create or replace function private.is_namecard_owner()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from private.namecard_owner o
    where o.user_id = (select auth.uid())
  );
$$;

comment on function private.is_namecard_owner() is
  'True when the signed-in user (auth.uid()) is listed in private.namecard_owner.';

revoke all on function private.is_namecard_owner() from public;
grant execute on function private.is_namecard_owner() to authenticated;

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

-- Lets a signed-in user ask whether they may change the card, so that /manage and the CLI say
-- so at sign-in; the answer is the very check the write policies use.
create view public.namecard_access
with (security_invoker = true) as
  select (select private.is_namecard_owner()) as can_set;

comment on view public.namecard_access is
  'One row: can_set is true when the signed-in user may insert into public.namecard.';

revoke all on public.namecard_access from anon, authenticated, public;
grant select on public.namecard_access to authenticated;

-- What an instant may be when anyone asks what visitors get then (epoch ms): from 400 days
-- before now (further back, series cancelled since would all have to be expanded) to the end of
-- 2199 (the dates every table is held to). Refused with 22023, PostgREST's 400, naming it.
create or replace function private.namecard_check_instant(at_ms bigint, name text)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if at_ms is null
    or at_ms < (extract(epoch from now()) * 1000)::bigint - 400::bigint * 86400000
    or at_ms >= 7258118400000
  then
    raise exception using
      errcode = '22023',
      message = format('%s must be an instant (epoch ms) from 400 days ago to the end of 2199, not %s',
        name, coalesce(at_ms::text, 'null'));
  end if;
end;
$$;

revoke all on function private.namecard_check_instant(bigint, text) from public;
grant execute on function private.namecard_check_instant(bigint, text) to authenticated, service_role;

-- PostgREST runs /go's lookup as a prepared statement; a generic plan cannot know that
-- `stamp_end > $1` matches few rows (measured 0.3 ms -> 100-150 ms at 10^6 rows), so the API
-- roles keep custom plans. Role settings are the server's, not the database's: the schema
-- comparison (scripts/db-schema.ts) cannot see them, so a change here needs its statement
-- written into the migration by hand.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';
