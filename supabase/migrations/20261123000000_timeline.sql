-- The card's timeline: what visitors get at every moment from now on, by one rule, and the
-- owner's two ways of changing it on the server's clock, "end now" and "cancel".
--
-- The rule (DESIGN.md, the spec's section 5 extended by the schedule): at instant t an entry
-- is active when (stamp_start is null or stamp_start <= t) and stamp_end > t; among active
-- entries the highest id wins; none means the main site. Applied at every instant from t on,
-- it gives the timeline: ordered segments (type, from, to) in epoch ms, consecutive segments
-- of different types, the last one main and open-ended (to is null).
--
-- The rule lives here in one function, public.namecard_active_at(t); the view /go reads
-- (namecard_active) and the timeline both call it, and a property test checks it against the
-- TypeScript model in shared/core/timeline.ts at random instants.

-- Ending and cancelling never delete a row: the entry's stamp_end is brought forward to the
-- moment it stopped counting, so that the rule above (and the indexes on stamp_end and on
-- the interval) stay exactly as they are, and the row is marked with what happened.
alter table public.namecard
  add column stopped_at bigint null,
  add column stop_kind text null
    constraint namecard_stop_kind_known check (stop_kind in ('ended', 'cancelled')),
  add column planned_end bigint null,
  add constraint namecard_stop_complete check (
    (stopped_at is null and stop_kind is null and planned_end is null)
    or (stopped_at is not null and stop_kind is not null and planned_end is not null)
  );

comment on column public.namecard.stopped_at is
  'Epoch ms (server clock) when the owner ended or cancelled the entry; null if never.';
comment on column public.namecard.stop_kind is
  'ended: stopped by "end now" while in force; cancelled: stopped by "cancel"; null: never.';
comment on column public.namecard.planned_end is
  'The stamp_end the entry had before it was stopped (stamp_end is then the stop moment).';

-- A stopped entry may end where it starts: a scheduled entry that is cancelled, or one that
-- started at the very millisecond it was ended, then never counts (an empty interval). The
-- constraint keeps its name, so a start not before the end is still refused as before.
alter table public.namecard drop constraint namecard_start_before_end;
alter table public.namecard add constraint namecard_start_before_end check (
  stamp_start is null
  or stamp_start < stamp_end
  or (stop_kind is not null and stamp_start <= stamp_end)
);

-- anon keeps reading only id, type, stamp_start and stamp_end (its column grants); owners
-- read the new columns through their table-wide select. Nobody may write them but the two
-- functions below: authenticated's insert grant names its columns.

-- The entry in force at an instant: at most one row. Written as one SQL select, without a
-- SET clause, so that PostgreSQL inlines it into the query that calls it: namecard_active
-- then plans exactly as before (each branch on its partial index, now() folded in), which a
-- SET search_path (Supabase's lint 0011) would prevent; every name is schema-qualified
-- instead. Each branch is fenced (offset 0) so it is planned on its own index.
create function public.namecard_active_at(at_ms bigint)
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
  ) as active
  order by active.id desc
  limit 1
$$;

comment on function public.namecard_active_at(bigint) is
  'The entry in force at epoch ms at_ms: started (or no start), not ended, highest id.';

-- namecard_active keeps its meaning and columns (one GET for /go) and now calls the rule.
create or replace view public.namecard_active
with (security_invoker = true) as
  select a.id, a.type, a.stamp_start, a.stamp_end
  from public.namecard_active_at((extract(epoch from now()) * 1000)::bigint) as a;

-- The timeline from an instant on, at most max_segments segments. It walks the winners:
-- at each moment cur, the winner w holds until the earlier of its own end and the first
-- start, after cur, of an entry newer than w (an older entry starting cannot displace it);
-- with no winner, until the first start after cur. Each step is two index lookups, so the
-- cost grows with the segments answered, not with the table. Consecutive winners of one
-- type make one segment. When max_segments (or the step budget) stops the walk early, the
-- last segment answered has a non-null "to": more follows.
create function public.namecard_timeline_at(at_ms bigint, max_segments integer default 24)
returns table (type text, "from" bigint, "to" bigint)
language plpgsql
stable
set search_path = ''
as $$
declare
  cur bigint := at_ms;
  nxt bigint;
  w_id bigint;
  w_type text;
  w_end bigint;
  run_type text;
  seg_type text := null;
  seg_from bigint;
  emitted integer := 0;
  steps integer := 0;
begin
  if max_segments is null or max_segments < 1 then
    raise exception using
      errcode = '22023',
      message = 'max_segments must be a positive integer';
  end if;
  loop
    steps := steps + 1;
    select a.id, a.type, a.stamp_end into w_id, w_type, w_end
    from public.namecard_active_at(cur) as a;
    if w_id is null then
      run_type := 'main';
      select n.stamp_start into nxt
      from public.namecard as n
      where n.stamp_start > cur and n.stamp_end > n.stamp_start
      order by n.stamp_start
      limit 1;
    else
      run_type := w_type;
      select n.stamp_start into nxt
      from public.namecard as n
      where n.id > w_id
        and n.stamp_start > cur
        and n.stamp_start < w_end
        and n.stamp_end > n.stamp_start
      order by n.stamp_start
      limit 1;
      nxt := coalesce(nxt, w_end);
    end if;

    if seg_type is null then
      seg_type := run_type;
      seg_from := cur;
    elsif run_type is distinct from seg_type then
      type := seg_type; "from" := seg_from; "to" := cur;
      return next;
      emitted := emitted + 1;
      if emitted >= max_segments then
        return;
      end if;
      seg_type := run_type;
      seg_from := cur;
    end if;

    if nxt is null then
      type := seg_type; "from" := seg_from; "to" := null;
      return next;
      return;
    end if;
    if steps >= max_segments * 8 then
      type := seg_type; "from" := seg_from; "to" := nxt;
      return next;
      return;
    end if;
    cur := nxt;
    w_id := null;
    nxt := null;
  end loop;
end;
$$;

comment on function public.namecard_timeline_at(bigint, integer) is
  'What visitors get from epoch ms at_ms on: segments (type, from, to), last one main with to null.';

-- What visitors get now and from now on, by the server's clock, in one row and one GET (for
-- `namecard status` and /manage): the server's now (epoch ms), the active entry as
-- namecard_active answers it (null when none), and the timeline's first 24 segments. One
-- statement, so all three come from the same instant.
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
    (
      select jsonb_agg(
        jsonb_build_object('type', t.type, 'from', t."from", 'to', t."to") order by t."from"
      )
      from public.namecard_timeline_at(clock.now_ms, 24) as t
    ) as timeline
  from (select (extract(epoch from now()) * 1000)::bigint as now_ms) as clock;

comment on view public.namecard_status is
  'One row: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most).';

-- The view namecard_next answered "the next start" by a rule of its own (it compared a
-- scheduled entry only with the active one); the timeline's second segment replaces it.
drop view public.namecard_next;
drop index public.namecard_start_idx;

-- The walk's "first start after cur" reads this index in start order and stops at the first
-- row that qualifies.
create index namecard_start_idx
  on public.namecard (stamp_start)
  where stamp_start is not null;

revoke all on function public.namecard_active_at(bigint) from public;
revoke all on function public.namecard_timeline_at(bigint, integer) from public;
grant execute on function public.namecard_active_at(bigint) to anon, authenticated, service_role;
grant execute on function public.namecard_timeline_at(bigint, integer)
  to anon, authenticated, service_role;
grant select on public.namecard_status to anon, authenticated, service_role;

-- End now: every entry in force now (the winner, and any older one that would come back
-- after it) stops now; entries that start later stay scheduled. Owners only. When that
-- would not change the timeline (nothing in force, or only main entries that hide nothing),
-- nothing is stored and no row is answered. Answers the entries it stopped.
create function public.namecard_end_now()
returns table (
  id bigint,
  type text,
  stamp_start bigint,
  stamp_end bigint,
  stopped_at bigint,
  stop_kind text,
  planned_end bigint
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  before_end text;
  after_end text;
  stopped jsonb := '[]';
begin
  if not (select private.is_namecard_owner()) then
    raise exception using
      errcode = '42501',
      message = 'permission denied for function namecard_end_now',
      hint = 'Only the card''s owners may end what visitors get.';
  end if;
  select string_agg(concat_ws(',', t.type, t."from", t."to"), ';' order by t."from")
  into before_end
  from public.namecard_timeline_at(now_ms, 1000) as t;

  -- A block of its own is a savepoint: when stopping the entries changes nothing visitors
  -- would notice, raising inside it rolls the update back and nothing is stored.
  begin
    with s as (
      update public.namecard as n
      set stamp_end = now_ms, stopped_at = now_ms, stop_kind = 'ended', planned_end = n.stamp_end
      where (n.stamp_start is null or n.stamp_start <= now_ms)
        and n.stamp_end > now_ms
      returning n.id, n.type, n.stamp_start, n.stamp_end, n.stopped_at, n.stop_kind, n.planned_end
    )
    select coalesce(jsonb_agg(to_jsonb(s) order by s.id desc), '[]') into stopped from s;

    select string_agg(concat_ws(',', t.type, t."from", t."to"), ';' order by t."from")
    into after_end
    from public.namecard_timeline_at(now_ms, 1000) as t;
    if after_end is not distinct from before_end then
      raise exception using errcode = 'NCNOP';
    end if;
  exception when sqlstate 'NCNOP' then
    stopped := '[]';
  end;

  return query
    select s.id, s.type, s.stamp_start, s.stamp_end, s.stopped_at, s.stop_kind, s.planned_end
    from jsonb_to_recordset(stopped) as s(
      id bigint, type text, stamp_start bigint, stamp_end bigint,
      stopped_at bigint, stop_kind text, planned_end bigint
    )
    order by s.id desc;
end;
$$;

comment on function public.namecard_end_now() is
  'Owners: visitors get the main site now; every entry in force stops, later ones stay.';

-- Cancel: one entry stops counting for good. A running entry ends now, a scheduled one never
-- starts (its end is brought to its start). Refused for an unknown entry (PT404) and for one
-- that has already ended, been ended early or cancelled (PT409); PostgREST answers an error
-- raised with SQLSTATE 'PTxyz' with HTTP status xyz. Owners only. Answers the entry.
create function public.namecard_cancel(entry_id bigint)
returns table (
  id bigint,
  type text,
  stamp_start bigint,
  stamp_end bigint,
  stopped_at bigint,
  stop_kind text,
  planned_end bigint
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  entry public.namecard%rowtype;
begin
  if not (select private.is_namecard_owner()) then
    raise exception using
      errcode = '42501',
      message = 'permission denied for function namecard_cancel',
      hint = 'Only the card''s owners may cancel an entry.';
  end if;
  select * into entry from public.namecard as n where n.id = entry_id for update;
  if not found then
    raise exception using
      errcode = 'PT404',
      message = format('There is no entry %s', entry_id);
  end if;
  if entry.stop_kind = 'cancelled' then
    raise exception using
      errcode = 'PT409',
      message = format('Entry %s was already cancelled', entry_id);
  end if;
  if entry.stamp_end <= now_ms then
    raise exception using
      errcode = 'PT409',
      message = case when entry.stop_kind = 'ended'
        then format('Entry %s was already ended early', entry_id)
        else format('Entry %s has already ended', entry_id) end;
  end if;

  return query
    update public.namecard as n
    set stamp_end = greatest(coalesce(n.stamp_start, now_ms), now_ms),
        stopped_at = now_ms,
        stop_kind = 'cancelled',
        planned_end = n.stamp_end
    where n.id = entry_id
    returning n.id, n.type, n.stamp_start, n.stamp_end, n.stopped_at, n.stop_kind, n.planned_end;
end;
$$;

comment on function public.namecard_cancel(bigint) is
  'Owners: the entry never counts again (running: ends now; scheduled: never starts).';

-- Owners only: anon has no EXECUTE (PostgREST then answers 404 PGRST202, as hosted Supabase
-- does for a function the role may not run); a signed-in non-owner is refused inside (42501).
revoke all on function public.namecard_end_now() from public, anon;
revoke all on function public.namecard_cancel(bigint) from public, anon;
grant execute on function public.namecard_end_now() to authenticated, service_role;
grant execute on function public.namecard_cancel(bigint) to authenticated, service_role;
