-- Series: weekly recurring entries ("photo every Saturday 10:00-18:00 in Europe/Berlin").
--
-- A series names a profile, weekdays (ISO numbers, 1 = Monday ... 7 = Sunday), a local start
-- and end time (an end at or before the start runs past midnight: 22:00-02:00 ends at 02:00
-- the next day), the IANA time zone it was set in, and an optional first and last date (local
-- dates of the occurrences' starts, both inclusive). Each occurrence is an entry for the one
-- rule (DESIGN.md): at instant t an occurrence is active when start <= t < end; among everything
-- active the highest id wins; none means main.
--
-- Ordering against one-off entries: a series takes its id from the entries' own sequence
-- (public.namecard_id_seq), so ids are unique across both tables and "newest wins" is creation
-- order across both: a series set after an entry wins over it during its occurrences, an entry
-- set after the series wins over the series. `namecard cancel <id>` therefore needs no kind
-- prefix: an id names either an entry or a series, never both.
--
-- Local times: a wall-clock time that does not exist (the spring-forward gap) is read with the
-- offset in force before the change, so 02:30 on the change day is 03:30 summer time; a
-- wall-clock time that happens twice (the autumn fold) is the EARLIER of the two instants, as
-- for one-off entries (shared/calendar/time.ts: the card is never set longer than asked). This
-- is RFC 5545's rule for DTSTART/RRULE local times and Temporal's 'compatible'
-- disambiguation, so the TypeScript rule, the database and calendars agree. The conversion uses
-- PostgreSQL's own time-zone database (`at time zone`).
--
-- `end` (namecard_end_now) stops the occurrence in force now and keeps the series: the stop is
-- a row of public.namecard_series_stop. `cancel` of a series stops it for good: stopped_at
-- marks it, an occurrence in force ends then, later ones never start, past ones stay as they
-- were (history).
--
-- Cost: the lookup expands each series around one instant (two or three local days, a few
-- time-zone conversions a series). An owner keeps a handful of series, so that is flat; the
-- one-off entries keep their indexes and plans, and with no series the expansion is not
-- called at all (tests/emulator/index-plan.test.ts reads the lookup's pages at 10^6 entries).

create table public.namecard_series (
  id bigint primary key default nextval('public.namecard_id_seq'::regclass),
  type text not null constraint namecard_series_type_profile
    references public.namecard_profile (name),
  weekdays smallint[] not null constraint namecard_series_weekdays_form check (
    cardinality(weekdays) between 1 and 7
    and weekdays <@ '{1,2,3,4,5,6,7}'::smallint[]
    and array_position(weekdays, null) is null
  ),
  start_time time not null constraint namecard_series_start_minute
    check (start_time = date_trunc('minute', start_time::interval)::time),
  end_time time not null constraint namecard_series_end_minute
    check (end_time = date_trunc('minute', end_time::interval)::time),
  time_zone text not null constraint namecard_series_time_zone_form
    check (char_length(time_zone) between 1 and 64),
  first_date date null,
  last_date date null,
  stopped_at bigint null,
  stop_kind text null constraint namecard_series_stop_kind_known check (stop_kind = 'cancelled'),
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  constraint namecard_series_dates_order
    check (first_date is null or last_date is null or first_date <= last_date),
  constraint namecard_series_stop_complete
    check ((stopped_at is null) = (stop_kind is null))
);

comment on table public.namecard_series is
  'Weekly recurring entries: type on weekdays (1 = Monday) from start_time to end_time local, in time_zone.';
comment on column public.namecard_series.id is
  'From public.namecard_id_seq, shared with the entries: newest wins across both, and an id names one of them.';
comment on column public.namecard_series.stopped_at is
  'Epoch ms (server clock) when the owner cancelled the series; occurrences end there. Null: never.';

-- An occurrence stopped by "end now": the series stays, that one occurrence ends at stopped_at.
create table public.namecard_series_stop (
  series_id bigint not null references public.namecard_series (id),
  occurrence_start bigint not null,
  stopped_at bigint not null,
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  primary key (series_id, occurrence_start),
  constraint namecard_series_stop_after_start check (stopped_at >= occurrence_start)
);

comment on table public.namecard_series_stop is
  'Occurrences of a series stopped by "end now": the occurrence starting at occurrence_start (epoch ms) ended at stopped_at.';

-- A series may name only a profile that exists and is not removed (the entries' own check),
-- and only a time zone of PostgreSQL's database, by its IANA name (not an abbreviation such as
-- CEST or a POSIX rule, which `at time zone` would also take).
create function private.namecard_series_check()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_timezone_names as z where z.name = new.time_zone)
    or new.time_zone !~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$'
  then
    raise exception using
      errcode = '22023',
      message = format('time_zone must be an IANA time zone such as Europe/Berlin, not %s',
        new.time_zone);
  end if;
  return new;
end;
$$;

revoke all on function private.namecard_series_check() from public;

create trigger namecard_series_zone
  before insert on public.namecard_series
  for each row execute function private.namecard_series_check();

create trigger namecard_series_profile
  before insert on public.namecard_series
  for each row execute function private.namecard_entry_profile_check();

-- Reads like the entries: anyone reads what the rule needs (the lookup runs as anon), owners
-- read everything; only owners insert, through namecard_set_series; nobody updates or deletes
-- through the API (cancel and end are functions that check the owner).
alter table public.namecard_series enable row level security;
alter table public.namecard_series_stop enable row level security;

revoke all on table public.namecard_series from anon, authenticated, public;
revoke all on table public.namecard_series_stop from anon, authenticated, public;
grant select (
  id, type, weekdays, start_time, end_time, time_zone, first_date, last_date, stopped_at
) on table public.namecard_series to anon;
grant select on table public.namecard_series to authenticated;
grant insert (type, weekdays, start_time, end_time, time_zone, first_date, last_date)
  on table public.namecard_series to authenticated;
grant select (series_id, occurrence_start, stopped_at) on table public.namecard_series_stop to anon;
grant select on table public.namecard_series_stop to authenticated;
grant select, insert, update on table public.namecard_series, public.namecard_series_stop
  to service_role;
-- The id default takes the next value of the entries' sequence as the inserting role.
grant usage on sequence public.namecard_id_seq to authenticated, service_role;

create policy namecard_series_read on public.namecard_series
  for select to anon, authenticated using (true);
create policy namecard_series_owner_insert on public.namecard_series
  for insert to authenticated with check ((select private.is_namecard_owner()));
create policy namecard_series_stop_read on public.namecard_series_stop
  for select to anon, authenticated using (true);

-- The stops are looked up by (series, occurrence start): the primary key.
-- Live series are found without reading cancelled ones' dates: few rows either way.
create index namecard_series_live_idx on public.namecard_series (id) where stopped_at is null;

-- The instant (epoch ms) a wall-clock date and time names in an IANA zone: a time in the
-- spring-forward gap is read with the offset before the change (PostgreSQL's `at time zone`
-- does so), a time in the autumn fold is the earlier instant (PostgreSQL would take the later:
-- the earlier one is the wall time less the offset in force a day before, when that reads back
-- as the same wall time). Stable, as timestamptz arithmetic is (PostgreSQL inlines a function
-- only when its body is no more volatile than it says); 24 hours, not 1 day, so that the
-- session's TimeZone plays no part. One expression with no FROM and no SET, so that PostgreSQL inlines it where it is called (every
-- name in it is a built-in operator, found whatever the caller's search_path).
create function public.namecard_local_instant(local_time timestamp, time_zone text)
returns bigint
language sql
stable
parallel safe
as $$
  select (extract(epoch from case
    when ((local_time - (
          ((local_time at time zone time_zone) - interval '24 hours') at time zone time_zone
          - ((local_time at time zone time_zone) - interval '24 hours') at time zone 'UTC'
        )) at time zone 'UTC') < (local_time at time zone time_zone)
      and (((local_time - (
          ((local_time at time zone time_zone) - interval '24 hours') at time zone time_zone
          - ((local_time at time zone time_zone) - interval '24 hours') at time zone 'UTC'
        )) at time zone 'UTC') at time zone time_zone) = local_time
    then (local_time - (
          ((local_time at time zone time_zone) - interval '24 hours') at time zone time_zone
          - ((local_time at time zone time_zone) - interval '24 hours') at time zone 'UTC'
        )) at time zone 'UTC'
    else local_time at time zone time_zone
  end) * 1000)::bigint
$$;

comment on function public.namecard_local_instant(timestamp, text) is
  'Epoch ms of a wall-clock time in an IANA zone: a gap time with the offset before the change, a fold time the earlier instant.';

-- Every occurrence that is in force some time in [from_ms, to_ms): series id and type, its
-- start, its end as the rule sees it (the planned end, or earlier when it was ended or the
-- series cancelled), and the planned end. Empty occurrences (cancelled before they began) are
-- left out. Each series is expanded over the local days around the window only. PL/pgSQL with
-- a row estimate: its plan is kept per session, and the lookup that calls it is priced as the
-- few rows it is.
create function public.namecard_occurrences(from_ms bigint, to_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint, planned_end bigint)
language plpgsql
stable
set search_path = ''
-- The planner cannot know the expansion is a few rows a series and prices it past
-- jit_above_cost: compiling took ~1 s for a query that runs in well under a millisecond.
set jit = off
rows 2
as $$
begin
  return query
  select o.id, o.type, o.start_ms, o.cut_end, o.end_ms
  from (
    select s.id, s.type, t.start_ms, t.end_ms,
      least(t.end_ms, s.stopped_at, (
        select x.stopped_at from public.namecard_series_stop as x
        where x.series_id = s.id and x.occurrence_start = t.start_ms
      )) as cut_end
    from public.namecard_series as s
    cross join lateral (
      select g.day::date as day
      from generate_series(
        greatest((to_timestamp(from_ms / 1000.0) at time zone s.time_zone)::date - 2, s.first_date),
        least((to_timestamp(to_ms / 1000.0) at time zone s.time_zone)::date + 1, s.last_date),
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
    where s.stopped_at is null or s.stopped_at > from_ms
  ) as o
  where o.start_ms < to_ms
    and o.cut_end > o.start_ms
    and o.cut_end > from_ms;
end;
$$;

comment on function public.namecard_occurrences(bigint, bigint) is
  'Occurrences of the series in force some time in [from_ms, to_ms): id, type, start, end (as stopped), planned end.';

-- The first start after after_ms of a non-empty occurrence of a series newer than newer_than
-- that starts before before_ms (null: any time): the moment such a series could take over.
-- Each series is searched from the local day before after_ms (or its first date) for 8 days:
-- every weekday comes round in that span. (An occurrence "ended" at its very start is empty; the
-- one a week later is then beyond the window and found by the walk's next step only when
-- something else moves it there: end now stops only what has started, so this needs an end
-- within the very millisecond an occurrence starts.) PL/pgSQL, so that its plan is kept
-- between the walk's steps.
create function public.namecard_series_next_start(
  after_ms bigint, newer_than bigint, before_ms bigint
)
returns bigint
language plpgsql
stable
set search_path = ''
set jit = off
as $$
begin
  return (
  select min(t.start_ms)
  from public.namecard_series as s
  cross join lateral (
    select g.day::date as day
    from generate_series(
      greatest((to_timestamp(after_ms / 1000.0) at time zone s.time_zone)::date - 1, s.first_date),
      least(
        greatest((to_timestamp(after_ms / 1000.0) at time zone s.time_zone)::date - 1, s.first_date) + 8,
        s.last_date
      ),
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
  where s.id > newer_than
    and (s.stopped_at is null or s.stopped_at > after_ms)
    and t.start_ms > after_ms
    and (before_ms is null or t.start_ms < before_ms)
    and least(t.end_ms, s.stopped_at, (
      select x.stopped_at from public.namecard_series_stop as x
      where x.series_id = s.id and x.occurrence_start = t.start_ms
    )) > t.start_ms
  );
end;
$$;

comment on function public.namecard_series_next_start(bigint, bigint, bigint) is
  'Epoch ms: the first start after after_ms, before before_ms, of an occurrence of a series with id > newer_than.';

-- The rule at an instant, now with the series: a third branch answers the occurrence in force,
-- with its start and its end (as stopped). Same signature and columns, still one SQL select
-- (inlined into the view /go reads); the entries' two branches are unchanged.
create or replace function public.namecard_active_at(at_ms bigint)
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
      from public.namecard_occurrences(at_ms, at_ms + 1) as o
      -- A one-time filter: with no series the expansion is not even called.
      where exists (select from public.namecard_series)
      offset 0
    )
  ) as active
  order by active.id desc
  limit 1
$$;

-- The timeline walk, as before (20261124000200_write_path.sql), with the series: the next
-- moment is also the first start of a newer series' occurrence (before the winner's end).
-- With a series that never ends the timeline never ends: the walk stops at max_segments and
-- the last segment answered has a non-null "to", as for any walk stopped early. until_ms
-- (null: none) stops the walk at the first segment that reaches it: end now compares the
-- timeline only as far as what it stops could have mattered.
create function public.namecard_timeline_until(at_ms bigint, until_ms bigint, max_segments integer)
returns table (type text, "from" bigint, "to" bigint)
language plpgsql
stable
set search_path = ''
set jit = off
as $$
begin
  if max_segments is null or max_segments < 1 or max_segments > 1000 then
    raise exception using
      errcode = '22023',
      message = format('max_segments must be a whole number from 1 to 1000, not %s',
        coalesce(max_segments::text, 'null')),
      hint = 'Ask for fewer segments: 24 is what namecard_status answers.';
  end if;
  if until_ms is not null and until_ms <= at_ms then
    raise exception using
      errcode = '22023',
      message = 'until_ms must be after at_ms';
  end if;
  return query
    with recursive walk (step, seg, cur, run_type, nxt) as (
      select 1, 1, at_ms, first.run_type, first.nxt
      from (
        select coalesce(a.type, 'main') as run_type,
          case when a.id is null then least((
            select n.stamp_start from public.namecard as n
            where n.stamp_start > at_ms and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), public.namecard_series_next_start(at_ms, -1, null))
          else least(coalesce((
            select n.stamp_start from public.namecard as n
            where n.id > a.id and n.stamp_start > at_ms and n.stamp_start < a.stamp_end
              and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), a.stamp_end), public.namecard_series_next_start(at_ms, a.id, a.stamp_end)) end as nxt
        from (select 1) as one
        left join lateral public.namecard_active_at(at_ms) as a on true
      ) as first
      union all
      select w.step + 1,
        w.seg + (s.run_type is distinct from w.run_type)::integer,
        w.nxt, s.run_type, s.nxt
      from walk as w
      cross join lateral (
        select coalesce(a.type, 'main') as run_type,
          case when a.id is null then least((
            select n.stamp_start from public.namecard as n
            where n.stamp_start > w.nxt and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), public.namecard_series_next_start(w.nxt, -1, null))
          else least(coalesce((
            select n.stamp_start from public.namecard as n
            where n.id > a.id and n.stamp_start > w.nxt and n.stamp_start < a.stamp_end
              and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), a.stamp_end), public.namecard_series_next_start(w.nxt, a.id, a.stamp_end)) end as nxt
        from (select 1) as one
        left join lateral public.namecard_active_at(w.nxt) as a on true
      ) as s
      where w.nxt is not null
        and (until_ms is null or w.nxt < until_ms)
        and w.step < max_segments * 8
        and w.seg <= max_segments
    )
    select min(w.run_type), min(w.cur), (array_agg(w.nxt order by w.step desc))[1]
    from walk as w
    where w.seg <= max_segments
    group by w.seg
    order by w.seg;
end;
$$;

comment on function public.namecard_timeline_until(bigint, bigint, integer) is
  'The timeline from epoch ms at_ms, walked until the first segment reaching until_ms (null: no bound).';

create or replace function public.namecard_timeline_at(at_ms bigint, max_segments integer default 24)
returns table (type text, "from" bigint, "to" bigint)
language sql
stable
as $$
  select t.type, t."from", t."to" from public.namecard_timeline_until(at_ms, null, max_segments) as t
$$;

revoke all on function public.namecard_local_instant(timestamp, text) from public;
revoke all on function public.namecard_occurrences(bigint, bigint) from public;
revoke all on function public.namecard_series_next_start(bigint, bigint, bigint) from public;
grant execute on function public.namecard_local_instant(timestamp, text)
  to anon, authenticated, service_role;
grant execute on function public.namecard_occurrences(bigint, bigint)
  to anon, authenticated, service_role;
grant execute on function public.namecard_series_next_start(bigint, bigint, bigint)
  to anon, authenticated, service_role;
revoke all on function public.namecard_timeline_until(bigint, bigint, integer) from public;
grant execute on function public.namecard_timeline_until(bigint, bigint, integer)
  to anon, authenticated, service_role;

-- What the rule answers at given instants, in one request (`namecard preview`): for each
-- instant (epoch ms), the entry or series occurrence in force then (null columns: main), and
-- whether it is a series'. At most 1000 instants (22023 beyond: anyone may call it).
create function public.namecard_preview(at_ms bigint[])
returns table (
  at bigint, id bigint, type text, stamp_start bigint, stamp_end bigint, series boolean
)
language plpgsql
stable
set search_path = ''
set jit = off
as $$
begin
  if coalesce(cardinality(at_ms), 0) > 1000 then
    raise exception using
      errcode = '22023',
      message = format('at_ms must hold at most 1000 instants, not %s', cardinality(at_ms));
  end if;
  return query
    select i.t, a.id, a.type, a.stamp_start, a.stamp_end,
      case when a.id is null then null
        else exists (select from public.namecard_series as s where s.id = a.id) end
    from unnest(at_ms) with ordinality as i (t, n)
    left join lateral public.namecard_active_at(i.t) as a on true
    order by i.n;
end;
$$;

comment on function public.namecard_preview(bigint[]) is
  'For each epoch ms in at_ms (at most 1000): the entry or series occurrence in force then, or nulls (main).';

revoke all on function public.namecard_preview(bigint[]) from public;
grant execute on function public.namecard_preview(bigint[]) to anon, authenticated, service_role;

-- Set a series: one request, as the caller (security invoker: the table's row-level security,
-- column grants, checks and triggers decide as for a direct insert). Answers the stored series
-- under `series`, and `now`, `active`, `timeline` as namecard_status answers them afterwards.
create function public.namecard_set_series(
  type text,
  weekdays smallint[],
  start_time time,
  end_time time,
  time_zone text,
  first_date date default null,
  last_date date default null
)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  stored jsonb;
begin
  if not (select private.namecard_session_live()) then
    raise exception using
      errcode = 'PT401',
      message = 'The session has ended',
      hint = 'Sign in again.';
  end if;
  insert into public.namecard_series as s
    (type, weekdays, start_time, end_time, time_zone, first_date, last_date)
  values (
    namecard_set_series.type,
    coalesce((
      select array_agg(distinct u.w order by u.w) from unnest(namecard_set_series.weekdays) as u (w)
    ), '{}'),
    namecard_set_series.start_time,
    namecard_set_series.end_time,
    namecard_set_series.time_zone,
    namecard_set_series.first_date,
    namecard_set_series.last_date
  )
  returning to_jsonb(s) into stored;
  return jsonb_build_object('series', stored)
    || (select to_jsonb(st) from public.namecard_status as st);
end;
$$;

comment on function public.namecard_set_series(text, smallint[], time, time, text, date, date) is
  'Owners: stores a weekly series (as the caller, RLS applies); answers it and what visitors get now.';

revoke all on function public.namecard_set_series(text, smallint[], time, time, text, date, date)
  from public, anon;
grant execute on function public.namecard_set_series(text, smallint[], time, time, text, date, date)
  to authenticated, service_role;

-- Cancel, as before for an entry; for a series id, the series stops for good: an occurrence in
-- force ends now, later ones never start, past ones stay. Refused when already cancelled or
-- past its last date (PT409). The answer's `cancelled` is the series row with `"series": true`.
--
-- End now, as before, also stops the series occurrence in force (the series stays): a stop row
-- per occurrence. Its answer lists it among `ended` like an entry, with its series id as `id`,
-- the occurrence start as stamp_start, and `"series": true`.
create or replace function public.namecard_end_now()
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  seen bigint[];
  horizon bigint;
  raced jsonb;
  before_end text;
  after_end text;
  stopped jsonb := '[]';
begin
  if not (select private.namecard_session_live()) then
    raise exception using
      errcode = 'PT401',
      message = 'The session has ended',
      hint = 'Sign in again.';
  end if;
  if not (select private.is_namecard_owner()) then
    raise exception using
      errcode = '42501',
      message = 'permission denied for function namecard_end_now',
      hint = 'Only the card''s owners may end what visitors get.';
  end if;

  -- The entries in force and not stopped, as this call first sees them.
  select coalesce(array_agg(n.id), '{}') into seen
  from public.namecard as n
  where (n.stamp_start is null or n.stamp_start <= now_ms)
    and n.stamp_end > now_ms
    and n.stop_kind is null;

  -- Lock them in id order, so that two calls never wait on each other in a cycle. A call that
  -- waits here sees, from its next statement on (read committed), what the other one stored.
  perform 1 from public.namecard as n where n.id = any(seen) order by n.id for update;

  select coalesce(jsonb_agg(jsonb_build_object(
    'id', n.id, 'type', n.type, 'stamp_start', n.stamp_start, 'stamp_end', n.stamp_end,
    'stopped_at', n.stopped_at, 'stop_kind', n.stop_kind, 'planned_end', n.planned_end
  ) order by n.id desc), '[]') into raced
  from public.namecard as n
  where n.id = any(seen) and n.stop_kind is not null;

  -- What is stopped could matter only until the latest end of what is in force now: the
  -- timelines before and after are compared that far.
  select coalesce(greatest(
    (select max(n.stamp_end) from public.namecard as n
      where (n.stamp_start is null or n.stamp_start <= now_ms) and n.stamp_end > now_ms),
    (select max(o.stamp_end) from public.namecard_occurrences(now_ms, now_ms + 1) as o)
  ), now_ms + 1) into horizon;

  select string_agg(concat_ws(',', t.type, t."from", least(t."to", horizon)), ';' order by t."from")
  into before_end
  from public.namecard_timeline_until(now_ms, horizon, 1000) as t;

  -- A block of its own is a savepoint: when stopping the entries changes nothing visitors
  -- would notice, raising inside it rolls the update back and nothing is stored.
  begin
    with s as (
      update public.namecard as n
      set stamp_end = now_ms, stopped_at = now_ms, stop_kind = 'ended', planned_end = n.stamp_end
      where (n.stamp_start is null or n.stamp_start <= now_ms)
        and n.stamp_end > now_ms
        -- A stop already recorded is never overwritten: planned_end stays the original end.
        and n.stop_kind is null
      returning n.id, n.type, n.stamp_start, n.stamp_end, n.stopped_at, n.stop_kind, n.planned_end
    )
    select coalesce(jsonb_agg(to_jsonb(s) order by s.id desc), '[]') into stopped from s;

    -- The series occurrences in force: each gets a stop row (at most one per occurrence, so
    -- an end racing another stops it once).
    with o as (
      insert into public.namecard_series_stop as x (series_id, occurrence_start, stopped_at)
      select occ.id, occ.stamp_start, now_ms
      from public.namecard_occurrences(now_ms, now_ms + 1) as occ
      on conflict do nothing
      returning x.series_id, x.occurrence_start, x.stopped_at
    )
    select stopped || coalesce(jsonb_agg(jsonb_build_object(
      'id', o.series_id, 'type', s.type, 'stamp_start', o.occurrence_start,
      'stamp_end', o.stopped_at, 'stopped_at', o.stopped_at, 'stop_kind', 'ended',
      'planned_end', public.namecard_local_instant(
        (to_timestamp(o.occurrence_start / 1000.0) at time zone s.time_zone)::date
          + (s.end_time <= s.start_time)::integer + s.end_time,
        s.time_zone),
      'series', true
    ) order by o.series_id desc), '[]')
    into stopped
    from o join public.namecard_series as s on s.id = o.series_id;

    select string_agg(concat_ws(',', t.type, t."from", least(t."to", horizon)), ';' order by t."from")
    into after_end
    from public.namecard_timeline_until(now_ms, horizon, 1000) as t;
    if after_end is not distinct from before_end then
      raise exception using errcode = 'NCNOP';
    end if;
  exception when sqlstate 'NCNOP' then
    stopped := '[]';
  end;

  return jsonb_build_object('ended', stopped, 'already_stopped', raced)
    || (select to_jsonb(s) from public.namecard_status as s);
end;
$$;

comment on function public.namecard_end_now() is
  'Owners: visitors get the main site now; every entry in force stops, later ones stay.';

-- Cancel: one entry stops counting for good. A running entry ends now, a scheduled one never
-- starts (its end is brought to its start). Refused for an unknown entry (PT404) and for one
-- that has already ended, been ended early or cancelled (PT409, naming which, also when
-- another call stopped it while this one waited for its lock); PostgREST answers an error
-- raised with SQLSTATE 'PTxyz' with HTTP status xyz. Owners only. Answers the entry under
-- `cancelled`, and `now`, `active`, `timeline` as namecard_status answers them afterwards.
create or replace function public.namecard_cancel(entry_id bigint)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  entry public.namecard%rowtype;
  series public.namecard_series%rowtype;
  cancelled jsonb;
begin
  if not (select private.namecard_session_live()) then
    raise exception using
      errcode = 'PT401',
      message = 'The session has ended',
      hint = 'Sign in again.';
  end if;
  if not (select private.is_namecard_owner()) then
    raise exception using
      errcode = '42501',
      message = 'permission denied for function namecard_cancel',
      hint = 'Only the card''s owners may cancel an entry.';
  end if;
  -- Locked, and read as the last call that changed it left it (read committed).
  select * into entry from public.namecard as n where n.id = entry_id for update;
  if not found then
    -- Not an entry: a series (ids are shared, see the top of this file)?
    select * into series from public.namecard_series as s where s.id = entry_id for update;
    if not found then
      raise exception using
        errcode = 'PT404',
        message = format('There is no entry %s', entry_id),
        hint = 'Ids of entries and series: namecard list.';
    end if;
    if series.stop_kind = 'cancelled' then
      raise exception using
        errcode = 'PT409',
        message = format('Series %s was already cancelled', entry_id),
        detail = format('stopped_at=%s', series.stopped_at);
    end if;
    -- Ended: its last date is past, and so is the last occurrence's end (which may run past
    -- midnight into the next day).
    if series.last_date is not null
      and public.namecard_local_instant(
        series.last_date + 1 + series.end_time, series.time_zone) <= now_ms
    then
      raise exception using
        errcode = 'PT409',
        message = format('Series %s has already ended', entry_id);
    end if;
    update public.namecard_series as s
    set stopped_at = now_ms, stop_kind = 'cancelled'
    where s.id = entry_id
    returning to_jsonb(s) || jsonb_build_object('series', true) into cancelled;
    return jsonb_build_object('cancelled', cancelled)
      || (select to_jsonb(st) from public.namecard_status as st);
  end if;
  -- What a stop recorded before says, whatever the entry's (shortened) end is now.
  if entry.stop_kind = 'cancelled' then
    raise exception using
      errcode = 'PT409',
      message = format('Entry %s was already cancelled', entry_id),
      detail = format('stopped_at=%s planned_end=%s', entry.stopped_at, entry.planned_end);
  end if;
  if entry.stop_kind = 'ended' then
    raise exception using
      errcode = 'PT409',
      message = format('Entry %s was already ended early', entry_id),
      detail = format('stopped_at=%s planned_end=%s', entry.stopped_at, entry.planned_end);
  end if;
  if entry.stamp_end <= now_ms then
    raise exception using
      errcode = 'PT409',
      message = format('Entry %s has already ended', entry_id);
  end if;

  update public.namecard as n
  set stamp_end = greatest(coalesce(n.stamp_start, now_ms), now_ms),
      stopped_at = now_ms,
      stop_kind = 'cancelled',
      planned_end = n.stamp_end
  where n.id = entry_id and n.stop_kind is null
  returning jsonb_build_object(
    'id', n.id, 'type', n.type, 'stamp_start', n.stamp_start, 'stamp_end', n.stamp_end,
    'stopped_at', n.stopped_at, 'stop_kind', n.stop_kind, 'planned_end', n.planned_end
  ) into cancelled;

  return jsonb_build_object('cancelled', cancelled)
    || (select to_jsonb(s) from public.namecard_status as s);
end;
$$;

comment on function public.namecard_cancel(bigint) is
  'Owners: the entry never counts again (running: ends now; scheduled: never starts).';

-- Owners only: anon has no EXECUTE (PostgreSQL refuses the call with 42501, which PostgREST

-- Removing a profile is refused, as for an entry in force or scheduled, while a series that has
-- not been cancelled and has occurrences ahead names it (the answer names the series).
create or replace function private.namecard_profile_before_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  in_use text;
begin
  if old.name = 'main' then
    raise exception using
      errcode = '23503',
      message = 'the main profile cannot be removed: it is where visitors go when nothing else is set';
  end if;
  select string_agg(n.id::text, ', ' order by n.id) into in_use
  from public.namecard as n
  where n.type = old.name
    and n.stamp_end > now_ms
    and (n.stamp_start is null or n.stamp_start < n.stamp_end);
  if in_use is null then
    select string_agg('series ' || x.id::text, ', ' order by x.id) into in_use
    from public.namecard_series as x
    where x.type = old.name and x.stopped_at is null
      and (x.last_date is null
        or public.namecard_local_instant(x.last_date + 1 + x.end_time, x.time_zone) > now_ms);
  end if;
  if in_use is not null then
    raise exception using
      errcode = '23503',
      message = format('profile %s is in use by entries %s', old.name, in_use),
      detail = in_use,
      hint = 'End or cancel those entries first (namecard cancel <id>).';
  end if;
  update public.namecard_profile as p
  set removed_at = coalesce(p.removed_at, now()), updated_at = now()
  where p.name = old.name;
  return null;
end;
$$;


create or replace function public.namecard_schema_version()
returns text
language sql
immutable
set search_path = ''
as $$
  select '20261125000100'::text
$$;
