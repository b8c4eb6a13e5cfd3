-- What visitors get: the rule at one instant, the timeline from an instant on, and what
-- visitors and members read, each one GET: namecard_go(card) for /go/?c=<slug> (a bare /go/ is
-- the card main), namecard_status(card) for `status` and /manage, namecard_preview(at_ms, card).
--
-- The rule (the spec's, DESIGN.md): an entry is active at instant t (epoch ms, the database
-- server's clock) when (stamp_start is null or stamp_start <= t) and stamp_end > t; a series
-- occurrence from its start until just before its end as stopped; among everything active the
-- highest id wins; none means main. private.namecard_in_force_at states it once, for one card;
-- its series part is the exact expansion (`exact`: the rule's definition), the materialised
-- occurrences with the expansion as fallback (`lookup`: what /go, status, preview and visit
-- counting read), or the materialised occurrences alone (`window`: the timeline walk's steps
-- while every window holds them). tests/conformance/lookup-series.test.ts keeps `exact` and
-- `lookup` equal, and tests/conformance/timeline-property.test.ts the timeline equal to
-- shared/core/timeline.ts.
--
-- Everything here that reads a card's rows is private and runs as the tables' owner, called by
-- the security-definer entry points below, which decide who may ask about which card.

-- The entry or series occurrence of a card in force at at_ms with the highest id, or no row.
-- Each branch is fenced (offset 0) so that it is planned on its own index: entries without a
-- start on the btree of the card and their ends, entries with one on the GiST of the card and
-- their ranges (with at_ms a value of the timeline walk, not a constant, the scalar columns would
-- lose to the start's btree and read every entry started before it). The series branches not
-- asked for are one-time filters, and with no series in the card none is called. Plain SQL with
-- no settings: inlined into its callers, which run as the tables' owner. Callers bound at_ms
-- (private.namecard_check_instant): further back, every entry ended since would be read.
create or replace function private.namecard_in_force_at(card bigint, at_ms bigint, series text)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select active.id, active.type, active.stamp_start, active.stamp_end
  from (
    (
      select n.id, n.type, n.stamp_start, n.stamp_end
      from public.namecard as n
      where n.card_id = card
        and n.stamp_start is null
        and n.stamp_end > at_ms
        -- True of every row (namecard_instants_range). With at_ms a value of the walk, not a
        -- constant, the planner prices stamp_end > at_ms alone at a third of the card's entries
        -- and reads them all below a few thousand rows; as a range it prices 0.5% and reads the
        -- open-ended entries' index.
        and n.stamp_end < 7258118400000
      offset 0
    )
    union all
    (
      select n.id, n.type, n.stamp_start, n.stamp_end
      from public.namecard as n
      where n.card_id = card
        and n.stamp_end - n.stamp_start > 0
        and int8range(n.stamp_start, n.stamp_end) @> at_ms
      offset 0
    )
    union all
    (
      select o.id, o.type, o.stamp_start, o.stamp_end
      from private.namecard_series_in_force_of(card, at_ms) as o
      where series = 'lookup'
        and exists (select from public.namecard_series as x where x.card_id = card)
      offset 0
    )
    union all
    (
      select o.id, o.type, o.stamp_start, o.stamp_end
      from private.namecard_series_at_of(card, at_ms) as o
      where series = 'exact'
        and exists (select from public.namecard_series as x where x.card_id = card)
      offset 0
    )
    union all
    (
      select m.id, m.type, m.stamp_start, m.stamp_end
      from private.namecard_series_materialised_at(card, at_ms) as m
      where series = 'window'
      offset 0
    )
  ) as active
  order by active.id desc
  limit 1
$$;

comment on function private.namecard_in_force_at(bigint, bigint, text) is
  'The entry or series occurrence of the card in force at epoch ms at_ms (highest id); series (exact | lookup | window | none) from the exact expansion, the materialised occurrences with the expansion as fallback, the materialised occurrences alone, or not at all.';

revoke all on function private.namecard_in_force_at(bigint, bigint, text) from public;

-- What visitors may learn of a card's profiles: of the names given, main and photo (every card has
-- them), and those that an entry or series of the card in force or still to come names, which
-- the status' timeline shows anyway. Never the others: a removed profile, a draft, one only old
-- entries name. One statement for all the names, not one a name. PL/pgSQL with a generic plan,
-- planned once a session: planning it (both probes and the series' end) cost about 0.75 ms,
-- paid at every lookup that found a row, which /go's URL and the status' labels ask for.
create or replace function private.namecard_public_profiles(card bigint, names text[])
returns setof text
language plpgsql
stable
set search_path = ''
set plan_cache_mode = 'force_generic_plan'
as $$
begin
  -- Scalar subqueries, not EXISTS: each is one index probe a name. An EXISTS under OR may be
  -- planned as a hashed subplan, which reads every entry not ended to hash it.
  return query
  select q.name
  from unnest(names) as q(name)
  where q.name in ('main', 'photo')
    or coalesce((
      select true from public.namecard as n
      where n.card_id = card
        and n.type = q.name
        and n.stamp_end > (extract(epoch from now()) * 1000)::bigint
      limit 1
    ), false)
    or coalesce((
      select true from private.namecard_series_rule as s
      join public.namecard_series as x on x.id = s.id
      where x.card_id = card
        and s.type = q.name
        and (private.namecard_series_until(s) is null
          or private.namecard_series_until(s) > (extract(epoch from now()) * 1000)::bigint)
      limit 1
    ), false);
end;
$$;

revoke all on function private.namecard_public_profiles(bigint, text[]) from public;

-- Labels ({name: label}) of the given profiles of a card that visitors may learn (the first 64
-- names asked: more profiles than that are never named in one timeline). PL/pgSQL with a generic
-- plan, planned once per session.
create or replace function private.namecard_profile_labels_of(card bigint, names text[])
returns jsonb
language plpgsql
stable
set search_path = ''
set plan_cache_mode = 'force_generic_plan'
as $$
begin
  return (
    select coalesce(jsonb_object_agg(p.name, p.label), '{}'::jsonb)
    from public.namecard_profile as p
    where p.card_id = card
      and p.name in (select private.namecard_public_profiles(card, names[1:64]))
  );
end;
$$;

revoke all on function private.namecard_profile_labels_of(bigint, text[]) from public;

-- The destination of a card's profile that visitors may learn (null: the build's, or not one to
-- learn). The lookups pass the profile they found in force.
create or replace function private.namecard_profile_url_of(card bigint, profile_name text)
returns text
language plpgsql
stable
set search_path = ''
set plan_cache_mode = 'force_generic_plan'
as $$
begin
  return (
    select p.url
    from public.namecard_profile as p
    where p.card_id = card
      and p.name = profile_name
      and p.name in (select private.namecard_public_profiles(card, array[profile_name]))
  );
end;
$$;

revoke all on function private.namecard_profile_url_of(bigint, text) from public;

-- One step of a card's timeline walk at instant t: what visitors get from t (run_type) and the
-- next instant it may change (nxt, null: never): the end of what is in force, or the first start
-- after t of a newer entry or series occurrence before that end; with nothing in force, the first
-- start of anything after t. `series` as private.namecard_in_force_at takes it: `window` (every
-- window of the card holds t, found once a walk: fast_until) reads the series from the
-- materialised occurrences in the step's own query, `lookup` from the series' functions, `none`
-- reads none. A window's end is a possible change (a covered series may start again after it);
-- none comes before fast_until, so it is read only when nothing else comes first. Plain SQL,
-- inlined into the walk's one query: entries, occurrences, stops and windows are index probes of
-- that query.
create or replace function private.namecard_timeline_step(
  card bigint, t bigint, series text, fast_until bigint
)
returns table (run_type text, nxt bigint)
language sql
stable
as $$
  select coalesce(a.type, 'main'),
    case when c.nxt < fast_until or series <> 'window' then c.nxt else least(c.nxt, (
      select w.covered_until
      from private.namecard_series_window as w
      where w.card_id = card
        and w.covered_until > t
        and w.covered_until < 9223372036854775807
        and w.series_id > coalesce(a.id, -1)
      order by w.covered_until
      limit 1
    )) end
  from (select 1) as one
  left join lateral (
    select f.id, f.type, f.stamp_start, f.stamp_end
    from private.namecard_in_force_at(card, t, series) as f
  ) as a on true
  cross join lateral (
    select least(
      -- With nothing in force, the first start after t of any entry; else the winner's end, or the
      -- first start before it of a newer entry.
      case when a.id is null then (
        select n.stamp_start from public.namecard as n
        where n.card_id = card and n.stamp_start > t and n.stamp_end > n.stamp_start
        order by n.stamp_start limit 1
      ) else coalesce((
        select n.stamp_start from public.namecard as n
        where n.card_id = card and n.id > a.id and n.stamp_start > t and n.stamp_start < a.stamp_end
          and n.stamp_end > n.stamp_start
          -- A one-time filter: a winner newer than every entry (an occurrence) reads nothing.
          and (select max(y.id) from public.namecard as y where y.card_id = card) > a.id
        order by n.stamp_start limit 1
      ), a.stamp_end) end,
      -- The first start after t (before the winner's end) of an occurrence of a newer series that
      -- counts: from the series' functions past the windows, else from the occurrences.
      case when series = 'lookup'
        then private.namecard_card_next_start(card, t, coalesce(a.id, -1), a.stamp_end)
      end,
      (
        select o.stamp_start
        from private.namecard_occurrence as o
        join private.namecard_series_window as w on w.series_id = o.series_id
        join private.namecard_series_rule as s on s.id = o.series_id
        cross join lateral private.namecard_occurrence_end(s, o.stamp_start, o.planned_end) as e
        where series = 'window'
          and o.card_id = card
          and o.stamp_start > t
          and o.stamp_start < coalesce(a.stamp_end, 9223372036854775807)
          and o.series_id > coalesce(a.id, -1)
          and o.stamp_start < w.covered_until
          and e.cut_end > o.stamp_start
        order by o.stamp_start
        limit 1
      )
    ) as nxt
  ) as c
$$;

revoke all on function private.namecard_timeline_step(bigint, bigint, text, bigint) from public;

-- A card's timeline from at_ms on: segments (type, from, to), the last one main and open-ended,
-- or with an end when the walk stops at max_segments (an endless series), at the first segment
-- reaching until_ms, or at the end of 2199 (no instant after it is asked about: an endless
-- series past an entry that lasts to then would otherwise walk into instants the lookup
-- refuses). Each segment is a few index probes; a walk takes at most 8 steps a segment. With
-- series, the steps before fast_until (while every window of the card holds them, found once a
-- walk) read the materialised occurrences in the walk's own query; the others call the series'
-- functions (two PL/pgSQL chains a step, ~1.5 ms with 100 live series). The walk is planned once
-- a session (a generic plan): every step compares with values of the walk, so a custom plan
-- gained nothing and cost more than running it (1.5 against 0.6 ms at 10^3 rows).
create or replace function private.namecard_timeline_until(
  card bigint, at_ms bigint, until_ms bigint, max_segments integer
)
returns table (type text, "from" bigint, "to" bigint)
language plpgsql
stable
set search_path = ''
set jit = 'off'
set plan_cache_mode = 'force_generic_plan'
as $$
declare
  -- Read once per walk: with no series (the common card) no step calls the series' search.
  has_series boolean := exists (select from public.namecard_series as x where x.card_id = card);
  fast_until bigint := at_ms;
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
  if has_series then
    -- What the series' lookup checks at each step (the instant is within bounds).
    perform private.namecard_check_instant(at_ms, 'at_ms');
    -- The materialised occurrences answer every step before the first window's end, when
    -- every series of the card has a window opened by at_ms; else no step.
    fast_until := coalesce((
      select min(w.covered_until) from private.namecard_series_window as w
      where w.card_id = card
        and not exists (
          select from public.namecard_series as x
          where x.card_id = card
            and not exists (select from private.namecard_series_window as v where v.series_id = x.id)
        )
        -- The latest start of a window, one probe of its index (as the lookup's).
        and (
          select max(v.covered_from) from private.namecard_series_window as v
          where v.card_id = card
        ) <= at_ms
    ), at_ms);
  end if;
  return query
    with recursive walk (step, seg, cur, run_type, nxt) as (
      select 1, 1, at_ms, f.run_type, f.nxt
      from private.namecard_timeline_step(card, at_ms,
        case when at_ms < fast_until then 'window' when has_series then 'lookup' else 'none' end,
        fast_until) as f
      union all
      select w.step + 1,
        w.seg + (s.run_type is distinct from w.run_type)::integer,
        w.nxt, s.run_type, s.nxt
      from walk as w
      cross join lateral private.namecard_timeline_step(card, w.nxt,
        case when w.nxt < fast_until then 'window' when has_series then 'lookup' else 'none' end,
        fast_until) as s
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

comment on function private.namecard_timeline_until(bigint, bigint, bigint, integer) is
  'The card''s timeline from epoch ms at_ms, walked until the first segment reaching until_ms (null: no bound), at most max_segments segments.';

revoke all on function private.namecard_timeline_until(bigint, bigint, bigint, integer) from public;

-- For each instant of at_ms (at most 10, each within namecard_check_instant's bounds): what the
-- card's lookup answers then, and whether it is a series occurrence; no row's fields for an
-- unknown slug (what /go answers for it). Anyone may ask about any card, as visitors of its link
-- could at that instant. Security definer: it reads the card as its owner.
create or replace function public.namecard_preview(at_ms bigint[], card text)
returns table (at bigint, id bigint, type text, stamp_start bigint, stamp_end bigint, series boolean)
language plpgsql
stable
security definer
set search_path = ''
set jit = 'off'
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  cid bigint := private.namecard_live_card(card);
  t bigint;
begin
  if coalesce(cardinality(at_ms), 0) > 10 then
    raise exception using
      errcode = '22023',
      message = format('at_ms must hold at most 10 instants, not %s', cardinality(at_ms)),
      hint = 'Ask in several calls.';
  end if;
  perform private.namecard_check_instant(i.t, 'at_ms') from unnest(at_ms) as i (t);
  -- One lookup an instant, each planned for its card and instant (custom plans): joined to the
  -- instants laterally, the planner knew neither, and read a card's started entries by their
  -- start alone (100,000 at the bench's 10^6 rows, for an instant in 2199) instead of the GiST.
  foreach t in array coalesce(at_ms, '{}') loop
    return query
      select t, a.id, a.type, a.stamp_start, a.stamp_end,
        case when a.id is null then null
          else exists (select from public.namecard_series as s where s.id = a.id) end
      from (select) as one
      left join lateral private.namecard_in_force_at(cid, t, 'lookup') as a on true;
  end loop;
end;
$$;

comment on function public.namecard_preview(bigint[], text) is
  'For each epoch ms in at_ms (at most 10): the entry or series occurrence of the card (slug) in force then, or nulls (main).';

revoke all on function public.namecard_preview(bigint[], text) from public;
grant execute on function public.namecard_preview(bigint[], text)
  to anon, authenticated, service_role;

-- /go's one GET (/go/?c=<slug>; a bare /go/ asks for main): what visitors get now, the entry in
-- force of the live card of that slug and its destination, from one lookup. An unknown or
-- removed slug answers what a card with nothing set answers (no row), so that anon learns
-- nothing of which cards exist, and nothing beyond what /go needs. One CORS-simple GET on a URL
-- fixed by the slug: /rest/v1/rpc/namecard_go?card=<slug>&apikey=…  Security definer: it reads
-- the card as its owner. PL/pgSQL with a generic plan, planned once a session: a SQL function's
-- body is planned anew at every call (0.6 ms against 0.2 ms at 10^6 entries, more with series),
-- and the lookup's branches are written so that a generic plan reads the same indexes as a
-- custom one (private.namecard_in_force_at).
create or replace function public.namecard_go(card text)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint, url text)
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_generic_plan'
as $$
begin
  return query
    select a.id, a.type, a.stamp_start, a.stamp_end, private.namecard_profile_url_of(c.id, a.type)
    from (select private.namecard_live_card(namecard_go.card) as id) as c
    cross join lateral private.namecard_in_force_at(
      c.id, (extract(epoch from now()) * 1000)::bigint, 'lookup') as a;
end;
$$;

comment on function public.namecard_go(text) is
  'What /go/?c=<slug> visitors get now: the entry in force of the live card of that slug and its destination, or no row (the main site).';

revoke all on function public.namecard_go(text) from public;
grant execute on function public.namecard_go(text) to anon, authenticated, service_role;

-- A card's status, the answer `status` and /manage read with one GET: the server's now, the
-- entry in force, the timeline (24 segments at most), the labels of the profiles it names, the
-- destination in force (null: the build's) and the series with an occurrence ahead, each with
-- its next start. What it costs is fixed (24 segments, the card's live series' next starts, at
-- most private.namecard_limit('series')).
create or replace function private.namecard_status_of(card bigint)
returns table (
  now bigint, active jsonb, timeline jsonb, labels jsonb, url text, series_ahead jsonb
)
language sql
stable
as $$
  select
    clock.now_ms,
    case when a.id is not null then jsonb_build_object(
      'id', a.id, 'type', a.type, 'stamp_start', a.stamp_start, 'stamp_end', a.stamp_end
    ) end,
    segments.timeline,
    private.namecard_profile_labels_of(card,
      array(select distinct s ->> 'type' from jsonb_array_elements(segments.timeline) as s)
    ),
    private.namecard_profile_url_of(card, a.type),
    (
      select coalesce(jsonb_agg(jsonb_build_object(
        'id', x.id, 'type', x.type, 'weekdays', x.weekdays,
        'start_time', x.start_time, 'end_time', x.end_time, 'time_zone', x.time_zone,
        'first_date', x.first_date, 'last_date', x.last_date, 'next', x.next
      ) order by x.id), '[]'::jsonb)
      from (
        select s.id, s.type, s.weekdays, s.start_time, s.end_time, s.time_zone,
          s.first_date, s.last_date, private.namecard_series_next_start_of(card, s.id, clock.now_ms) as next
        from private.namecard_series_rule as s
        join public.namecard_series as y on y.id = s.id
        where y.card_id = card and s.stopped_at is null
        -- Fenced: each series' next start is looked up once, not again for the filter below.
        offset 0
      ) as x
      where x.next is not null
    )
  from (select (extract(epoch from now()) * 1000)::bigint as now_ms) as clock
  left join lateral private.namecard_in_force_at(card, clock.now_ms, 'lookup') as a on true
  cross join lateral (
    select jsonb_agg(
      jsonb_build_object('type', t.type, 'from', t."from", 'to', t."to") order by t."from"
    ) as timeline
    from private.namecard_timeline_until(card, clock.now_ms, null, 24) as t
  ) as segments
$$;

comment on function private.namecard_status_of(bigint) is
  'One row of the card: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles the timeline names, the destination in force (null: the build''s), and the series with an occurrence ahead (with its next start).';

revoke all on function private.namecard_status_of(bigint) from public;

-- A card's status by its slug, for anyone (what visitors of its link meet over time): one GET,
-- /rest/v1/rpc/namecard_status?card=<slug>. An unknown or removed slug answers what a card with
-- nothing set answers (main from now on), as /go does, so that nobody learns which cards exist.
-- Security definer: it reads the card as its owner.
create or replace function public.namecard_status(card text)
returns table (
  now bigint, active jsonb, timeline jsonb, labels jsonb, url text, series_ahead jsonb
)
language sql
stable
security definer
set search_path = ''
set jit = 'off'
as $$
  select s.now, s.active, s.timeline, s.labels, s.url, s.series_ahead
  from private.namecard_status_of(private.namecard_live_card(card)) as s
$$;

comment on function public.namecard_status(text) is
  'The status of the card (slug): the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles it names, the destination in force (null: the build''s), and the series with an occurrence ahead; a card with nothing set for an unknown slug.';

revoke all on function public.namecard_status(text) from public;
grant execute on function public.namecard_status(text) to anon, authenticated, service_role;
