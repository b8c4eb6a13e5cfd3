-- What visitors get: the rule at one instant, the timeline from an instant on, and the two
-- views visitors and owners read (namecard_active for /go, namecard_status for `status` and
-- /manage), each one GET.
--
-- The rule (the spec's, DESIGN.md): an entry is active at instant t (epoch ms, the database
-- server's clock) when (stamp_start is null or stamp_start <= t) and stamp_end > t; a series
-- occurrence from its start until just before its end as stopped; among everything active the
-- highest id wins; none means main. namecard_in_force_at states it once. Its series part comes
-- either from the exact expansion (namecard_active_at: the rule's definition) or from the
-- materialised occurrences with the expansion as fallback (namecard_lookup_at: what /go, the
-- timeline, status, preview and visit counting read). tests/conformance/lookup-series.test.ts
-- keeps the two equal, and tests/conformance/timeline-property.test.ts the timeline equal to
-- shared/core/timeline.ts.

-- The entry or series occurrence in force at at_ms with the highest id, or no row. Each branch
-- is fenced (offset 0) so that it is planned on its own index: entries without a start on the
-- btree of their ends, entries with one on the GiST of their [start, end) ranges. The series
-- branch not asked for is a one-time filter, and with no series neither is called. anon asks
-- only within namecard_check_instant's bounds (a one-time filter too): further back, every
-- entry ended since would be read.
create or replace function public.namecard_in_force_at(at_ms bigint, materialised boolean)
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
      where materialised and exists (select from public.namecard_series)
      offset 0
    )
    union all
    (
      select o.id, o.type, o.stamp_start, o.stamp_end
      from public.namecard_series_at(at_ms) as o
      where not materialised and exists (select from public.namecard_series)
      offset 0
    )
  ) as active
  where public.namecard_instant_allowed(at_ms)
  order by active.id desc
  limit 1
$$;

comment on function public.namecard_in_force_at(bigint, boolean) is
  'The entry or series occurrence in force at epoch ms at_ms (highest id); series from their exact expansion, or (materialised) from the materialised occurrences.';

revoke all on function public.namecard_in_force_at(bigint, boolean) from public;
grant execute on function public.namecard_in_force_at(bigint, boolean)
  to anon, authenticated, service_role;

-- The rule's definition: series by exact expansion at the instant.
create or replace function public.namecard_active_at(at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select a.id, a.type, a.stamp_start, a.stamp_end
  from public.namecard_in_force_at(at_ms, false) as a
$$;

comment on function public.namecard_active_at(bigint) is
  'The entry in force at epoch ms at_ms: started (or no start), not ended, highest id.';

revoke all on function public.namecard_active_at(bigint) from public;
grant execute on function public.namecard_active_at(bigint) to service_role;

-- The same answer from the materialised occurrences: flat in the number of series.
create or replace function public.namecard_lookup_at(at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select a.id, a.type, a.stamp_start, a.stamp_end
  from public.namecard_in_force_at(at_ms, true) as a
$$;

comment on function public.namecard_lookup_at(bigint) is
  'The entry or series occurrence in force at epoch ms at_ms (highest id), as namecard_active_at answers it; series from their materialised occurrences.';

revoke all on function public.namecard_lookup_at(bigint) from public;
grant execute on function public.namecard_lookup_at(bigint) to anon, authenticated, service_role;

-- What anon may learn of profiles: of the names given, main and photo (every card has them), and
-- those that an entry or series in force or still to come names, which the status' timeline
-- shows anyway. Never the others: a removed profile, a draft, one only old entries name. One
-- statement for all the names: its plan is made once a call, not once a name (64 names planned
-- one by one cost 64 plans of both probes).
create or replace function private.namecard_public_profiles(names text[])
returns setof text
language sql
stable
set search_path = ''
as $$
  -- Scalar subqueries, not EXISTS: each is one index probe a name. An EXISTS under OR may be
  -- planned as a hashed subplan, which reads every entry not ended to hash it.
  select q.name
  from unnest(names) as q(name)
  where q.name in ('main', 'photo')
    or coalesce((
      select true from public.namecard as n
      where n.type = q.name
        and n.stamp_end > (extract(epoch from now()) * 1000)::bigint
      limit 1
    ), false)
    or coalesce((
      select true from public.namecard_series_rule as s
      where s.type = q.name
        and (public.namecard_series_until(s) is null
          or public.namecard_series_until(s) > (extract(epoch from now()) * 1000)::bigint)
      limit 1
    ), false)
$$;

revoke all on function private.namecard_public_profiles(text[]) from public;

-- Labels ({name: label}) of the given profiles that anon may learn (the first 64 names asked:
-- more profiles than that are never named in one timeline).
create or replace function public.namecard_profile_labels(names text[])
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(p.name, p.label), '{}'::jsonb)
  from public.namecard_profile as p
  where p.name in (select private.namecard_public_profiles(names[1:64]))
$$;

comment on function public.namecard_profile_labels(text[]) is
  'Labels ({name: label}) of the given profiles that visitors can meet now or later: main, photo, and those an entry in force or to come names.';

revoke all on function public.namecard_profile_labels(text[]) from public;
grant execute on function public.namecard_profile_labels(text[])
  to anon, authenticated, service_role;

-- The views pass the profile their one lookup found in force.
create or replace function public.namecard_profile_url(profile_name text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select p.url
  from public.namecard_profile as p
  where p.name = profile_name
    and p.name in (select private.namecard_public_profiles(array[profile_name]))
$$;

comment on function public.namecard_profile_url(text) is
  'The destination url of a profile visitors can meet now or later (main, photo, or named by an entry in force or to come); null otherwise or when it follows the build''s setting.';

revoke all on function public.namecard_profile_url(text) from public;
grant execute on function public.namecard_profile_url(text) to anon, authenticated, service_role;

-- One step of the timeline walk at instant t: what visitors get from t (run_type) and the next
-- instant it may change (nxt, null: never): the end of the entry in force, or the first start
-- after t of a newer entry or series occurrence before that end; with nothing in force, the
-- first start of anything after t.
create or replace function public.namecard_timeline_step(t bigint, has_series boolean)
returns table (run_type text, nxt bigint)
language sql
stable
as $$
  select coalesce(a.type, 'main'),
    case when a.id is null then least((
      select n.stamp_start from public.namecard as n
      where n.stamp_start > t and n.stamp_end > n.stamp_start
      order by n.stamp_start limit 1
    ), case when has_series then public.namecard_series_next_start(t, -1, null) end)
    else least(coalesce((
      select n.stamp_start from public.namecard as n
      where n.id > a.id and n.stamp_start > t and n.stamp_start < a.stamp_end
        and n.stamp_end > n.stamp_start
      order by n.stamp_start limit 1
    ), a.stamp_end), case when has_series
      then public.namecard_series_next_start(t, a.id, a.stamp_end) end) end
  from (select 1) as one
  left join lateral public.namecard_lookup_at(t) as a on true
$$;

revoke all on function public.namecard_timeline_step(bigint, boolean) from public;
grant execute on function public.namecard_timeline_step(bigint, boolean) to service_role;

-- The timeline from at_ms on: segments (type, from, to), the last one main and open-ended, or
-- with an end when the walk stops at max_segments (an endless series), at the first segment
-- reaching until_ms, or at the end of 2199 (no instant after it is asked about: an endless
-- series past an entry that lasts to then would otherwise walk into instants the lookup
-- refuses). Each segment is a few index probes; a walk takes at most 8 steps a segment.
create or replace function public.namecard_timeline_until(at_ms bigint, until_ms bigint, max_segments integer)
returns table (type text, "from" bigint, "to" bigint)
language plpgsql
stable
set search_path = ''
set jit = 'off'
as $$
declare
  -- Read once per walk: with no series (the common card) no step calls the series' search.
  has_series boolean := exists (select from public.namecard_series);
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
      select 1, 1, at_ms, f.run_type, f.nxt
      from public.namecard_timeline_step(at_ms, has_series) as f
      union all
      select w.step + 1,
        w.seg + (s.run_type is distinct from w.run_type)::integer,
        w.nxt, s.run_type, s.nxt
      from walk as w
      cross join lateral public.namecard_timeline_step(w.nxt, has_series) as s
      where w.nxt is not null
        and w.nxt < 7258118400000
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

revoke all on function public.namecard_timeline_until(bigint, bigint, integer) from public;
grant execute on function public.namecard_timeline_until(bigint, bigint, integer) to service_role;

create or replace function public.namecard_timeline_at(at_ms bigint, max_segments integer DEFAULT 24)
returns table (type text, "from" bigint, "to" bigint)
language sql
stable
as $$
  select t.type, t."from", t."to" from public.namecard_timeline_until(at_ms, null, max_segments) as t
$$;

comment on function public.namecard_timeline_at(bigint, integer) is
  'What visitors get from epoch ms at_ms on: segments (type, from, to), last one main with to null.';

revoke all on function public.namecard_timeline_at(bigint, integer) from public;
grant execute on function public.namecard_timeline_at(bigint, integer) to service_role;

-- For each instant of at_ms (at most 10, each within namecard_check_instant's bounds): what the
-- lookup answers then, and whether it is a series occurrence. Security definer: its cost is
-- fixed by its bounds, and it needs nothing of the tables' grants to anon.
create or replace function public.namecard_preview(at_ms bigint[])
returns table (at bigint, id bigint, type text, stamp_start bigint, stamp_end bigint, series boolean)
language plpgsql
stable
security definer
set search_path = ''
set jit = 'off'
as $$
begin
  if coalesce(cardinality(at_ms), 0) > 10 then
    raise exception using
      errcode = '22023',
      message = format('at_ms must hold at most 10 instants, not %s', cardinality(at_ms)),
      hint = 'Ask in several calls.';
  end if;
  perform private.namecard_check_instant(i.t, 'at_ms') from unnest(at_ms) as i (t);
  return query
    select i.t, a.id, a.type, a.stamp_start, a.stamp_end,
      case when a.id is null then null
        else exists (select from public.namecard_series as s where s.id = a.id) end
    from unnest(at_ms) with ordinality as i (t, n)
    left join lateral public.namecard_lookup_at(i.t) as a on true
    order by i.n;
end;
$$;

comment on function public.namecard_preview(bigint[]) is
  'For each epoch ms in at_ms (at most 10): the entry or series occurrence in force then, or nulls (main).';

revoke all on function public.namecard_preview(bigint[]) from public;
grant execute on function public.namecard_preview(bigint[]) to anon, authenticated, service_role;

-- /go's one GET: the entry in force now and its destination, from one lookup.
create view public.namecard_active
with (security_invoker = true) as
  select a.id, a.type, a.stamp_start, a.stamp_end, public.namecard_profile_url(a.type) as url
  from public.namecard_lookup_at((extract(epoch from now()) * 1000)::bigint) as a;

comment on view public.namecard_active is
  'The active entry by the server''s clock: started (or no start), not ended, highest id.';

grant select on public.namecard_active to anon, authenticated, service_role;

-- `status`' and /manage's one GET: the server's now, the entry in force, the timeline (24
-- segments at most), the labels of the profiles it names, the destination in force (null: the
-- build's) and the series with an occurrence ahead, each with its next start. Security definer
-- with no argument: what it costs is fixed (24 segments, the live series' next starts), and the
-- functions it calls need not be anyone's to call with other arguments.
create or replace function public.namecard_status_now()
returns table (now bigint, active jsonb, timeline jsonb, labels jsonb, url text, series_ahead jsonb)
language sql
stable
security definer
set search_path = ''
set jit = 'off'
as $$
  select
    clock.now_ms,
    case when a.id is not null then jsonb_build_object(
      'id', a.id, 'type', a.type, 'stamp_start', a.stamp_start, 'stamp_end', a.stamp_end
    ) end,
    segments.timeline,
    public.namecard_profile_labels(
      array(select distinct s ->> 'type' from jsonb_array_elements(segments.timeline) as s)
    ),
    public.namecard_profile_url(a.type),
    (
      select coalesce(jsonb_agg(jsonb_build_object(
        'id', x.id, 'type', x.type, 'weekdays', x.weekdays,
        'start_time', x.start_time, 'end_time', x.end_time, 'time_zone', x.time_zone,
        'first_date', x.first_date, 'last_date', x.last_date, 'next', x.next
      ) order by x.id), '[]'::jsonb)
      from (
        select s.id, s.type, s.weekdays, s.start_time, s.end_time, s.time_zone,
          s.first_date, s.last_date, public.namecard_series_next(s.id, clock.now_ms) as next
        from public.namecard_series_rule as s
        where s.stopped_at is null
        -- Fenced: each series' next start is looked up once, not again for the filter below.
        offset 0
      ) as x
      where x.next is not null
    )
  from (select (extract(epoch from now()) * 1000)::bigint as now_ms) as clock
  left join lateral public.namecard_lookup_at(clock.now_ms) as a on true
  cross join lateral (
    select jsonb_agg(
      jsonb_build_object('type', t.type, 'from', t."from", 'to', t."to") order by t."from"
    ) as timeline
    from public.namecard_timeline_at(clock.now_ms, 24) as t
  ) as segments
$$;

comment on function public.namecard_status_now() is
  'One row: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles it names, the destination in force, and the series with an occurrence ahead.';

revoke all on function public.namecard_status_now() from public;
grant execute on function public.namecard_status_now() to anon, authenticated, service_role;

create view public.namecard_status
with (security_invoker = true) as
  select s.now, s.active, s.timeline, s.labels, s.url, s.series_ahead
  from public.namecard_status_now() as s;

comment on view public.namecard_status is
  'One row: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles the timeline names, the destination in force (null: the build''s), and the series with an occurrence ahead (with its next start).';

grant select on public.namecard_status to anon, authenticated, service_role;
