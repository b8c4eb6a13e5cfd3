-- The schedule: an entry may start later than when it is stored, and the database's own
-- clock decides what is active, so that a visitor whose phone clock is wrong still lands
-- where the owner meant.
--
-- An entry is active while (stamp_start is null or stamp_start <= now) and stamp_end > now,
-- with now the database server's clock in epoch milliseconds; among active entries the one
-- with the highest id wins; with none, visitors get the main site.

alter table public.namecard
  add column stamp_start bigint null,
  add constraint namecard_start_before_end
    check (stamp_start is null or stamp_start < stamp_end);

comment on column public.namecard.stamp_start is
  'Epoch ms when the entry starts; null means from the moment it was stored.';

-- Owners may now say when an entry starts; created_by stays the database's to fill in.
grant insert (stamp_start) on table public.namecard to authenticated;

-- "Which entries are active at now" is answered by two partial indexes, one per kind of
-- entry, so that neither the ended entries (most of the table) nor the ones that have not
-- started yet are read:
-- - entries with no start are active while stamp_end > now: a btree on stamp_end over those
--   rows only range-scans the few that have not ended (entries scheduled for later are not in
--   it, so 10^5 of them cost nothing);
-- - entries with a start are active while now lies in [stamp_start, stamp_end): a GiST index
--   on that interval (int8range's default '[)' bounds are exactly the rule) stabs the few
--   that contain now. Over entries with no start the same GiST index degrades, since every
--   interval (-inf, stamp_end) overlaps every other: measured 105 pages at 10^6 rows.
-- The check constraint runs before the index expression, so a start not before the end is
-- refused with 23514, never with a range-bound error.
create index namecard_open_end_idx
  on public.namecard (stamp_end)
  where stamp_start is null;

create index namecard_active_range_idx
  on public.namecard using gist (int8range(stamp_start, stamp_end))
  where stamp_start is not null;

-- The next scheduled entry is the not-yet-started one that starts soonest: a btree on the
-- start (only rows that have one), in the view's order, stops at the first row.
create index namecard_start_idx
  on public.namecard (stamp_start, id desc)
  where stamp_start is not null;

-- The active entry, at most one row: the newest of the active entries of both kinds. Each
-- branch is fenced (offset 0) so that it is planned on its own index; left to itself the
-- planner would walk the primary key backwards from the newest row, which reads every newer
-- entry that has ended or not started yet (measured: 100,000 rows and ~100 ms at 10^6 rows
-- with 10^5 future entries).
create view public.namecard_active
with (security_invoker = true) as
  select id, type, stamp_start, stamp_end
  from (
    (
      select id, type, stamp_start, stamp_end
      from public.namecard
      where stamp_start is null
        and stamp_end > (extract(epoch from now()) * 1000)::bigint
      offset 0
    )
    union all
    (
      select id, type, stamp_start, stamp_end
      from public.namecard
      where stamp_start is not null
        and int8range(stamp_start, stamp_end) @> (extract(epoch from now()) * 1000)::bigint
      offset 0
    )
  ) as active
  order by id desc
  limit 1;

comment on view public.namecard_active is
  'The active entry by the server''s clock: started (or no start), not ended, highest id.';

-- The next scheduled change, at most one row: the entry not started yet that starts soonest
-- and will take effect when it does, because it is newer than the active entry or starts
-- when that one has ended (an older entry starting inside a newer one''s time does not
-- change what visitors get). Ties go to the newest.
create view public.namecard_next
with (security_invoker = true) as
  select n.id, n.type, n.stamp_start, n.stamp_end
  from public.namecard as n
  left join public.namecard_active as a on true
  where n.stamp_start > (extract(epoch from now()) * 1000)::bigint
    and (a.id is null or n.id > a.id or n.stamp_start >= a.stamp_end)
  order by n.stamp_start, n.id desc
  limit 1;

comment on view public.namecard_next is
  'The next scheduled entry by the server''s clock: not started yet, takes effect when it starts.';

-- Both views run with the reader's rights (security_invoker), so the table's RLS and grants
-- apply to them as they do to the table.
grant select on public.namecard_active, public.namecard_next to anon, authenticated, service_role;
