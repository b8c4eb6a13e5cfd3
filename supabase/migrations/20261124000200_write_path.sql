-- The owner's writes in one request each, answering what visitors get afterwards.
--
-- `namecard set`, `end` and `cancel` used to send the write and then read namecard_status
-- again: two requests after the sign-in. Each write is now one SQL function called through
-- /rest/v1/rpc that stores the change and answers, in the same transaction, the status as the
-- view namecard_status gives it (the server's now, the active entry, the timeline). A
-- PostgREST call is one transaction: the answer is either the committed write with its status
-- or an error with nothing stored.
--
-- End now and cancel also stop racing each other: each locks the rows it changes
-- (`for update`), never overwrites a stop already recorded (planned_end keeps the entry's
-- original end), and the call that waited is told what the other one did.

-- The timeline walk, same signature and answers, one statement instead of a loop. The
-- PL/pgSQL loop ran two statements per step, and the API roles run with
-- plan_cache_mode = force_custom_plan (see the first migration), so each of them was planned
-- again at every step: 0.3-0.7 ms a step, 7-50 ms for 24 segments at 10^6 entries. Here the
-- walk is one recursive query, planned once per call: each step is the same three index
-- lookups as before (the winner at cur by namecard_active_at, inlined, and the first start
-- after cur that changes it), as parameterised index scans in a nested loop.
--
-- The rule is unchanged: at cur the winner w (none: main) holds until the earlier of its own
-- end and the first start, after cur, of an entry newer than w; with no winner, until the
-- first start after cur. Steps of one type make one segment. At most max_segments segments
-- are answered, and at most max_segments * 8 steps walked; when either stops the walk early,
-- the last segment answered has a non-null "to": more follows.
--
-- max_segments outside 1...1000 is refused (22023, which PostgREST answers with 400): anon
-- may call this function, and an unbounded walk would let anyone keep the database busy.
create or replace function public.namecard_timeline_at(at_ms bigint, max_segments integer default 24)
returns table (type text, "from" bigint, "to" bigint)
language plpgsql
stable
set search_path = ''
-- The planner prices the walk's steps far above what they cost (it cannot know that a step
-- finds a handful of rows), which crosses jit_above_cost: compiling it took ~50 ms for a
-- walk that runs in ~1 ms.
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
  return query
    with recursive walk (step, seg, cur, run_type, nxt) as (
      select 1, 1, at_ms, first.run_type, first.nxt
      from (
        select coalesce(a.type, 'main') as run_type,
          case when a.id is null then (
            select n.stamp_start from public.namecard as n
            where n.stamp_start > at_ms and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ) else coalesce((
            select n.stamp_start from public.namecard as n
            where n.id > a.id and n.stamp_start > at_ms and n.stamp_start < a.stamp_end
              and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), a.stamp_end) end as nxt
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
          case when a.id is null then (
            select n.stamp_start from public.namecard as n
            where n.stamp_start > w.nxt and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ) else coalesce((
            select n.stamp_start from public.namecard as n
            where n.id > a.id and n.stamp_start > w.nxt and n.stamp_start < a.stamp_end
              and n.stamp_end > n.stamp_start
            order by n.stamp_start limit 1
          ), a.stamp_end) end as nxt
        from (select 1) as one
        left join lateral public.namecard_active_at(w.nxt) as a on true
      ) as s
      where w.nxt is not null
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

-- Whether the caller's session still exists. An access token stays valid until it expires
-- (PostgREST checks only its signature and expiry), while the CLI now keeps one between runs
-- to write in one request: without this check a session ended on the server (`namecard
-- logout`, "sign out everywhere", the user deleted) would still write for up to an hour. A
-- token without a session_id claim (not one GoTrue issued for a sign-in) is not checked here;
-- row-level security still applies to it. Security definer: the API roles may not read
-- auth.sessions themselves.
create function private.namecard_session_live()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.jwt() ->> 'session_id') is null
    or exists (
      select 1 from auth.sessions as s
      where s.id::text = (select auth.jwt() ->> 'session_id')
    )
$$;

comment on function private.namecard_session_live() is
  'False when the caller''s access token names a session that no longer exists.';

revoke all on function private.namecard_session_live() from public;
grant execute on function private.namecard_session_live() to authenticated, service_role;

-- The write functions refuse a token of an ended session with 401 (PostgREST answers an error
-- raised with SQLSTATE 'PT401' with HTTP 401), before anything is written: the client then
-- refreshes its session, which the server refuses too, and the owner is told to sign in.

-- Set: inserts one entry as the caller (security invoker), so the table's row-level security
-- (owners only), its column grants and its check constraints decide exactly as for a direct
-- insert: a non-owner is refused with 42501, an unknown profile or a start not before the end
-- by the table's own constraints. Answers the stored row (every column an owner reads) under
-- `entry`, and `now`, `active`, `timeline` as namecard_status answers them after the insert.
create function public.namecard_set(type text, stamp_start bigint, stamp_end bigint)
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
  insert into public.namecard as n (type, stamp_start, stamp_end)
  values (namecard_set.type, namecard_set.stamp_start, namecard_set.stamp_end)
  returning jsonb_build_object(
    'id', n.id, 'type', n.type, 'stamp_start', n.stamp_start, 'stamp_end', n.stamp_end,
    'created_at', n.created_at, 'created_by', n.created_by, 'stopped_at', n.stopped_at,
    'stop_kind', n.stop_kind, 'planned_end', n.planned_end
  ) into stored;
  return jsonb_build_object('entry', stored)
    || (select to_jsonb(s) from public.namecard_status as s);
end;
$$;

comment on function public.namecard_set(text, bigint, bigint) is
  'Owners: stores an entry (as the caller, RLS applies); answers it and what visitors get now.';

-- The two functions change their answer (a row set before, one JSON object now): PostgreSQL
-- cannot change a function's result type in place, so they are dropped and created again,
-- with the same arguments, refusals and grants.
drop function public.namecard_end_now();
drop function public.namecard_cancel(bigint);

-- End now: every entry in force now (the winner, and any older one that would come back
-- after it) stops now; entries that start later stay scheduled. Owners only. When that would
-- not change the timeline, nothing is stored. Answers:
--   ended            the entries this call stopped, newest first (empty when none);
--   already_stopped  the entries in force when this call began that another call (a cancel,
--                    another end) stopped while this one waited for their lock: what that
--                    call did, with its stop_kind, stopped_at and planned_end;
--   now, active, timeline   as namecard_status answers them afterwards.
create function public.namecard_end_now()
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  seen bigint[];
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
        -- A stop already recorded is never overwritten: planned_end stays the original end.
        and n.stop_kind is null
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
create function public.namecard_cancel(entry_id bigint)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  entry public.namecard%rowtype;
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
    raise exception using
      errcode = 'PT404',
      message = format('There is no entry %s', entry_id);
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
-- answers 401 without a session); a signed-in non-owner is refused inside (42501, or by the
-- insert policy for namecard_set).
revoke all on function public.namecard_set(text, bigint, bigint) from public, anon;
revoke all on function public.namecard_end_now() from public, anon;
revoke all on function public.namecard_cancel(bigint) from public, anon;
grant execute on function public.namecard_set(text, bigint, bigint) to authenticated, service_role;
grant execute on function public.namecard_end_now() to authenticated, service_role;
grant execute on function public.namecard_cancel(bigint) to authenticated, service_role;
