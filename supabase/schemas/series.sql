-- Series: weekly recurring entries ("photo every Saturday 10:00-18:00 in Europe/Berlin").
--
-- A series names a profile, ISO weekdays (1 = Monday ... 7 = Sunday), a local start and end
-- time (an end at or before the start runs past midnight), the IANA zone it was set in, and
-- optional first and last local dates of the occurrences' starts (both inclusive). Each
-- occurrence is an entry for the one rule: active from its start until just before its end;
-- among everything active the highest id wins; none means main.
--
-- A series takes its id from the entries' sequence, so ids are unique across both tables and
-- "newest wins" is creation order across both; an id names an entry or a series, never both.
--
-- Local times keep their wall-clock meaning across clock changes (RFC 5545's rule, Temporal's
-- 'compatible'): a time in the spring-forward gap is read with the offset before the change,
-- a time in the autumn fold is the earlier instant (namecard_local_instant).
--
-- `end` stops the occurrence in force (a row of namecard_series_stop) and keeps the series;
-- `cancel` marks the series (stopped_at): the occurrence in force ends then, later ones never
-- start, past ones stay as they were.

-- Epoch ms of a wall-clock time in an IANA zone: a time in the spring-forward gap is read with
-- the offset before the change, a time in the autumn fold is the earlier instant.
create or replace function private.namecard_local_instant(local_time timestamp without time zone, time_zone text)
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

comment on function private.namecard_local_instant(local_time timestamp without time zone, time_zone text) is
  'Epoch ms of a wall-clock time in an IANA zone: a gap time with the offset before the change, a fold time the earlier instant.';

revoke all on function private.namecard_local_instant(local_time timestamp without time zone, time_zone text) from public;

create table public.namecard_series (
  id bigint primary key default nextval('public.namecard_id_seq'::regclass),
  type text not null,
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
  -- The card it switches.
  card_id bigint not null references public.namecard_card (id),
  constraint namecard_series_type_profile foreign key (card_id, type)
    references public.namecard_profile (card_id, name),
  -- The stops of a series' occurrences are of its card (namecard_series_stop's key).
  constraint namecard_series_card_id_key unique (card_id, id),
  constraint namecard_series_dates_order
    check (first_date is null or last_date is null or first_date <= last_date),
  -- Dates from 1970 to 2199 and instants before 2200, as for the entries: a date past that
  -- would overflow the expansion's arithmetic.
  constraint namecard_series_dates_range check (
    (first_date is null or first_date between date '1970-01-01' and date '2199-12-31')
    and (last_date is null or last_date between date '1970-01-01' and date '2199-12-31')
    and (stopped_at is null or stopped_at between 0 and 7258118399999)
  ),
  constraint namecard_series_stop_complete
    check ((stopped_at is null) = (stop_kind is null))
);

comment on table public.namecard_series is
  'Weekly recurring entries: type on weekdays (1 = Monday) from start_time to end_time local, in time_zone.';
comment on column public.namecard_series.id is
  'From public.namecard_id_seq, shared with the entries: newest wins across both, and an id names one of them.';
comment on column public.namecard_series.stopped_at is
  'Epoch ms (server clock) when the owner cancelled the series; occurrences end there. Null: never.';

create index namecard_series_live_idx on public.namecard_series (card_id, id)
  where stopped_at is null;

-- The columns of a series its occurrences follow from, the ones anon may read: the weekly
-- expansion and the stop rule take a row of this view (a whole row of the table would need
-- every column, audit columns included).
create view private.namecard_series_rule
with (security_invoker = true) as
  select s.id, s.type, s.weekdays, s.start_time, s.end_time, s.time_zone, s.first_date,
    s.last_date, s.stopped_at
  from public.namecard_series as s;

comment on view private.namecard_series_rule is
  'Each series'' rule: profile, ISO weekdays, local start and end, zone, first and last date, cancel.';


create table public.namecard_series_stop (
  series_id bigint not null references public.namecard_series (id),
  occurrence_start bigint not null,
  stopped_at bigint not null,
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  -- Its series' card, so that row-level security reads it from the row.
  card_id bigint not null,
  constraint namecard_series_stop_series_card foreign key (card_id, series_id)
    references public.namecard_series (card_id, id),
  primary key (series_id, occurrence_start),
  constraint namecard_series_stop_after_start check (stopped_at >= occurrence_start),
  constraint namecard_series_stop_range check (
    occurrence_start >= 0 and stopped_at < 7258118400000
  )
);

comment on table public.namecard_series_stop is
  'Occurrences of a series stopped by "end now": the occurrence starting at occurrence_start (epoch ms) ended at stopped_at.';

-- A series' zone must be one of PostgreSQL's, by its IANA name (not an abbreviation such as
-- CEST or a POSIX rule, which `at time zone` would also take).
create or replace function private.namecard_series_check()
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

-- A new series is refused (23514, PostgREST's 400) when its card already has
-- private.namecard_limit('series') live series (not cancelled, not past their last date), naming
-- the limit and how to make room: each costs every status and every lookup of its card that
-- falls outside the materialised horizon a little (docs/security.md, "Limits"). Serialised per card, so that two inserts at
-- once cannot both pass; other cards do not wait. The card's series not cancelled are one range
-- of namecard_series_live_idx; a series cancelled is stopped from its cancel on, so it is live
-- no more.
create or replace function private.namecard_series_cap()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  live integer;
begin
  perform pg_advisory_xact_lock(hashtext('namecard_series_cap:' || new.card_id::text));
  select count(*) into live
  from private.namecard_series_rule as s
  join public.namecard_series as x on x.id = s.id
  where x.card_id = new.card_id
    and (s.stopped_at is null or s.stopped_at > now_ms)
    and (private.namecard_series_until(s) is null or private.namecard_series_until(s) > now_ms);
  if live >= private.namecard_limit('series') then
    raise exception using
      errcode = '23514',
      message = format('a card has at most %s live weekly series, and this one has %s',
        private.namecard_limit('series'), live),
      detail = 'series limit',
      hint = 'Cancel one first: namecard list shows their ids, namecard cancel <id> stops one.';
  end if;
  return new;
end;
$$;

revoke all on function private.namecard_series_cap() from public;

create trigger namecard_series_cap
  before insert on public.namecard_series
  for each row execute function private.namecard_series_cap();

create trigger namecard_series_zone
  before insert on public.namecard_series
  for each row execute function private.namecard_series_check();

create trigger namecard_series_profile
  before insert on public.namecard_series
  for each row execute function private.namecard_entry_profile_check();

-- A card's members read its series and their stopped occurrences (a card token as a member:
-- anon with the token's card). Nobody writes them directly: namecard_set_series, end and cancel
-- are functions that check the caller's role first (write-path.sql).
alter table public.namecard_series enable row level security;
alter table public.namecard_series_stop enable row level security;

revoke all on table public.namecard_series from anon, authenticated, public;
revoke all on table public.namecard_series_stop from anon, authenticated, public;
grant select on table public.namecard_series, public.namecard_series_stop to anon, authenticated;
grant select, insert, update on table public.namecard_series, public.namecard_series_stop
  to service_role;
-- The id default takes the next value of the entries' sequence as the inserting role.
grant usage on sequence public.namecard_id_seq to service_role;

create policy namecard_series_member_read on public.namecard_series
  for select to anon, authenticated
  using (card_id = any ((select private.namecard_cards_where('viewer'))::bigint[]));
create policy namecard_series_stop_member_read on public.namecard_series_stop
  for select to anon, authenticated
  using (card_id = any ((select private.namecard_cards_where('viewer'))::bigint[]));

-- Occurrences materialised ahead, so that /go's lookup stabs an index instead of expanding
-- every series. private.namecard_occurrence holds PLANNED occurrences (start, planned end);
-- end and cancel are read at lookup time by primary key. private.namecard_series_window says,
-- per series, for which instants [covered_from, covered_until) the table is complete; outside
-- it the series is expanded exactly (slower, never wrong). Owner writes extend the horizon.

create table private.namecard_series_window (
  series_id bigint primary key
    references public.namecard_series (id) on delete cascade,
  covered_from bigint not null,
  covered_until bigint not null,
  -- Its series' card (set when materialised), so that a card's windows are found by index.
  card_id bigint not null,
  constraint namecard_series_window_order check (covered_from <= covered_until)
);

comment on table private.namecard_series_window is
  'Per series: the instants [covered_from, covered_until) (epoch ms) at which private.namecard_occurrence holds every occurrence in force.';

create index namecard_series_window_until_idx
  on private.namecard_series_window (card_id, covered_until);
create index namecard_series_window_from_idx
  on private.namecard_series_window (card_id, covered_from);

create table private.namecard_occurrence (
  series_id bigint not null references public.namecard_series (id) on delete cascade,
  stamp_start bigint not null,
  planned_end bigint not null,
  -- Its series' card (set when materialised): a card's occurrences are one index stab.
  card_id bigint not null,
  primary key (series_id, stamp_start),
  constraint namecard_occurrence_order check (planned_end > stamp_start)
);

comment on table private.namecard_occurrence is
  'Planned occurrences of the series (epoch ms, before any end or cancel), over each series'' window.';

create index namecard_occurrence_range_idx
  on private.namecard_occurrence using gist (card_id, int8range(stamp_start, planned_end));
-- The next start after an instant (the timeline walk, the status' series): a btree on the card
-- and the start.
create index namecard_occurrence_start_idx on private.namecard_occurrence (card_id, stamp_start);

alter table private.namecard_series_window enable row level security;
alter table private.namecard_occurrence enable row level security;
revoke all on table private.namecard_series_window, private.namecard_occurrence
  from public, anon, authenticated;

-- The local calendar day of epoch ms at_ms in an IANA zone.
create or replace function private.namecard_local_day(at_ms bigint, time_zone text)
returns date
language sql
stable
parallel safe
as $$
  select (to_timestamp(at_ms / 1000.0) at time zone time_zone)::date
$$;

revoke all on function private.namecard_local_day(bigint, text) from public;

-- THE weekly expansion: the occurrences of series s whose start falls on a local day from
-- from_day to until_day (both inclusive) and within the series' first and last dates, each
-- with its start and planned end (epoch ms). An end at or before the start is on the next day.
-- Every function that needs occurrences calls this one; shared/calendar/series.ts is its
-- TypeScript twin (tests/conformance/timeline-property.test.ts keeps the two equal).
-- Plain SQL with no settings, so that the planner inlines it into its callers.
create or replace function private.namecard_series_days(
  s private.namecard_series_rule, from_day date, until_day date
)
returns table (start_ms bigint, planned_end bigint)
language sql
stable
as $$
  select private.namecard_local_instant(d.day + s.start_time, s.time_zone),
    private.namecard_local_instant(
      d.day + (s.end_time <= s.start_time)::integer + s.end_time, s.time_zone)
  from generate_series(
    greatest(from_day, s.first_date), least(until_day, s.last_date), interval '1 day'
  ) as g (day)
  cross join lateral (select g.day::date as day) as d
  where extract(isodow from d.day)::smallint = any (s.weekdays)
$$;

revoke all on function private.namecard_series_days(private.namecard_series_rule, date, date) from public;

-- THE stop rule: where an occurrence of series s starting at start_ms really ends: its planned
-- end, cut by the series' cancel (stopped_at) and by an `end` of that one occurrence (a row of
-- namecard_series_stop). An occurrence whose end is not after its start never counts. A set of
-- one row (joined laterally), so that the planner inlines it with its probe of the stops.
create or replace function private.namecard_occurrence_end(
  s private.namecard_series_rule, start_ms bigint, planned_end bigint
)
returns table (cut_end bigint)
language sql
stable
as $$
  select least(planned_end, s.stopped_at, (
    select x.stopped_at from public.namecard_series_stop as x
    where x.series_id = s.id and x.occurrence_start = start_ms
  ))
$$;

revoke all on function private.namecard_occurrence_end(private.namecard_series_rule, bigint, bigint)
  from public;

-- The instant from which series s has nothing in force or to come (epoch ms): its cancel, or
-- the end of the day after its last date at its end time (past any last occurrence, even one
-- running past midnight); null while it is endless.
create or replace function private.namecard_series_until(s private.namecard_series_rule)
returns bigint
language sql
stable
as $$
  select least(
    s.stopped_at,
    case when s.last_date is not null
      then private.namecard_local_instant(s.last_date + 1 + s.end_time, s.time_zone)
    end
  )
$$;

revoke all on function private.namecard_series_until(private.namecard_series_rule) from public;

-- The occurrences of a card's series in force some time in [from_ms, to_ms), by exact
-- expansion: series id, profile, start, end as stopped, planned end. An occurrence lasts at most
-- a day and a clock change, so local days from two before from_ms to one after to_ms hold every
-- one. At most 400 days at a time, each instant within namecard_check_instant's bounds; only the
-- series of only_series when given. Private: the card is an id, so that only entry points that
-- checked who asks (namecard_occurrences below, the lookups' exact part, end now) call it. PL/pgSQL with JIT off: opaque to the planner
-- of its callers, whose plans would otherwise carry the expansion's cost estimates and pay JIT
-- compilation (~250 ms) on every read.
create or replace function private.namecard_occurrences_of(
  card bigint, from_ms bigint, to_ms bigint, only_series bigint[] DEFAULT NULL::bigint[]
)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint, planned_end bigint)
language plpgsql
stable
security definer
rows 2
set search_path = ''
set jit = 'off'
as $$
begin
  perform private.namecard_check_instant(from_ms, 'from_ms');
  -- to_ms is an end (exclusive): the last instant asked about is the one before it.
  perform private.namecard_check_instant(to_ms - 1, 'to_ms - 1');
  if to_ms - from_ms > 400::bigint * 86400000 then
    raise exception using
      errcode = '22023',
      message = format('to_ms may be at most 400 days after from_ms, not %s days',
        (to_ms - from_ms) / 86400000),
      hint = 'Ask for a shorter span, or in several calls.';
  end if;
  return query
  select o.id, o.type, o.start_ms, o.cut_end, o.planned_end
  from (
    select s.id, s.type, w.start_ms, w.planned_end, e.cut_end
    from private.namecard_series_rule as s
    cross join lateral private.namecard_series_days(
      s,
      private.namecard_local_day(from_ms, s.time_zone) - 2,
      private.namecard_local_day(to_ms, s.time_zone) + 1
    ) as w
    cross join lateral private.namecard_occurrence_end(s, w.start_ms, w.planned_end) as e
    where (s.stopped_at is null or s.stopped_at > from_ms)
      and s.id in (select x.id from public.namecard_series as x where x.card_id = card)
      and (only_series is null or s.id = any (only_series))
  ) as o
  where o.start_ms < to_ms
    and o.cut_end > o.start_ms
    and o.cut_end > from_ms;
end;
$$;

revoke all on function private.namecard_occurrences_of(bigint, bigint, bigint, bigint[]) from public;

-- Members (viewers and up, a card token too): the occurrences of the card's series in force some
-- time in [from_ms, to_ms), the first 1000 by start (the API's row cap), as the expansion answers
-- them (what /manage shows of a series). From the materialised occurrences for the series whose
-- window holds the whole span (the card's start index, read in start order), by exact expansion
-- for the others (a window that has not caught up; none in the normal
-- case): what it costs is the rows answered, not the span times the card's series. Security
-- definer: the expansion's parts are nobody else's.
create or replace function public.namecard_occurrences(card text, from_ms bigint, to_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint, planned_end bigint)
language plpgsql
stable
security definer
rows 2
set search_path = ''
set jit = 'off'
as $$
declare
  cid bigint := private.namecard_card_id(card);
  uncovered bigint[];
begin
  perform private.namecard_check_instant(from_ms, 'from_ms');
  perform private.namecard_check_instant(to_ms - 1, 'to_ms - 1');
  if to_ms - from_ms > 400::bigint * 86400000 then
    raise exception using
      errcode = '22023',
      message = format('to_ms may be at most 400 days after from_ms, not %s days',
        (to_ms - from_ms) / 86400000),
      hint = 'Ask for a shorter span, or in several calls.';
  end if;
  uncovered := array(
    select x.id from public.namecard_series as x
    left join private.namecard_series_window as w on w.series_id = x.id
    where x.card_id = cid
      and (x.stopped_at is null or x.stopped_at > from_ms)
      and (w.series_id is null or w.covered_from > from_ms or w.covered_until < to_ms)
  );
  return query
    select c.id, c.type, c.stamp_start, c.stamp_end, c.planned_end
    from (
      (
        select o.series_id as id, s.type, o.stamp_start, e.cut_end as stamp_end, o.planned_end
        from private.namecard_occurrence as o
        join private.namecard_series_rule as s on s.id = o.series_id
        cross join lateral private.namecard_occurrence_end(s, o.stamp_start, o.planned_end) as e
        -- An occurrence lasts at most a day and a clock change: one in force at from_ms started
        -- less than two days before it. Read in start order on the card's start index, so that
        -- the read stops at the 1000th.
        where o.card_id = cid
          and o.stamp_start > from_ms - 2 * 86400000
          and o.stamp_start < to_ms
          and o.series_id <> all (uncovered)
          and e.cut_end > o.stamp_start
          and e.cut_end > from_ms
        order by o.stamp_start, o.series_id
        limit 1000
      )
      union all
      (
        select x.id, x.type, x.stamp_start, x.stamp_end, x.planned_end
        from private.namecard_occurrences_of(cid, from_ms, to_ms, uncovered) as x
        where cardinality(uncovered) > 0
      )
    ) as c
    order by c.stamp_start, c.id
    limit 1000;
end;
$$;

comment on function public.namecard_occurrences(text, bigint, bigint) is
  'Members: the first 1000 occurrences by start of the card''s (slug) series in force some time in [from_ms, to_ms): id, type, start, end (as stopped), planned end.';

revoke all on function public.namecard_occurrences(text, bigint, bigint) from public;
grant execute on function public.namecard_occurrences(text, bigint, bigint) to anon, authenticated, service_role;

-- The first start after after_ms (before before_ms when given) of an occurrence of series s that
-- counts (not cut to nothing), among those starting on a local day from from_day to until_day.
-- Plain SQL, inlined into namecard_series_next_start.
create or replace function private.namecard_series_next_start_in(
  s private.namecard_series_rule, after_ms bigint, before_ms bigint, from_day date, until_day date
)
returns bigint
language sql
stable
as $$
  select min(w.start_ms)
  from private.namecard_series_days(s, from_day, until_day) as w
  cross join lateral private.namecard_occurrence_end(s, w.start_ms, w.planned_end) as e
  where w.start_ms > after_ms
    and (before_ms is null or w.start_ms < before_ms)
    and e.cut_end > w.start_ms
$$;

revoke all on function private.namecard_series_next_start_in(
  private.namecard_series_rule, bigint, bigint, date, date) from public;

-- The first start after after_ms of an occurrence of series s that counts (not cut to nothing),
-- before before_ms when given. Every weekday comes round within 8 days of the local day before
-- after_ms (or of the first date, when later). That one may count for nothing: a start in a
-- spring-forward gap can end where it starts (02:00-03:00 in Europe/Berlin on the last Sunday
-- of March), and an `end` at an occurrence's first instant cuts it to nothing. The same weekday
-- a week later is then next, and a week after that when both happen to follow each other, so
-- the next two weeks are read, each only when the weeks before held none (COALESCE evaluates
-- its arguments lazily).
create or replace function private.namecard_series_next_start(
  s private.namecard_series_rule, after_ms bigint, before_ms bigint
)
returns bigint
language sql
stable
as $$
  select coalesce(
    private.namecard_series_next_start_in(s, after_ms, before_ms, f.day, f.day + 8),
    private.namecard_series_next_start_in(s, after_ms, before_ms, f.day + 9, f.day + 15),
    private.namecard_series_next_start_in(s, after_ms, before_ms, f.day + 16, f.day + 22)
  )
  from (
    select greatest(private.namecard_local_day(after_ms, s.time_zone) - 1, s.first_date) as day
  ) as f
$$;

revoke all on function private.namecard_series_next_start(private.namecard_series_rule, bigint, bigint)
  from public;

-- Where the materialised occurrences answer "what starts next" at instant t: for a series whose
-- window covers lookups from at most two days after t (rows are filled from two days before
-- covered_from, three before the window was opened) and has not passed t, every occurrence
-- starting in (t, covered_until) is in the table.
create or replace function private.namecard_series_covers(w private.namecard_series_window, t bigint)
returns boolean
language sql
immutable
as $$
  select w.covered_from - 2 * 86400000 <= t and w.covered_until > t
$$;

revoke all on function private.namecard_series_covers(private.namecard_series_window, bigint)
  from public;

-- The first start after after_ms of an occurrence of one series of the card that counts, or
-- null (none ahead): from the materialised occurrences when they hold it, else by exact
-- expansion. PL/pgSQL planned once per session (a generic plan), as the lookup's series part.
-- Sorting is off, as in namecard_card_next_start: the generic plan read every occurrence of
-- the series ahead and probed its stops (350 buffers a series, a call per live series in every
-- status). Private: only security-definer callers, which checked who asks, run it.
create or replace function private.namecard_series_next_start_of(card bigint, series_id bigint, after_ms bigint)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
set jit = 'off'
set plan_cache_mode = 'force_generic_plan'
set enable_sort = 'off'
as $$
begin
  return coalesce(
    (
      select o.stamp_start
      from private.namecard_occurrence as o
      join private.namecard_series_window as w on w.series_id = o.series_id
      join private.namecard_series_rule as s on s.id = o.series_id
      cross join lateral private.namecard_occurrence_end(s, o.stamp_start, o.planned_end) as e
      where o.card_id = card
        and o.series_id = namecard_series_next_start_of.series_id
        and o.stamp_start > after_ms
        and private.namecard_series_covers(w, after_ms)
        and o.stamp_start < w.covered_until
        and e.cut_end > o.stamp_start
      order by o.stamp_start
      limit 1
    ),
    (
      select private.namecard_series_next_start(s, after_ms, null)
      from private.namecard_series_rule as s
      join public.namecard_series as x on x.id = s.id
      where s.id = namecard_series_next_start_of.series_id and x.card_id = card
    )
  );
end;
$$;

revoke all on function private.namecard_series_next_start_of(bigint, bigint, bigint) from public;

-- The timeline walk's next change from a card's series: the first start after after_ms, before
-- before_ms (null: no bound), of an occurrence of a series newer than newer_than. From the
-- materialised occurrences for the series they cover (index order on the card and start, the
-- first that counts), by exact expansion for the series whose window has passed or not begun
-- (found by the windows' indexes: none in the normal case). A covered series may start again
-- after its window ends, so its window's end counts as a possible change too: the walk then
-- finds nothing new there and goes on (far ahead, and rare). As in /go's lookup, a series with
-- no window at all (stored while triggers were off) counts from the next owner write, which
-- materialises it. Sorting is off: the generic plan guesses a few dozen occurrences after any
-- instant, and would read and sort every one ahead (15,000 with 100 live series: 47,000 buffers
-- a call, a call a step of the walk) where the start index, read in order, stops at the first
-- that counts (round 5). Private, as namecard_series_next_start_of.
create or replace function private.namecard_card_next_start(
  card bigint, after_ms bigint, newer_than bigint, before_ms bigint
)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
set jit = 'off'
set plan_cache_mode = 'force_generic_plan'
set enable_sort = 'off'
as $$
begin
  return least(
    (
      select o.stamp_start
      from private.namecard_occurrence as o
      join private.namecard_series_window as w on w.series_id = o.series_id
      join private.namecard_series_rule as s on s.id = o.series_id
      cross join lateral private.namecard_occurrence_end(s, o.stamp_start, o.planned_end) as e
      -- A one-time filter: with no series newer than newer_than, nothing is read.
      where exists (
          select from public.namecard_series as x where x.card_id = card and x.id > newer_than
        )
        and o.card_id = card
        and o.stamp_start > after_ms
        -- Both bounds in the index condition (the plan is generic: a null test would not be).
        and o.stamp_start < coalesce(before_ms, 9223372036854775807)
        and o.series_id > newer_than
        and private.namecard_series_covers(w, after_ms)
        and o.stamp_start < w.covered_until
        and e.cut_end > o.stamp_start
      order by o.stamp_start
      limit 1
    ),
    (
      select w.covered_until
      from private.namecard_series_window as w
      where w.card_id = card
        and w.covered_until > after_ms
        -- An unbounded window holds every occurrence there is: its end is no change.
        and w.covered_until < 9223372036854775807
        and w.series_id > newer_than
        and private.namecard_series_covers(w, after_ms)
      order by w.covered_until
      limit 1
    ),
    (
      select min(private.namecard_series_next_start(s, after_ms, before_ms))
      from private.namecard_series_rule as s
      where s.id > newer_than
        and (s.stopped_at is null or s.stopped_at > after_ms)
        and s.id in (
          select w.series_id from private.namecard_series_window as w
          where w.card_id = card and w.covered_until <= after_ms
          union
          select w.series_id from private.namecard_series_window as w
          where w.card_id = card and w.covered_from > after_ms + 2 * 86400000
        )
    )
  );
end;
$$;

revoke all on function private.namecard_card_next_start(bigint, bigint, bigint, bigint)
  from public;

-- How far ahead occurrences are materialised: 400 days (epoch ms).
create or replace function private.namecard_series_horizon_ms()
returns bigint
language sql
immutable
set search_path = ''
as $$
  select 400::bigint * 86400000
$$;

revoke all on function private.namecard_series_horizon_ms() from public;

-- Stores the planned occurrences of series sid that start in [from_ms, until_ms).
create or replace function private.namecard_series_fill(sid bigint, from_ms bigint, until_ms bigint)
returns void
language sql
security definer
set search_path = ''
set jit = 'off'
as $$
  insert into private.namecard_occurrence (series_id, stamp_start, planned_end, card_id)
  select s.id, w.start_ms, w.planned_end, x.card_id
  from private.namecard_series_rule as s
  join public.namecard_series as x on x.id = s.id
  cross join lateral private.namecard_series_days(
    s,
    private.namecard_local_day(from_ms, s.time_zone) - 2,
    private.namecard_local_day(until_ms, s.time_zone) + 1
  ) as w
  where s.id = sid
    and w.start_ms >= from_ms
    and w.start_ms < until_ms
    and w.planned_end > w.start_ms
  on conflict do nothing
$$;

revoke all on function private.namecard_series_fill(bigint, bigint, bigint) from public;

-- Materialises series sid up to until_ms (from scratch when rebuild: its row changed). A new
-- window covers the instants from a day before now on, with every occurrence starting from
-- three days before now (an occurrence in force a day ago started at most a day and a clock
-- change before that). A series that ends (namecard_series_until) is filled to its end and its
-- window is then unbounded above.
create or replace function private.namecard_series_materialise(sid bigint, until_ms bigint, rebuild boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  s private.namecard_series_rule%rowtype;
  w private.namecard_series_window%rowtype;
  bound bigint;
  fill_from bigint;
begin
  select * into s from private.namecard_series_rule as x where x.id = sid;
  if not found then
    return;
  end if;
  if rebuild then
    delete from private.namecard_occurrence as o where o.series_id = sid;
    delete from private.namecard_series_window as x where x.series_id = sid;
  end if;
  select * into w from private.namecard_series_window as x where x.series_id = sid for update;
  if not found then
    fill_from := now_ms - 3 * 86400000;
    w.series_id := sid;
    w.card_id := (select x.card_id from public.namecard_series as x where x.id = sid);
    -- anon may ask about the day before now (private.namecard_check_instant): answered from
    -- the rows, however many series were stored or cancelled today.
    w.covered_from := now_ms - 86400000;
    w.covered_until := now_ms;
  else
    fill_from := w.covered_until;
  end if;
  bound := private.namecard_series_until(s);
  if bound is not null and bound <= until_ms then
    if fill_from < bound then
      perform private.namecard_series_fill(sid, fill_from, bound);
    end if;
    w.covered_until := 9223372036854775807;
  elsif fill_from < until_ms then
    perform private.namecard_series_fill(sid, fill_from, until_ms);
    w.covered_until := greatest(w.covered_until, until_ms);
  end if;
  insert into private.namecard_series_window as x (series_id, covered_from, covered_until, card_id)
  values (w.series_id, w.covered_from, w.covered_until, w.card_id)
  on conflict (series_id) do update set covered_until = excluded.covered_until;
end;
$$;

revoke all on function private.namecard_series_materialise(bigint, bigint, boolean) from public;

-- A series stored or changed is materialised 400 days ahead (rebuilt when its row changed).
create or replace function private.namecard_series_materialise_row()
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

revoke all on function private.namecard_series_materialise_row() from public;

-- Any write moves the horizon on: every series whose window ends within half the horizon is
-- extended to the whole horizon, and a series with no window (stored while triggers were off,
-- as a data-only restore of public without private may do) is materialised. A statement
-- trigger of every table a write changes.
create or replace function private.namecard_series_extend()
returns trigger
language plpgsql
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
    select x.id from public.namecard_series as x
    where not exists (
      select from private.namecard_series_window as v where v.series_id = x.id
    )
    order by 1
  loop
    perform private.namecard_series_materialise(
      sid, now_ms + private.namecard_series_horizon_ms(), false);
  end loop;
  return null;
end;
$$;

revoke all on function private.namecard_series_extend() from public;

-- The series occurrence of a card in force at at_ms from the materialised table, newest series
-- first, for series whose window holds at_ms. Fenced and sorted, so that the index stab's rows
-- (the card's, by the GiST on the card and the range) drive primary-key probes of their series,
-- stops and windows until one counts (not a walk of the series, nor a hash of them all).
create or replace function private.namecard_series_materialised_at(card bigint, at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select o.series_id, s.type, o.stamp_start, s.cut_end
  from (
    select o.series_id, o.stamp_start, o.planned_end
    from private.namecard_occurrence as o
    where o.card_id = card
      and int8range(o.stamp_start, o.planned_end) @> at_ms
    order by o.series_id desc, o.stamp_start desc
    offset 0
  ) as o
  cross join lateral (
    select x.type, e.cut_end
    from private.namecard_series_rule as x
    cross join lateral private.namecard_occurrence_end(x, o.stamp_start, o.planned_end) as e
    where x.id = o.series_id
  ) as s
  where s.cut_end > at_ms
    and exists (
      select from private.namecard_series_window as w
      where w.series_id = o.series_id
        and w.covered_from <= at_ms
        and w.covered_until > at_ms
    )
  order by o.series_id desc, o.stamp_start desc
  limit 1
$$;

revoke all on function private.namecard_series_materialised_at(bigint, bigint) from public;

-- The series occurrence of a card in force at at_ms by exact expansion, for the series whose
-- window does not hold at_ms (its horizon passed with no owner write, or at_ms is before it
-- was stored), and for series with no window at all (until the next owner write materialises
-- them).
create or replace function private.namecard_series_expanded_at(card bigint, at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
security definer
rows 1
set search_path = ''
set jit = 'off'
as $$
  select o.id, o.type, o.stamp_start, o.stamp_end
  from private.namecard_occurrences_of(card, at_ms, at_ms + 1) as o
  where o.id in (
      select w.series_id from private.namecard_series_window as w
      where w.card_id = card and w.covered_until <= at_ms
      union
      select w.series_id from private.namecard_series_window as w
      where w.card_id = card and w.covered_from > at_ms
      union
      select x.id from public.namecard_series as x
      where x.card_id = card and not exists (
        select from private.namecard_series_window as v where v.series_id = x.id
      )
    )
$$;

revoke all on function private.namecard_series_expanded_at(bigint, bigint) from public;

-- The series occurrence of a card in force at at_ms with the highest id, or no row: the
-- materialised table where windows hold at_ms, the exact expansion for the rest. It answers
-- what namecard_occurrences answers from the card's series. PL/pgSQL planned once per session
-- (a generic plan). Private: the private tables are nobody's to read, so only security-definer
-- callers, which checked who asks, run it.
create or replace function private.namecard_series_in_force_of(card bigint, at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language plpgsql
stable
security definer
rows 1
set search_path = ''
set jit = 'off'
set plan_cache_mode = 'force_generic_plan'
as $$
begin
  perform private.namecard_check_instant(at_ms, 'at_ms');
  return query
  select c.id, c.type, c.stamp_start, c.stamp_end
  from (
    (
      select m.id, m.type, m.stamp_start, m.stamp_end
      from private.namecard_series_materialised_at(card, at_ms) as m
      offset 0
    )
    union all
    (
      select e.id, e.type, e.stamp_start, e.stamp_end
      from private.namecard_series_expanded_at(card, at_ms) as e
      -- A one-time filter: when every window holds at_ms, the expansion is not called. The
      -- card's earliest end and latest start are one probe of an index each; EXISTS, planned
      -- generic, read every window when none matched (two scans of a card's 1,000 windows).
      where (
        select min(w.covered_until) from private.namecard_series_window as w
        where w.card_id = card
      ) <= at_ms or (
        select max(w.covered_from) from private.namecard_series_window as w
        where w.card_id = card
      ) > at_ms
      offset 0
    )
  ) as c
  order by c.id desc, c.stamp_start desc
  limit 1;
end;
$$;

revoke all on function private.namecard_series_in_force_of(bigint, bigint) from public;

-- The series occurrence of a card in force at at_ms with the highest id by exact expansion: the
-- rule's definition of the series part. Security definer, so that the expansion itself need not
-- be anyone's to call: its cost grows with the card's series not stopped before at_ms, which the
-- instant's bound (and the cap of live series) keeps small. Private, as the other workers.
create or replace function private.namecard_series_at_of(card bigint, at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language plpgsql
stable
security definer
rows 1
set search_path = ''
set jit = 'off'
as $$
begin
  perform private.namecard_check_instant(at_ms, 'at_ms');
  return query
  select o.id, o.type, o.stamp_start, o.stamp_end
  from private.namecard_occurrences_of(card, at_ms, at_ms + 1) as o
  order by o.id desc, o.stamp_start desc
  limit 1;
end;
$$;

revoke all on function private.namecard_series_at_of(bigint, bigint) from public;

create trigger namecard_series_materialise
  after insert or update on public.namecard_series
  for each row execute function private.namecard_series_materialise_row();

create trigger namecard_series_extend
  after insert or update on public.namecard
  for each statement execute function private.namecard_series_extend();

create trigger namecard_series_extend
  after insert or update on public.namecard_series
  for each statement execute function private.namecard_series_extend();

create trigger namecard_series_extend
  after insert or update on public.namecard_series_stop
  for each statement execute function private.namecard_series_extend();
