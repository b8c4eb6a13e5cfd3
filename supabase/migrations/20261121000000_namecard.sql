-- namecard: one row per "switch" of the printed card. The newest active entry
-- (stamp_end > now, highest id) decides where visitors go.
--
-- Reads are public (anon, authenticated); inserts are allowed only to signed-in
-- users listed in private.namecard_owner; nobody updates or deletes through the API.
-- New Supabase projects no longer grant public tables to the API roles, so every
-- grant below is explicit.

create table public.namecard (
  id bigint generated always as identity primary key,
  -- epoch milliseconds; the entry is active while stamp_end > now
  stamp_end bigint not null constraint namecard_stamp_end_positive check (stamp_end > 0),
  type text not null constraint namecard_type_known check (type in ('main', 'photo')),
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references auth.users (id) on delete set null
);

comment on table public.namecard is
  'Name card switches: type main|photo until stamp_end (epoch ms). Newest active entry wins.';

-- The lookup is `where stamp_end > $now order by id desc limit 1`.
-- A btree on stamp_end answers "which entries are still active" with a range scan
-- that touches only active entries: when none is active the scan stops on the first
-- leaf page whatever the table size; when a few are active they are sorted (top-1).
-- Without it Postgres walks the primary key backwards and filters, which is fast
-- while the newest entry is active but reads every row when none is (measured on
-- 10^6 rows: 3 buffers / 0.01 ms with this index, 12,821 buffers / ~90 ms without).
-- When many entries are active the planner switches to the primary key by itself,
-- which is then the fast path. `include (id)` would not help: the lookup selects *.
-- A partial index cannot help either: its predicate would contain the moving "now".
-- Checked by tests/emulator/index-plan.test.ts.
create index namecard_stamp_end_idx on public.namecard (stamp_end);

-- PostgREST runs the lookup as a prepared statement, always the same text with
-- `now` as a parameter. After five runs Postgres may switch to a generic plan,
-- which cannot know that `stamp_end > $1` matches few rows and picks the primary
-- key walk (measured: 0.3 ms -> 100-150 ms per lookup at 10^6 rows with nothing
-- active). PostgREST applies the impersonated role's settings on every request,
-- so the API roles keep custom plans; planning this query costs microseconds.
alter role anon set plan_cache_mode = 'force_custom_plan';
alter role authenticated set plan_cache_mode = 'force_custom_plan';
notify pgrst, 'reload config';

alter table public.namecard enable row level security;

revoke all on table public.namecard from anon, authenticated, public;
grant select on table public.namecard to anon, authenticated;
grant insert (stamp_end, type) on table public.namecard to authenticated;
grant select, insert on table public.namecard to service_role;

-- Owners live outside the exposed schemas: the API cannot read or change the list.
create schema if not exists private;
revoke all on schema private from public;

create table private.namecard_owner (
  user_id uuid primary key references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

comment on table private.namecard_owner is 'Users allowed to insert into public.namecard.';

revoke all on table private.namecard_owner from public;

-- Security definer so that the policy can consult private.namecard_owner without
-- granting the API roles any access to it; search_path is pinned (lint 0011).
create function private.is_namecard_owner()
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

-- Only authenticated needs it (the insert policy applies to authenticated only).
revoke all on function private.is_namecard_owner() from public;
grant usage on schema private to authenticated;
grant execute on function private.is_namecard_owner() to authenticated;

create policy namecard_read on public.namecard
  for select
  to anon, authenticated
  using (true);

create policy namecard_owner_insert on public.namecard
  for insert
  to authenticated
  with check ((select private.is_namecard_owner()));
