-- /go's lookup stays flat with series: their occurrences are materialised into an indexed
-- table ahead of time, so the lookup stabs an index instead of expanding every series.
--
-- Why this design. Expanding a series at one instant means a few time-zone conversions
-- (namecard_local_instant) per series, at every lookup: with 10^3 live series that took
-- tens of milliseconds against a fraction of one for the one-off entries' index stab. The
-- occurrences of a series are fixed by its row (weekdays, local times, zone, dates), so they
-- can be computed once, when the series is stored, over a horizon (400 days), and kept in
-- private.namecard_occurrence with a GiST index on [start, planned end): the same kind of
-- stab as the entries' (namecard_active_range_idx), flat in the number of rows.
--
-- Exact, never stale:
-- - The table holds PLANNED occurrences only (start and planned end, epoch ms). What `end`
--   (public.namecard_series_stop) and `cancel` (namecard_series.stopped_at) change is read at
--   lookup time, for the few occurrences in force, by primary key: a stop or a cancel needs no
--   rewrite and cannot be missed.
-- - private.namecard_series_window says, per series, for which instants the table is
--   complete: [covered_from, covered_until). The occurrences starting in
--   [covered_from - 3 days, covered_until) are all in the table; an occurrence lasts at most
--   a day plus a clock change, so every occurrence in force at an instant of the window is
--   there. A series whose window does not hold the instant (its horizon has passed because
--   nobody wrote for months, or an instant before it was stored) is expanded as before
--   (namecard_occurrences' rule): slower, never wrong. Finding those series is an index range
--   on the window's bounds, empty in the normal case, so the fallback is not even called.
-- - A series with an end (cancelled, or a last date) is materialised to that end and its
--   window is then unbounded above: after its end no occurrence is in force.
-- - The horizon moves on owner writes: any insert or update of an entry, a series or a stop
--   extends every series whose window ends within 200 days to 400 days from now (one index
--   range on covered_until finds them; usually none). An update of a series row (only the
--   service role may; cancel sets stopped_at) rebuilds that series' occurrences.
--
-- One rule: namecard_active_at stays the rule's definition (the timeline walk and preview
-- use it, and the property test checks it against the TypeScript timeline). The lookup /go
-- reads (the view namecard_active and namecard_active_url) is namecard_lookup_at: the same
-- entries' branches, and the series' occurrence in force from namecard_series_in_force;
-- newest (highest id) wins across both, exactly as in namecard_active_at.
--
-- What anon learns: nothing new. The two tables are in the private schema (no grants to
-- anon or authenticated; their extent would tell when the owner last wrote). Anon calls
-- namecard_series_in_force, which answers the series occurrence in force at an instant:
-- what namecard_occurrences (already callable by anon) answers from the readable series.
--
-- Nothing here needs a superuser: tables, triggers and functions the migrating role owns.

create table private.namecard_series_window (
  series_id bigint primary key
    references public.namecard_series (id) on delete cascade,
  covered_from bigint not null,
  covered_until bigint not null,
  constraint namecard_series_window_order check (covered_from <= covered_until)
);

comment on table private.namecard_series_window is
  'Per series: the instants [covered_from, covered_until) (epoch ms) at which private.namecard_occurrence holds every occurrence in force.';

create index namecard_series_window_until_idx on private.namecard_series_window (covered_until);
create index namecard_series_window_from_idx on private.namecard_series_window (covered_from);

create table private.namecard_occurrence (
  series_id bigint not null references public.namecard_series (id) on delete cascade,
  stamp_start bigint not null,
  planned_end bigint not null,
  primary key (series_id, stamp_start),
  constraint namecard_occurrence_order check (planned_end > stamp_start)
);

comment on table private.namecard_occurrence is
  'Planned occurrences of the series (epoch ms, before any end or cancel), over each series'' window.';

create index namecard_occurrence_range_idx
  on private.namecard_occurrence using gist (int8range(stamp_start, planned_end));

alter table private.namecard_series_window enable row level security;
alter table private.namecard_occurrence enable row level security;
revoke all on table private.namecard_series_window, private.namecard_occurrence
  from public, anon, authenticated;

-- Fills in the planned occurrences of series sid that start in [from_ms, until_ms), by the
-- rule of namecard_occurrences (local days around the span, namecard_local_instant for the
-- local times; an occurrence ends at its end time on the next day when that is at or before
-- its start time). Returns nothing; existing rows are kept.
create function private.namecard_series_fill(sid bigint, from_ms bigint, until_ms bigint)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into private.namecard_occurrence (series_id, stamp_start, planned_end)
  select s.id, t.start_ms, t.end_ms
  from public.namecard_series as s
  cross join lateral (
    select g.day::date as day
    from generate_series(
      greatest((to_timestamp(from_ms / 1000.0) at time zone s.time_zone)::date - 2, s.first_date),
      least((to_timestamp(until_ms / 1000.0) at time zone s.time_zone)::date + 1, s.last_date),
      interval '1 day'
    ) as g (day)
    where extract(isodow from g.day)::smallint = any (s.weekdays)
  ) as d
  cross join lateral (
    select public.namecard_local_instant(d.day + s.start_time, s.time_zone) as start_ms,
      public.namecard_local_instant(
        d.day + (s.end_time <= s.start_time)::integer + s.end_time, s.time_zone
      ) as end_ms
  ) as t
  where s.id = sid
    and t.start_ms >= from_ms
    and t.start_ms < until_ms
    and t.end_ms > t.start_ms
  on conflict do nothing
$$;

-- The horizon: how far ahead (ms) a series is materialised, and how close its window's end
-- may come before an owner write extends it.
create function private.namecard_series_horizon_ms()
returns bigint
language sql
immutable
set search_path = ''
as $$
  select 400::bigint * 86400000
$$;

-- Materialises series sid up to until_ms (epoch ms), or to its end when it has one before
-- that (cancelled: stopped_at; a last date: two local days after it, past any start on it),
-- and then marks its window unbounded above. rebuild: forget what was materialised and start
-- again from three days before now (the series row changed).
create function private.namecard_series_materialise(sid bigint, until_ms bigint, rebuild boolean)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  s public.namecard_series%rowtype;
  w private.namecard_series_window%rowtype;
  bound bigint;
  fill_from bigint;
begin
  select * into s from public.namecard_series as x where x.id = sid;
  if not found then
    return;
  end if;
  if rebuild then
    delete from private.namecard_occurrence as o where o.series_id = sid;
    delete from private.namecard_series_window as x where x.series_id = sid;
  end if;
  select * into w from private.namecard_series_window as x where x.series_id = sid for update;
  if not found then
    -- Every occurrence starting from three days before now is filled in: the window holds
    -- the instants from now on.
    fill_from := now_ms - 3 * 86400000;
    w.series_id := sid;
    w.covered_from := now_ms;
    w.covered_until := now_ms;
  else
    fill_from := w.covered_until;
  end if;
  bound := least(
    s.stopped_at,
    case when s.last_date is not null
      then public.namecard_local_instant(s.last_date + 2 + time '00:00', s.time_zone)
    end
  );
  if bound is not null and bound <= until_ms then
    if fill_from < bound then
      perform private.namecard_series_fill(sid, fill_from, bound);
    end if;
    w.covered_until := 9223372036854775807;
  elsif fill_from < until_ms then
    perform private.namecard_series_fill(sid, fill_from, until_ms);
    w.covered_until := greatest(w.covered_until, until_ms);
  end if;
  insert into private.namecard_series_window as x (series_id, covered_from, covered_until)
  values (w.series_id, w.covered_from, w.covered_until)
  on conflict (series_id) do update set covered_until = excluded.covered_until;
end;
$$;

-- Every series whose window ends within half the horizon is extended to the full horizon.
create function private.namecard_series_extend()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  sid bigint;
begin
  for sid in
    select w.series_id from private.namecard_series_window as w
    where w.covered_until < now_ms + private.namecard_series_horizon_ms() / 2
    union
    -- A series with no window was stored while the triggers were off (a data-only restore of
    -- public without private): the next owner write materialises it.
    select x.id from public.namecard_series as x
    where not exists (
      select from private.namecard_series_window as v where v.series_id = x.id
    )
    order by 1
  loop
    perform private.namecard_series_materialise(
      sid, now_ms + private.namecard_series_horizon_ms(), false);
  end loop;
end;
$$;

-- Triggers: a new series is materialised; a changed one rebuilt; any owner write extends.
create function private.namecard_series_materialise_row()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.namecard_series_materialise(
    new.id,
    (extract(epoch from now()) * 1000)::bigint + private.namecard_series_horizon_ms(),
    tg_op = 'UPDATE');
  return null;
end;
$$;

create function private.namecard_series_extend_statement()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.namecard_series_extend();
  return null;
end;
$$;

revoke all on function private.namecard_series_fill(bigint, bigint, bigint) from public;
revoke all on function private.namecard_series_horizon_ms() from public;
revoke all on function private.namecard_series_materialise(bigint, bigint, boolean) from public;
revoke all on function private.namecard_series_extend() from public;
revoke all on function private.namecard_series_materialise_row() from public;
revoke all on function private.namecard_series_extend_statement() from public;

create trigger namecard_series_materialise
  after insert or update on public.namecard_series
  for each row execute function private.namecard_series_materialise_row();

create trigger namecard_series_extend
  after insert or update on public.namecard_series
  for each statement execute function private.namecard_series_extend_statement();
create trigger namecard_series_extend
  after insert or update on public.namecard
  for each statement execute function private.namecard_series_extend_statement();
create trigger namecard_series_extend
  after insert or update on public.namecard_series_stop
  for each statement execute function private.namecard_series_extend_statement();

-- The series stored before this migration.
select private.namecard_series_materialise(
  s.id, (extract(epoch from now()) * 1000)::bigint + private.namecard_series_horizon_ms(), true)
from public.namecard_series as s
order by s.id;

-- The occurrence in the table in force at at_ms that wins (highest id), among the series whose
-- window holds at_ms, or no row: series id and type, start, end as the rule sees it (the planned
-- end, or earlier when the occurrence was ended or the series cancelled). The index stab's few
-- rows are taken newest first and probed by primary key until one is in force, so that many
-- series in force at once cost a sort of their ids, not a probe each. One select with no SET,
-- so that it is inlined where it is called (and EXPLAIN of a call shows the index it stabs).
create function private.namecard_series_materialised_at(at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select o.series_id, s.type, o.stamp_start,
    least(o.planned_end, s.stopped_at, (
      select x.stopped_at from public.namecard_series_stop as x
      where x.series_id = o.series_id and x.occurrence_start = o.stamp_start
    ))
  from (
    -- Fenced and sorted, so that the stab's rows, newest series first, drive primary-key
    -- probes of their series, stops and windows until one is in force (not a walk of the
    -- series, nor a hash of them all).
    select o.series_id, o.stamp_start, o.planned_end
    from private.namecard_occurrence as o
    where int8range(o.stamp_start, o.planned_end) @> at_ms
    order by o.series_id desc, o.stamp_start desc
    offset 0
  ) as o
  cross join lateral (
    select s.type, s.stopped_at from public.namecard_series as s where s.id = o.series_id
  ) as s
  where (s.stopped_at is null or s.stopped_at > at_ms)
    and not exists (
      select from public.namecard_series_stop as x
      where x.series_id = o.series_id and x.occurrence_start = o.stamp_start
        and x.stopped_at <= at_ms
    )
    and exists (
      select from private.namecard_series_window as w
      where w.series_id = o.series_id
        and w.covered_from <= at_ms
        and w.covered_until > at_ms
    )
  order by o.series_id desc, o.stamp_start desc
  limit 1
$$;

-- The fallback: the occurrences in force at at_ms of the series whose window does not hold
-- at_ms, expanded by namecard_occurrences' rule.
create function private.namecard_series_expanded_at(at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
rows 1
as $$
begin
  return query
  select o.id, o.type, o.start_ms, o.cut_end
  from (
    select s.id, s.type, t.start_ms,
      least(t.end_ms, s.stopped_at, (
        select x.stopped_at from public.namecard_series_stop as x
        where x.series_id = s.id and x.occurrence_start = t.start_ms
      )) as cut_end
    from public.namecard_series as s
    cross join lateral (
      select g.day::date as day
      from generate_series(
        greatest((to_timestamp(at_ms / 1000.0) at time zone s.time_zone)::date - 2, s.first_date),
        least((to_timestamp((at_ms + 1) / 1000.0) at time zone s.time_zone)::date + 1, s.last_date),
        interval '1 day'
      ) as g (day)
      where extract(isodow from g.day)::smallint = any (s.weekdays)
    ) as d
    cross join lateral (
      select public.namecard_local_instant(d.day + s.start_time, s.time_zone) as start_ms,
        public.namecard_local_instant(
          d.day + (s.end_time <= s.start_time)::integer + s.end_time, s.time_zone
        ) as end_ms
    ) as t
    where s.id in (
        select w.series_id from private.namecard_series_window as w where w.covered_until <= at_ms
        union
        select w.series_id from private.namecard_series_window as w where w.covered_from > at_ms
        -- A series without a window (stored while triggers were disabled, as a data-only
        -- restore of public without private may do) is expanded too, when the fallback runs.
        -- The one-time filter below does not look for such series (that would cost an
        -- anti-join over every series per lookup), so until the next owner write, which
        -- materialises them (namecard_series_extend), the lookup may miss them: restore
        -- private's tables with public's, as a whole-database dump does.
        union
        select x.id from public.namecard_series as x
        where not exists (
          select from private.namecard_series_window as v where v.series_id = x.id
        )
      )
      and (s.stopped_at is null or s.stopped_at > at_ms)
  ) as o
  where o.start_ms <= at_ms
    and o.cut_end > o.start_ms
    and o.cut_end > at_ms;
end;
$$;

revoke all on function private.namecard_series_materialised_at(bigint) from public;
revoke all on function private.namecard_series_expanded_at(bigint) from public;

-- The series occurrence in force at at_ms that wins (highest id), or no row: from the table
-- where it is complete, by expansion elsewhere. Security definer, so that anon needs no
-- privilege on the private tables; it answers only what namecard_occurrences would.
create function public.namecard_series_in_force(at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
-- Its plan is the same for every instant (an index stab and two index probes): planned once per
-- session, not per call as the custom plans PostgREST's roles ask for would be.
set plan_cache_mode = force_generic_plan
rows 1
as $$
begin
  return query
  select c.id, c.type, c.stamp_start, c.stamp_end
  from (
    (
      select m.id, m.type, m.stamp_start, m.stamp_end
      from private.namecard_series_materialised_at(at_ms) as m
      offset 0
    )
    union all
    (
      select e.id, e.type, e.stamp_start, e.stamp_end
      from private.namecard_series_expanded_at(at_ms) as e
      -- A one-time filter: when every window holds at_ms, the expansion is not called.
      where exists (
        select from private.namecard_series_window as w where w.covered_until <= at_ms
      ) or exists (
        select from private.namecard_series_window as w where w.covered_from > at_ms
      )
      offset 0
    )
  ) as c
  order by c.id desc, c.stamp_start desc
  limit 1;
end;
$$;

comment on function public.namecard_series_in_force(bigint) is
  'The series occurrence in force at epoch ms at_ms with the highest id (id, type, start, end as stopped), or no row.';

revoke all on function public.namecard_series_in_force(bigint) from public;
grant execute on function public.namecard_series_in_force(bigint)
  to anon, authenticated, service_role;

-- The lookup /go reads: namecard_active_at's rule, with the series' occurrence from the
-- materialised table. One SQL select with no SET, inlined into the view, so that the entries'
-- branches keep their index plans.
create function public.namecard_lookup_at(at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select active.id, active.type, active.stamp_start, active.stamp_end
  from (
    (
      select n.id, n.type, n.stamp_start, n.stamp_end
      from public.namecard as n
      where n.stamp_start is null
        and n.stamp_end > at_ms
      offset 0
    )
    union all
    (
      select n.id, n.type, n.stamp_start, n.stamp_end
      from public.namecard as n
      where n.stamp_start is not null
        and int8range(n.stamp_start, n.stamp_end) @> at_ms
      offset 0
    )
    union all
    (
      select o.id, o.type, o.stamp_start, o.stamp_end
      from public.namecard_series_in_force(at_ms) as o
      -- A one-time filter: with no series the function is not even called.
      where exists (select from public.namecard_series)
      offset 0
    )
  ) as active
  order by active.id desc
  limit 1
$$;

comment on function public.namecard_lookup_at(bigint) is
  'The entry or series occurrence in force at epoch ms at_ms (highest id), as namecard_active_at answers it; series from their materialised occurrences.';

revoke all on function public.namecard_lookup_at(bigint) from public;
grant execute on function public.namecard_lookup_at(bigint) to anon, authenticated, service_role;

create or replace function public.namecard_active_url()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select p.url
  from public.namecard_lookup_at((extract(epoch from now()) * 1000)::bigint) as a
  join public.namecard_profile as p on p.name = a.type
$$;

create or replace view public.namecard_active
with (security_invoker = true) as
  select a.id, a.type, a.stamp_start, a.stamp_end, public.namecard_active_url() as url
  from public.namecard_lookup_at((extract(epoch from now()) * 1000)::bigint) as a;

-- The first start after after_ms (epoch ms) of an occurrence of one series, or null (none
-- ahead: cancelled, or past its last date). Searched from the local day before after_ms, or
-- from its first date when that is later, for 8 days: every weekday comes round in that span.
-- Security invoker over what anon may read (the series and its stops).
create function public.namecard_series_next(series_id bigint, after_ms bigint)
returns bigint
language sql
stable
as $$
  select min(t.start_ms)
  from public.namecard_series as s
  cross join lateral (
    select greatest(
      (to_timestamp(after_ms / 1000.0) at time zone s.time_zone)::date - 1, s.first_date
    ) as first_day
  ) as f
  cross join lateral (
    select g.day::date as day
    from generate_series(f.first_day, least(f.first_day + 8, s.last_date), interval '1 day')
      as g (day)
    where extract(isodow from g.day)::smallint = any (s.weekdays)
  ) as d
  cross join lateral (
    select public.namecard_local_instant(d.day + s.start_time, s.time_zone) as start_ms,
      public.namecard_local_instant(
        d.day + (s.end_time <= s.start_time)::integer + s.end_time, s.time_zone
      ) as end_ms
  ) as t
  where s.id = namecard_series_next.series_id
    and t.start_ms > after_ms
    and (s.stopped_at is null or s.stopped_at > t.start_ms)
    and t.end_ms > t.start_ms
$$;

comment on function public.namecard_series_next(bigint, bigint) is
  'Epoch ms: the first start after after_ms of an occurrence of the series, or null when none is ahead.';

revoke all on function public.namecard_series_next(bigint, bigint) from public;
grant execute on function public.namecard_series_next(bigint, bigint)
  to anon, authenticated, service_role;

-- The status row gains `series_ahead`: the series with an occurrence ahead, one object each (id,
-- type, weekdays, local start and end, zone, first and last date, `next`: the next start in
-- epoch ms), oldest first, so that `namecard status` shows each as one line in its one GET.
-- Anon reads these columns of the series anyway; the other columns are as before. (Not
-- `series`: namecard_set_series answers the stored series under that key beside the status.)
create or replace view public.namecard_status
with (security_invoker = true) as
  select
    clock.now_ms as now,
    (
      select jsonb_build_object(
        'id', a.id, 'type', a.type, 'stamp_start', a.stamp_start, 'stamp_end', a.stamp_end
      )
      from public.namecard_active_at(clock.now_ms) as a
    ) as active,
    segments.timeline,
    public.namecard_profile_labels(
      array(select distinct s ->> 'type' from jsonb_array_elements(segments.timeline) as s)
    ) as labels,
    public.namecard_active_url() as url,
    (
      select coalesce(jsonb_agg(jsonb_build_object(
        'id', x.id, 'type', x.type, 'weekdays', x.weekdays,
        'start_time', x.start_time, 'end_time', x.end_time, 'time_zone', x.time_zone,
        'first_date', x.first_date, 'last_date', x.last_date, 'next', x.next
      ) order by x.id), '[]'::jsonb)
      from (
        select s.id, s.type, s.weekdays, s.start_time, s.end_time, s.time_zone,
          s.first_date, s.last_date, public.namecard_series_next(s.id, clock.now_ms) as next
        from public.namecard_series as s
        where s.stopped_at is null
      ) as x
      where x.next is not null
    ) as series_ahead
  from (select (extract(epoch from now()) * 1000)::bigint as now_ms) as clock
  cross join lateral (
    select jsonb_agg(
      jsonb_build_object('type', t.type, 'from', t."from", 'to', t."to") order by t."from"
    ) as timeline
    from public.namecard_timeline_at(clock.now_ms, 24) as t
  ) as segments;

comment on view public.namecard_status is
  'One row: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles the timeline names, the destination in force (null: the build''s), and the series with an occurrence ahead (with its next start).';

create or replace function public.namecard_schema_version()
returns text
language sql
immutable
set search_path = ''
as $$
  select '20261125000300'::text
$$;
