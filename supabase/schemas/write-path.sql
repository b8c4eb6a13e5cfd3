-- The owner's writes: set, set a series, end now, cancel, remove a profile. Each is one RPC
-- that answers what was stored and the status after it, on the database's clock.

create or replace function public.namecard_set(type text, stamp_start bigint, stamp_end bigint)
returns jsonb
language plpgsql
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

comment on function public.namecard_set(type text, stamp_start bigint, stamp_end bigint) is
  'Owners: stores an entry (as the caller, RLS applies); answers it and what visitors get now.';

revoke all on function public.namecard_set(type text, stamp_start bigint, stamp_end bigint) from public;
grant execute on function public.namecard_set(type text, stamp_start bigint, stamp_end bigint) to authenticated, service_role;

create or replace function public.namecard_set_series(type text, weekdays smallint[], start_time time without time zone, end_time time without time zone, time_zone text, first_date date DEFAULT NULL::date, last_date date DEFAULT NULL::date)
returns jsonb
language plpgsql
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

comment on function public.namecard_set_series(type text, weekdays smallint[], start_time time without time zone, end_time time without time zone, time_zone text, first_date date, last_date date) is
  'Owners: stores a weekly series (as the caller, RLS applies); answers it and what visitors get now.';

revoke all on function public.namecard_set_series(type text, weekdays smallint[], start_time time without time zone, end_time time without time zone, time_zone text, first_date date, last_date date) from public;
grant execute on function public.namecard_set_series(type text, weekdays smallint[], start_time time without time zone, end_time time without time zone, time_zone text, first_date date, last_date date) to authenticated, service_role;

create or replace function public.namecard_end_now()
returns jsonb
language plpgsql
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

revoke all on function public.namecard_end_now() from public;
grant execute on function public.namecard_end_now() to authenticated, service_role;

create or replace function public.namecard_cancel(entry_id bigint)
returns jsonb
language plpgsql
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

comment on function public.namecard_cancel(entry_id bigint) is
  'Owners: the entry never counts again (running: ends now; scheduled: never starts).';

revoke all on function public.namecard_cancel(entry_id bigint) from public;
grant execute on function public.namecard_cancel(entry_id bigint) to authenticated, service_role;

create or replace function public.namecard_remove_profile(profile_name text)
returns setof namecard_profile
language plpgsql
set search_path = ''
as $$
begin
  delete from public.namecard_profile as p where p.name = profile_name;
  return query select * from public.namecard_profile as p where p.name = profile_name;
end;
$$;

revoke all on function public.namecard_remove_profile(profile_name text) from public;
grant execute on function public.namecard_remove_profile(profile_name text) to authenticated, service_role;

