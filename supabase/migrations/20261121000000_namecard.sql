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
-- A btree on stamp_end answers "which entries are still active" by a range scan that
-- touches only active entries: when none is active the scan ends at the first index
-- page, whatever the table size; when a few are active they are sorted by id (top-1).
-- `include (id)` lets that scan read id from the index alone, so only the winning row
-- is fetched from the heap. Active entries are few by nature (each one is superseded
-- or expires), so this beats walking the primary key backwards, which has to skip
-- every expired entry and is worst exactly when nothing is active.
-- A partial index cannot help: its predicate would have to contain the moving "now".
-- EXPLAIN evidence on 10^6 rows is in the emulator's report (tests/emulator/index-plan.test.ts).
create index namecard_stamp_end_idx on public.namecard (stamp_end) include (id);

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
