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

-- "Which entries are active at now" is a stabbing query on the interval [stamp_start,
-- stamp_end): int8range with a null lower bound is unbounded below and its default '[)'
-- bounds are exactly the rule above. A GiST index on that range finds the active entries
-- without reading the ended ones (most of the table) or the ones that have not started yet
-- (a btree on stamp_end would range-scan every future entry). The check constraint runs
-- before the index expression, so a start not before the end is refused with 23514, never
-- with a range-bound error.
create index namecard_active_range_idx
  on public.namecard using gist (int8range(stamp_start, stamp_end));

-- The next scheduled entry is the not-yet-started one that starts soonest: a btree on the
-- start (only rows that have one), in the view's order, stops at the first row.
create index namecard_start_idx
  on public.namecard (stamp_start, id desc)
  where stamp_start is not null;

-- The active entry, at most one row. The inner query is fenced (offset 0) so that the
-- planner finds the active rows through the GiST index and then takes the newest of them;
-- left to itself it would walk the primary key backwards from the newest row, which reads
-- every newer entry that has ended or not started yet (measured: 100,000 rows and ~100 ms at
-- 10^6 rows with 10^5 future entries, against well under a millisecond through the index).
create view public.namecard_active
with (security_invoker = true) as
  select id, type, stamp_start, stamp_end
  from (
    select id, type, stamp_start, stamp_end
    from public.namecard
    where int8range(stamp_start, stamp_end) @> (extract(epoch from now()) * 1000)::bigint
    offset 0
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
