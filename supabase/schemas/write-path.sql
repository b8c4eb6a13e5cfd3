-- The writes of a card's editors and owners (and of its editor tokens): set, set a series, end
-- now, cancel, and the owners' remove a profile. Each is one RPC on the database's clock that
-- answers what it stored and the card's status after it (as namecard_status answers it), so that
-- a face shows what the server did without another read. Each takes the card last, by its slug;
-- the checks come first, before anything of the card is read: private.namecard_card_id (a card
-- of the caller's) and private.namecard_check_writer (the role), cards.sql. Security definer:
-- nobody writes the tables directly.

-- A write's answer: its own part and the card's status after it.
create or replace function private.namecard_answer(card bigint, part jsonb)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select part || (select to_jsonb(s) from private.namecard_status_of(card) as s)
$$;

revoke all on function private.namecard_answer(bigint, jsonb) from public;

-- Stops the entries of ids not stopped yet, at now_ms, as `kind` (ended or cancelled): the end
-- becomes now (or the start, for one that has not started), the planned end is kept. Answers
-- them, newest first, without the audit columns.
create or replace function private.namecard_stop_entries(ids bigint[], kind text, now_ms bigint)
returns jsonb
language sql
set search_path = ''
as $$
  with s as (
    update public.namecard as n
    set stamp_end = greatest(coalesce(n.stamp_start, now_ms), now_ms),
      stopped_at = now_ms,
      stop_kind = kind,
      planned_end = n.stamp_end
    where n.id = any (ids) and n.stop_kind is null
    returning n.*
  )
  select coalesce(jsonb_agg(to_jsonb(s) - 'created_at' - 'created_by' order by s.id desc), '[]')
  from s
$$;

revoke all on function private.namecard_stop_entries(bigint[], text, bigint) from public;

-- Stores an entry in the card; its creator is the person calling (none for a card token).
create or replace function public.namecard_set(
  type text, stamp_start bigint, stamp_end bigint, card text
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  stored jsonb;
begin
  perform private.namecard_check_writer(cid, 'editor', 'namecard_set', true);
  insert into public.namecard as n (card_id, type, stamp_start, stamp_end, created_by)
  values (cid, namecard_set.type, namecard_set.stamp_start, namecard_set.stamp_end,
    (select auth.uid()))
  returning to_jsonb(n) into stored;
  return private.namecard_answer(cid, jsonb_build_object('entry', stored));
end;
$$;

comment on function public.namecard_set(text, bigint, bigint, text) is
  'Editors and owners (and editor tokens): stores an entry in the card (slug); answers it and what visitors get now.';

revoke all on function public.namecard_set(text, bigint, bigint, text) from public;
grant execute on function public.namecard_set(text, bigint, bigint, text)
  to anon, authenticated, service_role;

-- Stores a weekly series in the card; the weekdays are kept sorted, each once; its creator is the
-- person calling (none for a card token).
create or replace function public.namecard_set_series(
  type text, weekdays smallint[], start_time time without time zone,
  end_time time without time zone, time_zone text, card text,
  first_date date DEFAULT NULL::date, last_date date DEFAULT NULL::date
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  stored jsonb;
begin
  perform private.namecard_check_writer(cid, 'editor', 'namecard_set_series', true);
  insert into public.namecard_series as s
    (card_id, type, weekdays, start_time, end_time, time_zone, first_date, last_date, created_by)
  values (
    cid,
    namecard_set_series.type,
    coalesce((
      select array_agg(distinct u.w order by u.w) from unnest(namecard_set_series.weekdays) as u (w)
    ), '{}'),
    namecard_set_series.start_time,
    namecard_set_series.end_time,
    namecard_set_series.time_zone,
    namecard_set_series.first_date,
    namecard_set_series.last_date,
    (select auth.uid())
  )
  returning to_jsonb(s) into stored;
  return private.namecard_answer(cid, jsonb_build_object('series', stored));
end;
$$;

comment on function public.namecard_set_series(text, smallint[], time without time zone, time without time zone, text, text, date, date) is
  'Editors and owners (and editor tokens): stores a weekly series in the card (slug); answers it and what visitors get now.';

revoke all on function public.namecard_set_series(text, smallint[], time without time zone, time without time zone, text, text, date, date) from public;
grant execute on function public.namecard_set_series(text, smallint[], time without time zone, time without time zone, text, text, date, date) to anon, authenticated, service_role;

-- A card's timeline from now_ms to horizon as text, to compare before and after a change; null
-- when the walk stops short of horizon, at 100 segments. A comparison that cannot be made counts
-- as a change: an entry lasting to 2199 under a daily series would otherwise walk 8,000 steps
-- twice, past the owner's statement time-out (round 5).
create or replace function private.namecard_timeline_text(card bigint, now_ms bigint, horizon bigint)
returns text
language sql
stable
set search_path = ''
as $$
  select case when bool_or(t."to" is null or t."to" >= horizon) then
    string_agg(concat_ws(',', t.type, t."from", least(t."to", horizon)), ';' order by t."from")
  end
  from private.namecard_timeline_until(card, now_ms, horizon, 100) as t
$$;

revoke all on function private.namecard_timeline_text(bigint, bigint, bigint) from public;

-- End now: visitors get the main site now. Every entry in force stops (the winner and the older
-- ones that would come back after it), and so does every series occurrence in force (a stop
-- row; the series stays); what starts later stays. When that would change nothing visitors
-- get, nothing is stored ('ended' is empty). Entries another call stopped meanwhile are
-- answered as 'already_stopped'.
create or replace function public.namecard_end_now(card text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  seen bigint[];
  horizon bigint;
  raced jsonb;
  before_end text;
  stopped jsonb := '[]';
begin
  perform private.namecard_check_writer(cid, 'editor', 'namecard_end_now', true);
  -- The entries in force and not stopped, as this call first sees them, locked in id order so
  -- that two calls never wait on each other in a cycle. A call that waits here sees, from its
  -- next statement on (read committed), what the other one stored.
  select coalesce(array_agg(n.id), '{}') into seen
  from public.namecard as n
  where n.card_id = cid
    and (n.stamp_start is null or n.stamp_start <= now_ms)
    and n.stamp_end > now_ms
    and n.stop_kind is null;
  perform 1 from public.namecard as n where n.id = any(seen) order by n.id for update;

  select coalesce(jsonb_agg(to_jsonb(n) - 'created_at' - 'created_by' order by n.id desc), '[]')
  into raced
  from public.namecard as n
  where n.id = any(seen) and n.stop_kind is not null;

  -- What is stopped could matter only until the latest end of what is in force now: the
  -- timelines before and after are compared that far.
  select coalesce(greatest(
    (select max(n.stamp_end) from public.namecard as n
      where n.card_id = cid
        and (n.stamp_start is null or n.stamp_start <= now_ms) and n.stamp_end > now_ms),
    (select max(o.stamp_end) from private.namecard_occurrences_of(cid, now_ms, now_ms + 1) as o)
  ), now_ms + 1) into horizon;
  before_end := private.namecard_timeline_text(cid, now_ms, horizon);

  -- A block of its own is a savepoint: when stopping changes nothing visitors would notice,
  -- raising inside it rolls the stops back and nothing is stored.
  begin
    stopped := private.namecard_stop_entries(array(
      select n.id from public.namecard as n
      where n.card_id = cid
        and (n.stamp_start is null or n.stamp_start <= now_ms)
        and n.stamp_end > now_ms
        and n.stop_kind is null
    ), 'ended', now_ms);

    -- At most one stop row per occurrence, so an end racing another stops it once.
    with occ as (
      select o.id, o.type, o.stamp_start, o.planned_end
      from private.namecard_occurrences_of(cid, now_ms, now_ms + 1) as o
    ), x as (
      insert into public.namecard_series_stop as x (card_id, series_id, occurrence_start, stopped_at)
      select cid, occ.id, occ.stamp_start, now_ms from occ
      on conflict do nothing
      returning x.series_id, x.occurrence_start, x.stopped_at
    )
    select stopped || coalesce(jsonb_agg(jsonb_build_object(
      'id', x.series_id, 'type', occ.type, 'stamp_start', x.occurrence_start,
      'stamp_end', x.stopped_at, 'stopped_at', x.stopped_at, 'stop_kind', 'ended',
      'planned_end', occ.planned_end, 'series', true
    ) order by x.series_id desc), '[]')
    into stopped
    from x join occ on occ.id = x.series_id and occ.stamp_start = x.occurrence_start;

    if before_end is not null
      and private.namecard_timeline_text(cid, now_ms, horizon) is not distinct from before_end
    then
      raise exception using errcode = 'NCNOP';
    end if;
  exception when sqlstate 'NCNOP' then
    stopped := '[]';
  end;

  return private.namecard_answer(
    cid, jsonb_build_object('ended', stopped, 'already_stopped', raced));
end;
$$;

comment on function public.namecard_end_now(text) is
  'Editors and owners (and editor tokens): visitors of the card (slug) get the main site now; every entry in force stops, later ones stay.';

revoke all on function public.namecard_end_now(text) from public;
grant execute on function public.namecard_end_now(text) to anon, authenticated, service_role;

-- Cancel: one entry or series never counts again. A running entry ends now, a scheduled one
-- never starts; a series' occurrence in force ends now and later ones never start. An unknown
-- id (or one of another card) is PT404; one already cancelled, ended early or over is PT409,
-- saying which.
create or replace function public.namecard_cancel(entry_id bigint, card text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  entry public.namecard%rowtype;
  series public.namecard_series%rowtype;
  cancelled jsonb;
begin
  perform private.namecard_check_writer(cid, 'editor', 'namecard_cancel', true);
  -- Locked, and read as the last call that changed it left it (read committed). An id of
  -- another card is no entry of this one.
  select * into entry from public.namecard as n
  where n.id = entry_id and n.card_id = cid for update;
  if not found then
    -- Not an entry: a series (ids are shared)?
    select * into series from public.namecard_series as s
    where s.id = entry_id and s.card_id = cid for update;
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
    if (select private.namecard_series_until(r) from private.namecard_series_rule as r
        where r.id = entry_id) <= now_ms then
      raise exception using
        errcode = 'PT409',
        message = format('Series %s has already ended', entry_id);
    end if;
    update public.namecard_series as s
    set stopped_at = now_ms, stop_kind = 'cancelled'
    where s.id = entry_id
    returning to_jsonb(s) || jsonb_build_object('series', true) into cancelled;
    return private.namecard_answer(cid, jsonb_build_object('cancelled', cancelled));
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
  cancelled := private.namecard_stop_entries(array[entry_id], 'cancelled', now_ms) -> 0;
  return private.namecard_answer(cid, jsonb_build_object('cancelled', cancelled));
end;
$$;

comment on function public.namecard_cancel(bigint, text) is
  'Editors and owners (and editor tokens): the entry or series of the card (slug) never counts again (running: ends now; scheduled: never starts).';

revoke all on function public.namecard_cancel(bigint, text) from public;
grant execute on function public.namecard_cancel(bigint, text) to anon, authenticated, service_role;

-- Owners: removes a profile of the card (the delete trigger marks it, or refuses naming what
-- uses it); answers the row as it is after (none for a name the card has no profile of).
create or replace function public.namecard_remove_profile(profile_name text, card text)
returns setof public.namecard_profile
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_remove_profile', true);
  delete from public.namecard_profile as p where p.card_id = cid and p.name = profile_name;
  return query select * from public.namecard_profile as p
    where p.card_id = cid and p.name = profile_name;
end;
$$;

revoke all on function public.namecard_remove_profile(text, text) from public;
grant execute on function public.namecard_remove_profile(text, text) to authenticated, service_role;
