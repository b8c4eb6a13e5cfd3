-- What visitors get: the rule at one instant, the timeline from an instant on, and what
-- visitors and members read, each one GET: for the first card the two views (namecard_active
-- for a bare /go/, namecard_status for `status` and /manage), for any card namecard_go(card)
-- (/go/?c=<slug>) and namecard_card_status(card).
--
-- The rule (the spec's, DESIGN.md): an entry is active at instant t (epoch ms, the database
-- server's clock) when (stamp_start is null or stamp_start <= t) and stamp_end > t; a series
-- occurrence from its start until just before its end as stopped; among everything active the
-- highest id wins; none means main. namecard_in_force_at states it once, for one card. Its
-- series part comes either from the exact expansion (namecard_active_at: the rule's definition)
-- or from the materialised occurrences with the expansion as fallback (namecard_lookup_at: what
-- /go, the timeline, status, preview and visit counting read). tests/conformance/lookup-series.test.ts
-- keeps the two equal, and tests/conformance/timeline-property.test.ts the timeline equal to
-- shared/core/timeline.ts.

-- The entry or series occurrence of a card in force at at_ms with the highest id, or no row.
-- Each branch is fenced (offset 0) so that it is planned on its own index: entries without a
-- start on the btree of the card and their ends, entries with one on the GiST of the card,
-- start and end. The series branch not asked for is a one-time filter, and with no series in
-- the card neither is called. Security invoker, inlined into its callers: it reads the entries
-- and series as the caller may (anon: the first card's). anon asks only within
-- namecard_check_instant's bounds (a one-time filter too): further back, every entry ended
-- since would be read.
create or replace function public.namecard_in_force_at(card bigint, at_ms bigint, materialised boolean)
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
      offset 0
    )
    union all
    (
      select n.id, n.type, n.stamp_start, n.stamp_end
      from public.namecard as n
      where n.card_id = card
        and n.stamp_start is not null
        and n.stamp_start <= at_ms
        and n.stamp_end > at_ms
      offset 0
    )
    union all
    (
      select o.id, o.type, o.stamp_start, o.stamp_end
      from public.namecard_card_series_in_force(card, at_ms) as o
      where materialised
        and exists (select from public.namecard_series as x where x.card_id = card)
      offset 0
    )
    union all
    (
      select o.id, o.type, o.stamp_start, o.stamp_end
      from public.namecard_card_series_at(card, at_ms) as o
      where not materialised
        and exists (select from public.namecard_series as x where x.card_id = card)
      offset 0
    )
  ) as active
  where public.namecard_instant_allowed(at_ms)
  order by active.id desc
  limit 1
$$;

comment on function public.namecard_in_force_at(bigint, bigint, boolean) is
  'The entry or series occurrence of the card in force at epoch ms at_ms (highest id); series from their exact expansion, or (materialised) from the materialised occurrences.';

revoke all on function public.namecard_in_force_at(bigint, bigint, boolean) from public;
grant execute on function public.namecard_in_force_at(bigint, bigint, boolean)
  to anon, authenticated, service_role;

-- The rule's definition: series by exact expansion at the instant.
create or replace function public.namecard_card_active_at(card bigint, at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select a.id, a.type, a.stamp_start, a.stamp_end
  from public.namecard_in_force_at(card, at_ms, false) as a
$$;

comment on function public.namecard_card_active_at(bigint, bigint) is
  'The entry of the card in force at epoch ms at_ms: started (or no start), not ended, highest id.';

revoke all on function public.namecard_card_active_at(bigint, bigint) from public;
grant execute on function public.namecard_card_active_at(bigint, bigint) to service_role;

create or replace function public.namecard_active_at(at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select a.id, a.type, a.stamp_start, a.stamp_end
  from public.namecard_in_force_at(public.namecard_first_card(), at_ms, false) as a
$$;

comment on function public.namecard_active_at(bigint) is
  'The entry of the first card in force at epoch ms at_ms: started (or no start), not ended, highest id.';

revoke all on function public.namecard_active_at(bigint) from public;
grant execute on function public.namecard_active_at(bigint) to service_role;

-- The same answer from the materialised occurrences: flat in the number of series.
create or replace function public.namecard_card_lookup_at(card bigint, at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select a.id, a.type, a.stamp_start, a.stamp_end
  from public.namecard_in_force_at(card, at_ms, true) as a
$$;

comment on function public.namecard_card_lookup_at(bigint, bigint) is
  'The entry or series occurrence of the card in force at epoch ms at_ms (highest id), as namecard_active_at answers it; series from their materialised occurrences.';

revoke all on function public.namecard_card_lookup_at(bigint, bigint) from public;
grant execute on function public.namecard_card_lookup_at(bigint, bigint) to authenticated, service_role;

create or replace function public.namecard_lookup_at(at_ms bigint)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint)
language sql
stable
as $$
  select a.id, a.type, a.stamp_start, a.stamp_end
  from public.namecard_in_force_at(public.namecard_first_card(), at_ms, true) as a
$$;

comment on function public.namecard_lookup_at(bigint) is
  'The entry or series occurrence of the first card in force at epoch ms at_ms (highest id), as namecard_active_at answers it; series from their materialised occurrences.';

revoke all on function public.namecard_lookup_at(bigint) from public;
grant execute on function public.namecard_lookup_at(bigint) to anon, authenticated, service_role;

-- What anon may learn of a card's profiles: of the names given, main and photo (every card has
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
      select true from public.namecard_series_rule as s
      join public.namecard_series as x on x.id = s.id
      where x.card_id = card
        and s.type = q.name
        and (public.namecard_series_until(s) is null
          or public.namecard_series_until(s) > (extract(epoch from now()) * 1000)::bigint)
      limit 1
    ), false);
end;
$$;

revoke all on function private.namecard_public_profiles(bigint, text[]) from public;

-- Labels ({name: label}) of the given profiles of a card that anon may learn (the first 64
-- names asked: more profiles than that are never named in one timeline). Private, as the
-- series' workers: run by security-definer callers only (namecard_card_profile_labels is what
-- invoker code calls). PL/pgSQL with a generic plan, planned once per session.
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

-- The first card's, for anyone, as before cards. PL/pgSQL: one cached call of the worker.
create or replace function public.namecard_profile_labels(names text[])
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return private.namecard_profile_labels_of(public.namecard_first_card(), names);
end;
$$;

comment on function public.namecard_profile_labels(text[]) is
  'Labels ({name: label}) of the given profiles of the first card that visitors can meet now or later: main, photo, and those an entry in force or to come names.';

revoke all on function public.namecard_profile_labels(text[]) from public;
grant execute on function public.namecard_profile_labels(text[])
  to anon, authenticated, service_role;

-- What the status calls, for any card (the service's, see namecard_card_series_next).
create or replace function public.namecard_card_profile_labels(card bigint, names text[])
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  if card = public.namecard_first_card() then
    return public.namecard_profile_labels(names);
  end if;
  return private.namecard_profile_labels_of(card, names);
end;
$$;

comment on function public.namecard_card_profile_labels(bigint, text[]) is
  'Labels of the given profiles of the card that visitors can meet; another card than the first only from a security-definer entry point.';

revoke all on function public.namecard_card_profile_labels(bigint, text[]) from public;
grant execute on function public.namecard_card_profile_labels(bigint, text[]) to service_role;

-- The destination of a card's profile that anon may learn (null: the build's, or not one to
-- learn). The lookups pass the profile they found in force. Private, as the labels.
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

-- The first card's, for anyone, as before cards. PL/pgSQL: one cached call of the worker.
create or replace function public.namecard_profile_url(profile_name text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return private.namecard_profile_url_of(public.namecard_first_card(), profile_name);
end;
$$;

comment on function public.namecard_profile_url(text) is
  'The destination url of a profile of the first card visitors can meet now or later (main, photo, or named by an entry in force or to come); null otherwise or when it follows the build''s setting.';

revoke all on function public.namecard_profile_url(text) from public;
grant execute on function public.namecard_profile_url(text) to anon, authenticated, service_role;

-- What the status calls, for any card (the service's, see namecard_card_series_next).
create or replace function public.namecard_card_profile_url(card bigint, profile_name text)
returns text
language plpgsql
stable
set search_path = ''
as $$
begin
  if card = public.namecard_first_card() then
    return public.namecard_profile_url(profile_name);
  end if;
  return private.namecard_profile_url_of(card, profile_name);
end;
$$;

comment on function public.namecard_card_profile_url(bigint, text) is
  'The destination url of a profile of the card visitors can meet; another card than the first only from a security-definer entry point.';

revoke all on function public.namecard_card_profile_url(bigint, text) from public;
grant execute on function public.namecard_card_profile_url(bigint, text) to service_role;

-- One step of a card's timeline walk at instant t: what visitors get from t (run_type) and the
-- next instant it may change (nxt, null: never): the end of the entry in force, or the first
-- start after t of a newer entry or series occurrence before that end; with nothing in force,
-- the first start of anything after t.
--
-- What is in force at t is namecard_card_lookup_at's answer (namecard_in_force_at, materialised)
-- without its gate (namecard_instant_allowed), which the walk asks once, for its first instant:
-- every later step is after it and before the end of 2199, so the gate at each step (three
-- security-definer calls a step, one a branch) could only answer true again. The series branch
-- is there only when has_series, which the walk reads once (the lookup's exists probe, a step).
create or replace function public.namecard_timeline_step(card bigint, t bigint, has_series boolean)
returns table (run_type text, nxt bigint)
language sql
stable
as $$
  select coalesce(a.type, 'main'),
    case when a.id is null then least((
      select n.stamp_start from public.namecard as n
      where n.card_id = card and n.stamp_start > t and n.stamp_end > n.stamp_start
      order by n.stamp_start limit 1
    ), case when has_series then public.namecard_card_series_next_start(card, t, -1, null) end)
    else least(coalesce((
      select n.stamp_start from public.namecard as n
      where n.card_id = card and n.id > a.id and n.stamp_start > t and n.stamp_start < a.stamp_end
        and n.stamp_end > n.stamp_start
      order by n.stamp_start limit 1
    ), a.stamp_end), case when has_series
      then public.namecard_card_series_next_start(card, t, a.id, a.stamp_end) end) end
  from (select 1) as one
  left join lateral (
    select active.id, active.type, active.stamp_start, active.stamp_end
    from (
      (
        select n.id, n.type, n.stamp_start, n.stamp_end
        from public.namecard as n
        where n.card_id = card
          and n.stamp_start is null
          and n.stamp_end > t
          -- True of every row (namecard_instants_range). With t a value of the walk, not a
          -- constant, the planner prices stamp_end > t alone at a third of the card's entries
          -- and reads them all below a few thousand rows; as a range it prices 0.5% and reads
          -- the open-ended entries' index.
          and n.stamp_end < 7258118400000
        offset 0
      )
      union all
      (
        select n.id, n.type, n.stamp_start, n.stamp_end
        from public.namecard as n
        where n.card_id = card
          and n.stamp_start is not null
          and n.stamp_start <= t
          and n.stamp_end > t
        offset 0
      )
      union all
      (
        select o.id, o.type, o.stamp_start, o.stamp_end
        from public.namecard_card_series_in_force(card, t) as o
        where has_series
        offset 0
      )
    ) as active
    order by active.id desc
    limit 1
  ) as a on true
$$;

revoke all on function public.namecard_timeline_step(bigint, bigint, boolean) from public;
grant execute on function public.namecard_timeline_step(bigint, bigint, boolean) to service_role;

-- One step of a card's timeline walk at instant t, the answer of public.namecard_timeline_step,
-- with the series read straight from the materialised occurrences. Exact while t is before
-- fast_until: every series of the card has a window then, and each window holds t (from its
-- start, two days before it for the next start, to its end, none before fast_until), so that
-- nothing is to be expanded and every occurrence in force or next is a row. The walk finds
-- fast_until once (namecard_timeline_until). Inlined into the walk's one query: entries,
-- occurrences, stops and windows are index probes of that query, with no function call a step.
-- Private: the walk runs it as its owner.
create or replace function private.namecard_timeline_step_materialised(
  card bigint, t bigint, fast_until bigint
)
returns table (run_type text, nxt bigint)
language sql
stable
as $$
  select coalesce(a.type, 'main'),
    -- A window's end is a possible change (as in namecard_series_next_start_of); none comes
    -- before fast_until, so it is read only when nothing else comes first.
    case when c.nxt < fast_until then c.nxt else least(c.nxt, (
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
    -- The entry or occurrence in force at t with the highest id (namecard_in_force_at). The
    -- started entries by the GiST of their ranges: with t a value of the walk, not a constant,
    -- the planner reads the one in the range index, where the scalar GiST would lose to the
    -- start's btree and read every entry started before t.
    select active.id, active.type, active.stamp_start, active.stamp_end
    from (
      (
        select n.id, n.type, n.stamp_start, n.stamp_end
        from public.namecard as n
        where n.card_id = card and n.stamp_start is null and n.stamp_end > t
        offset 0
      )
      union all
      (
        select n.id, n.type, n.stamp_start, n.stamp_end
        from public.namecard as n
        where n.card_id = card and n.stamp_end - n.stamp_start > 0
          and int8range(n.stamp_start, n.stamp_end) @> t
        offset 0
      )
      union all
      (
        select m.id, m.type, m.stamp_start, m.stamp_end
        from private.namecard_series_materialised_at(card, t) as m
        offset 0
      )
    ) as active
    order by active.id desc
    limit 1
  ) as a on true
  cross join lateral (
    select least(
      -- With nothing in force, the first start after t of any entry; else the winner's end, or
      -- the first start before it of a newer entry.
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
      -- The first start after t (before the winner's end) of an occurrence of a newer series
      -- that counts.
      (
        select o.stamp_start
        from private.namecard_occurrence as o
        join private.namecard_series_window as w on w.series_id = o.series_id
        join public.namecard_series_rule as s on s.id = o.series_id
        cross join lateral public.namecard_occurrence_end(s, o.stamp_start, o.planned_end) as e
        where o.card_id = card
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

revoke all on function private.namecard_timeline_step_materialised(bigint, bigint, bigint) from public;

-- The walk of namecard_timeline_until for a card with series, at_ms before fast_until: the steps
-- before fast_until by namecard_timeline_step_materialised, the others (past a window's end) as
-- namecard_timeline_until takes them. One generic plan a session: planning this query cost more
-- than running it (10 ms against 3). Private: namecard_timeline_until, which checked its
-- arguments, runs it.
create or replace function private.namecard_timeline_walk_materialised(
  card bigint, at_ms bigint, until_ms bigint, max_segments integer, fast_until bigint
)
returns table (type text, "from" bigint, "to" bigint)
language plpgsql
stable
set search_path = ''
set jit = 'off'
set plan_cache_mode = 'force_generic_plan'
as $$
begin
  return query
    with recursive walk (step, seg, cur, run_type, nxt) as (
      select 1, 1, at_ms, f.run_type, f.nxt
      from (
        select m.run_type, m.nxt
        from private.namecard_timeline_step_materialised(card, at_ms, fast_until) as m
        where at_ms < fast_until
        union all
        select p.run_type, p.nxt
        from public.namecard_timeline_step(card, at_ms, true) as p
        where at_ms >= fast_until
      ) as f
      union all
      select w.step + 1,
        w.seg + (s.run_type is distinct from w.run_type)::integer,
        w.nxt, s.run_type, s.nxt
      from walk as w
      cross join lateral (
        select m.run_type, m.nxt
        from private.namecard_timeline_step_materialised(card, w.nxt, fast_until) as m
        where w.nxt < fast_until
        union all
        select p.run_type, p.nxt
        from public.namecard_timeline_step(card, w.nxt, true) as p
        where w.nxt >= fast_until
      ) as s
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

revoke all on function private.namecard_timeline_walk_materialised(bigint, bigint, bigint, integer, bigint)
  from public;

-- A card's timeline from at_ms on: segments (type, from, to), the last one main and open-ended,
-- or with an end when the walk stops at max_segments (an endless series), at the first segment
-- reaching until_ms, or at the end of 2199 (no instant after it is asked about: an endless
-- series past an entry that lasts to then would otherwise walk into instants the lookup
-- refuses). Each segment is a few index probes; a walk takes at most 8 steps a segment.
-- With series, the steps before fast_until (while every window of the card holds them, found
-- once a walk) read the materialised occurrences in the walk's own query
-- (private.namecard_timeline_walk_materialised); the others call the series' functions (two
-- PL/pgSQL chains a step, ~1.5 ms with 100 live series). Security definer, so that it may run
-- that private walk: it is the service's, called by security-definer entry points, which read
-- as its owner already. Its walk is planned once a session (a generic plan, as the materialised
-- walk's): every step already compares with values of the walk, so a custom plan gained nothing
-- and cost more than running it (1.5 against 0.6 ms at 10^3 rows).
create or replace function public.namecard_timeline_until(
  card bigint, at_ms bigint, until_ms bigint, max_segments integer
)
returns table (type text, "from" bigint, "to" bigint)
language plpgsql
stable
security definer
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
  -- The lookup's gate, once a walk (namecard_timeline_step leaves it out): true, or 22023 for
  -- anon outside namecard_check_instant's bounds.
  perform public.namecard_instant_allowed(at_ms);
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
  if at_ms < fast_until then
    return query
      select m.type, m."from", m."to"
      from private.namecard_timeline_walk_materialised(card, at_ms, until_ms, max_segments, fast_until) as m;
    return;
  end if;
  return query
    with recursive walk (step, seg, cur, run_type, nxt) as (
      select 1, 1, at_ms, f.run_type, f.nxt
      from public.namecard_timeline_step(card, at_ms, has_series) as f
      union all
      select w.step + 1,
        w.seg + (s.run_type is distinct from w.run_type)::integer,
        w.nxt, s.run_type, s.nxt
      from walk as w
      cross join lateral public.namecard_timeline_step(card, w.nxt, has_series) as s
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

comment on function public.namecard_timeline_until(bigint, bigint, bigint, integer) is
  'The card''s timeline from epoch ms at_ms, walked until the first segment reaching until_ms (null: no bound).';

revoke all on function public.namecard_timeline_until(bigint, bigint, bigint, integer) from public;
grant execute on function public.namecard_timeline_until(bigint, bigint, bigint, integer) to service_role;

create or replace function public.namecard_timeline_at(at_ms bigint, max_segments integer DEFAULT 24)
returns table (type text, "from" bigint, "to" bigint)
language sql
stable
as $$
  select t.type, t."from", t."to"
  from public.namecard_timeline_until(public.namecard_first_card(), at_ms, null, max_segments) as t
$$;

comment on function public.namecard_timeline_at(bigint, integer) is
  'What visitors of the first card get from epoch ms at_ms on: segments (type, from, to), last one main with to null.';

revoke all on function public.namecard_timeline_at(bigint, integer) from public;
grant execute on function public.namecard_timeline_at(bigint, integer) to service_role;

-- For each instant of at_ms (at most 10, each within namecard_check_instant's bounds): what a
-- card's lookup answers then, and whether it is a series occurrence. `card` is a slug, null the first card (which anyone may ask, as
-- before cards); another card only its members may ask (PT404 for anyone else, as for a slug
-- never given). Security definer: it reads the card as its members may.
-- The work of namecard_preview on card cid, once the caller's right to read it was checked
-- (namecard_preview for anyone and members, namecard_token_preview for a token).
create or replace function private.namecard_preview_of(cid bigint, at_ms bigint[])
returns table (at bigint, id bigint, type text, stamp_start bigint, stamp_end bigint, series boolean)
language plpgsql
stable
set search_path = ''
set jit = 'off'
set plan_cache_mode = 'force_custom_plan'
as $$
declare
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
      left join lateral public.namecard_card_lookup_at(cid, t) as a on true;
  end loop;
end;
$$;

revoke all on function private.namecard_preview_of(bigint, bigint[]) from public;

create or replace function public.namecard_preview(at_ms bigint[], card text DEFAULT NULL::text)
returns table (at bigint, id bigint, type text, stamp_start bigint, stamp_end bigint, series boolean)
language sql
stable
security definer
set search_path = ''
set jit = 'off'
as $$
  select * from private.namecard_preview_of(private.namecard_card_id(card), at_ms)
$$;

comment on function public.namecard_preview(bigint[], text) is
  'For each epoch ms in at_ms (at most 10): the entry or series occurrence of the card (slug; null: the first card) in force then, or nulls (main).';

revoke all on function public.namecard_preview(bigint[], text) from public;
grant execute on function public.namecard_preview(bigint[], text)
  to anon, authenticated, service_role;

-- /go's one GET of a bare /go/: the first card's entry in force now and its destination, from
-- one lookup. The view reads as its caller (anon: the first card's entries), so that the
-- planner inlines the lookup down to the indexes.
create view public.namecard_active
with (security_invoker = true) as
  select a.id, a.type, a.stamp_start, a.stamp_end, public.namecard_profile_url(a.type) as url
  from public.namecard_lookup_at((extract(epoch from now()) * 1000)::bigint) as a;

comment on view public.namecard_active is
  'The active entry by the server''s clock: started (or no start), not ended, highest id.';

grant select on public.namecard_active to anon, authenticated, service_role;

-- /go's one GET for a card's link (/go/?c=<slug>): what namecard_active answers, for the live
-- card of that slug (null: the first card). An unknown or removed slug answers what a card with
-- nothing set answers (no row), so that anon learns nothing of which cards exist, and nothing
-- beyond what /go needs. One CORS-simple GET on a URL fixed by the slug:
-- /rest/v1/rpc/namecard_go?card=<slug>&apikey=…  Security definer: anon reads no card but the
-- first through the tables.
create or replace function public.namecard_go(card text DEFAULT NULL::text)
returns table (id bigint, type text, stamp_start bigint, stamp_end bigint, url text)
language sql
stable
security definer
set search_path = ''
as $$
  select a.id, a.type, a.stamp_start, a.stamp_end, public.namecard_card_profile_url(c.id, a.type)
  from public.namecard_card as c
  cross join lateral public.namecard_card_lookup_at(c.id, (extract(epoch from now()) * 1000)::bigint) as a
  where c.removed_at is null
    and c.slug = coalesce(card, (
      select f.slug from public.namecard_card as f where f.id = public.namecard_first_card()
    ))
$$;

comment on function public.namecard_go(text) is
  'What /go/?c=<slug> visitors get now: the entry in force of the live card of that slug (null: the first card) and its destination, or no row (the main site), as namecard_active answers for the first card.';

revoke all on function public.namecard_go(text) from public;
grant execute on function public.namecard_go(text) to anon, authenticated, service_role;

-- A card's status, the answer `status` and /manage read with one GET: the server's now, the
-- entry in force, the timeline (24 segments at most), the labels of the profiles it names, the
-- destination in force (null: the build's) and the series with an occurrence ahead, each with
-- its next start. The service's: run by the security-definer entry points, the first card's by
-- namecard_status_now() (and its view namecard_status) for anyone, another card's by
-- namecard_card_status, which checks the caller is a member. What it costs is fixed (24
-- segments, the card's live series' next starts, at most namecard_series_limit()), and the
-- functions it calls need not be anyone's to call with other arguments (round 5).
create or replace function public.namecard_status_of(card bigint)
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
    public.namecard_card_profile_labels(card,
      array(select distinct s ->> 'type' from jsonb_array_elements(segments.timeline) as s)
    ),
    public.namecard_card_profile_url(card, a.type),
    (
      select coalesce(jsonb_agg(jsonb_build_object(
        'id', x.id, 'type', x.type, 'weekdays', x.weekdays,
        'start_time', x.start_time, 'end_time', x.end_time, 'time_zone', x.time_zone,
        'first_date', x.first_date, 'last_date', x.last_date, 'next', x.next
      ) order by x.id), '[]'::jsonb)
      from (
        select s.id, s.type, s.weekdays, s.start_time, s.end_time, s.time_zone,
          s.first_date, s.last_date, public.namecard_card_series_next(card, s.id, clock.now_ms) as next
        from public.namecard_series_rule as s
        join public.namecard_series as y on y.id = s.id
        where y.card_id = card and s.stopped_at is null
        -- Fenced: each series' next start is looked up once, not again for the filter below.
        offset 0
      ) as x
      where x.next is not null
    )
  from (select (extract(epoch from now()) * 1000)::bigint as now_ms) as clock
  left join lateral public.namecard_card_lookup_at(card, clock.now_ms) as a on true
  cross join lateral (
    select jsonb_agg(
      jsonb_build_object('type', t.type, 'from', t."from", 'to', t."to") order by t."from"
    ) as timeline
    from public.namecard_timeline_until(card, clock.now_ms, null, 24) as t
  ) as segments
$$;

comment on function public.namecard_status_of(bigint) is
  'One row of the card: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles the timeline names, the destination in force (null: the build''s), and the series with an occurrence ahead (with its next start).';

revoke all on function public.namecard_status_of(bigint) from public;
grant execute on function public.namecard_status_of(bigint) to service_role;

-- The first card's status, for anyone (as before cards). Security definer with no argument.
create or replace function public.namecard_status_now()
returns table (now bigint, active jsonb, timeline jsonb, labels jsonb, url text, series_ahead jsonb)
language sql
stable
security definer
set search_path = ''
set jit = 'off'
as $$
  select s.now, s.active, s.timeline, s.labels, s.url, s.series_ahead
  from public.namecard_status_of(public.namecard_first_card()) as s
$$;

comment on function public.namecard_status_now() is
  'One row of the first card: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles it names, the destination in force, and the series with an occurrence ahead.';

revoke all on function public.namecard_status_now() from public;
grant execute on function public.namecard_status_now() to anon, authenticated, service_role;

-- `status`' and /manage's one GET of the first card.
create view public.namecard_status
with (security_invoker = true) as
  select s.now, s.active, s.timeline, s.labels, s.url, s.series_ahead
  from public.namecard_status_now() as s;

comment on view public.namecard_status is
  'One row: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles the timeline names, the destination in force (null: the build''s), and the series with an occurrence ahead (with its next start).';

grant select on public.namecard_status to anon, authenticated, service_role;

-- A card's status by its slug (null: the first card, which anyone may read, as its view): one
-- GET, /rest/v1/rpc/namecard_card_status?card=<slug>. Another card only its members read (PT404
-- for anyone else, as for a slug never given).
create or replace function public.namecard_card_status(card text DEFAULT NULL::text)
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
  from public.namecard_status_of(private.namecard_card_id(card)) as s
$$;

comment on function public.namecard_card_status(text) is
  'The status of the card (slug; null: the first card) as the view namecard_status answers it; another card than the first for its members only.';

revoke all on function public.namecard_card_status(text) from public;
grant execute on function public.namecard_card_status(text) to anon, authenticated, service_role;
