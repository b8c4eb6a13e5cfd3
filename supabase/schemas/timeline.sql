-- What visitors get: the rule at one instant, the timeline from an instant on, and the two
-- views visitors and owners read (namecard_active for /go, namecard_status for status and
-- /manage), each one GET.

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

comment on function public.namecard_active_at(at_ms bigint) is
  'The entry in force at epoch ms at_ms: started (or no start), not ended, highest id.';

revoke all on function public.namecard_active_at(at_ms bigint) from public;
grant execute on function public.namecard_active_at(at_ms bigint) to anon, authenticated, service_role;

create or replace function public.namecard_lookup_at(at_ms bigint)
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

comment on function public.namecard_lookup_at(at_ms bigint) is
  'The entry or series occurrence in force at epoch ms at_ms (highest id), as namecard_active_at answers it; series from their materialised occurrences.';

revoke all on function public.namecard_lookup_at(at_ms bigint) from public;
grant execute on function public.namecard_lookup_at(at_ms bigint) to anon, authenticated, service_role;

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

revoke all on function public.namecard_active_url() from public;
grant execute on function public.namecard_active_url() to anon, authenticated, service_role;

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
      select 1, 1, at_ms, first.run_type, first.nxt
      from (
        select coalesce(a.type, 'main') as run_type,
          case when a.id is null then least((
            select n.stamp_start from public.namecard as n
            where n.stamp_start > at_ms and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), case when has_series then public.namecard_series_next_start(at_ms, -1, null) end)
          else least(coalesce((
            select n.stamp_start from public.namecard as n
            where n.id > a.id and n.stamp_start > at_ms and n.stamp_start < a.stamp_end
              and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), a.stamp_end), case when has_series
            then public.namecard_series_next_start(at_ms, a.id, a.stamp_end) end) end as nxt
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
          ), case when has_series then public.namecard_series_next_start(w.nxt, -1, null) end)
          else least(coalesce((
            select n.stamp_start from public.namecard as n
            where n.id > a.id and n.stamp_start > w.nxt and n.stamp_start < a.stamp_end
              and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), a.stamp_end), case when has_series
            then public.namecard_series_next_start(w.nxt, a.id, a.stamp_end) end) end as nxt
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

comment on function public.namecard_timeline_until(at_ms bigint, until_ms bigint, max_segments integer) is
  'The timeline from epoch ms at_ms, walked until the first segment reaching until_ms (null: no bound).';

revoke all on function public.namecard_timeline_until(at_ms bigint, until_ms bigint, max_segments integer) from public;
grant execute on function public.namecard_timeline_until(at_ms bigint, until_ms bigint, max_segments integer) to anon, authenticated, service_role;

create or replace function public.namecard_timeline_at(at_ms bigint, max_segments integer DEFAULT 24)
returns table (type text, "from" bigint, "to" bigint)
language sql
stable
as $$
  select t.type, t."from", t."to" from public.namecard_timeline_until(at_ms, null, max_segments) as t
$$;

comment on function public.namecard_timeline_at(at_ms bigint, max_segments integer) is
  'What visitors get from epoch ms at_ms on: segments (type, from, to), last one main with to null.';

revoke all on function public.namecard_timeline_at(at_ms bigint, max_segments integer) from public;
grant execute on function public.namecard_timeline_at(at_ms bigint, max_segments integer) to anon, authenticated, service_role;

create or replace function public.namecard_preview(at_ms bigint[])
returns table (at bigint, id bigint, type text, stamp_start bigint, stamp_end bigint, series boolean)
language plpgsql
stable
set search_path = ''
set jit = 'off'
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

comment on function public.namecard_preview(at_ms bigint[]) is
  'For each epoch ms in at_ms (at most 1000): the entry or series occurrence in force then, or nulls (main).';

revoke all on function public.namecard_preview(at_ms bigint[]) from public;
grant execute on function public.namecard_preview(at_ms bigint[]) to anon, authenticated, service_role;

create or replace function public.namecard_profile_labels(names text[])
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(p.name, p.label), '{}'::jsonb)
  from public.namecard_profile as p
  where p.name = any (names)
    and (
      p.name in ('main', 'photo')
      or exists (
        select 1 from public.namecard as n
        where n.type = p.name
          and n.stamp_end > (extract(epoch from now()) * 1000)::bigint
      )
      or exists (
        select 1 from public.namecard_series as s
        where s.type = p.name
          and s.stopped_at is null
          and (s.last_date is null or s.last_date >= current_date - 1)
      )
    )
$$;

comment on function public.namecard_profile_labels(names text[]) is
  'Labels ({name: label}) of the given profiles that visitors can meet now or later: main, photo, and those an entry in force or to come names.';

revoke all on function public.namecard_profile_labels(names text[]) from public;
grant execute on function public.namecard_profile_labels(names text[]) to anon, authenticated, service_role;

create view public.namecard_active
with (security_invoker = true) as
  select a.id, a.type, a.stamp_start, a.stamp_end, public.namecard_active_url() as url
  from public.namecard_lookup_at((extract(epoch from now()) * 1000)::bigint) as a;

comment on view public.namecard_active is
  'The active entry by the server''s clock: started (or no start), not ended, highest id.';

grant select on public.namecard_active to anon, authenticated, service_role;

create view public.namecard_status
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

grant select on public.namecard_status to anon, authenticated, service_role;
