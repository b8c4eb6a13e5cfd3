-- The schema the API cannot reach, the session check every write makes, the bounds of an
-- instant anyone may ask about, and the API roles' plan settings. Cards and members: cards.sql;
-- card tokens and the check of every request that carries one: tokens.sql.

-- What the API must not reach lives in schema private: members, invitations, tokens and the
-- workers that security-definer entry points call. The API roles may use the schema only to call
-- what is granted them there (the pre-request check PostgREST runs before every request, as the
-- request's role, service_role's included; the row-level security helpers); everything else in
-- it is nobody's to call or read.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

-- False when the caller's access token names a session that was signed out: every write
-- checks it, so "sign out everywhere" stops a stolen token at once. True for a caller with no
-- session (anon, a card token).
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

-- The limits that keep what any caller may make, and so what every call on a card costs,
-- bounded (docs/security.md, "Limits"): each refusal names its limit.
--   cards      cards one account may make, removed ones included (slugs are never reused)
--   profiles   profiles of a card, removed ones included (they stay for the history)
--   series     live weekly series of a card (not cancelled, not past their last date)
--   tokens     live card tokens of a card (not revoked)
create or replace function private.namecard_limit(what text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case what
    when 'cards' then 20
    when 'profiles' then 50
    when 'series' then 100
    when 'tokens' then 50
  end
$$;

comment on function private.namecard_limit(text) is
  'The limit of cards (an account makes), profiles, series (live) or tokens (live) of a card.';

revoke all on function private.namecard_limit(text) from public;

-- PostgREST runs /go's lookup as a prepared statement; a generic plan cannot know that
-- `stamp_end > $1` matches few rows (measured 0.3 ms -> 100-150 ms at 10^6 rows), so the API
-- roles keep custom plans. Role settings are the server's, not the database's: the schema
-- comparison (scripts/db-schema.ts) cannot see them, so a change here needs its statement
-- written into the migration by hand.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';
