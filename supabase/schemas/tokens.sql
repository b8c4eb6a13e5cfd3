-- Card tokens (issue 41): a script's credential for one card and one role, so that CI never
-- holds a person's password. A token is `nct_` and 32 base64url characters (192 bits from
-- PostgreSQL's strong random source); the server keeps only its sha256, shown once by
-- namecard_token_create. Owners create, list and revoke them:
--   namecard_token_create(name, role, card, valid_seconds)   owner: {token, name, role, card, expires}
--   namecard_tokens(card)                                     owner: name, role, created, creator, expiry, last use
--   namecard_token_revoke(name, card)                         owner
-- A script uses one through functions that take the token first (in the POST body, never in a
-- URL) and act on the token's card with its role, never as a person; no session is needed:
--   namecard_token_whoami(token)                              the token's card, name, role and expiry
--   namecard_token_status(token)                              viewer: the status (as namecard_card_status)
--   namecard_token_entries(token, max_rows)                   viewer: the newest entries
--   namecard_token_set(token, type, stamp_start, stamp_end)   editor
--   namecard_token_end_now(token)                             editor
--   namecard_token_cancel(token, entry_id)                    editor
-- Refusals: PT401 with detail `invalid token` (unknown or malformed: whether a token ever
-- existed is not said), `token revoked`, `token expired`, `card removed` or `creator not an
-- owner` (the one who made it no longer owns the card); 42501 `needs editor` for a viewer
-- token's write.

create table private.namecard_token (
  id bigint generated always as identity primary key,
  card_id bigint not null references public.namecard_card (id),
  name text not null
    constraint namecard_token_name_form check (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$'),
  role text not null constraint namecard_token_role_known check (role in ('editor', 'viewer')),
  -- sha256 of the secret: the secret itself is shown once, to the owner who made it. A fast
  -- hash is right for 192 random bits (docs/security.md, "Card tokens").
  hash bytea not null constraint namecard_token_hash_key unique,
  created_at timestamptz not null default now(),
  created_by uuid references auth.users (id) on delete set null,
  expires_at timestamptz null,
  last_used_at timestamptz null,
  revoked_at timestamptz null,
  constraint namecard_token_times_range check (
    created_at >= timestamptz '1970-01-01 00:00:00+00'
    and created_at < timestamptz '2200-01-01 00:00:00+00'
    and (expires_at is null or (expires_at >= timestamptz '1970-01-01 00:00:00+00'
      and expires_at < timestamptz '2200-01-01 00:00:00+00'))
    and (last_used_at is null or (last_used_at >= timestamptz '1970-01-01 00:00:00+00'
      and last_used_at < timestamptz '2200-01-01 00:00:00+00'))
    and (revoked_at is null or (revoked_at >= timestamptz '1970-01-01 00:00:00+00'
      and revoked_at < timestamptz '2200-01-01 00:00:00+00'))
  )
);

comment on table private.namecard_token is
  'Card tokens (their sha256 only): a name unique among a card''s live tokens, a role (editor|viewer), an optional expiry, the last use.';

-- A name names one live token of its card; a revoked token's name may be given again.
create unique index namecard_token_live_name_key
  on private.namecard_token (card_id, name) where revoked_at is null;

alter table private.namecard_token enable row level security;
revoke all on table private.namecard_token from public, anon, authenticated;

-- The most live tokens a card may have: what listing and creating them cost stays bounded.
create or replace function private.namecard_token_limit()
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select 50
$$;

revoke all on function private.namecard_token_limit() from public;

-- THE check of every token use: the card the token acts on, when it is live and its role is at
-- least `need`; else the refusal. An unknown or malformed secret is refused as `invalid token`
-- (one indexed probe of the hash; nothing says whether such a token ever existed). Only the
-- holder of a real secret learns that it was revoked, expired, that its card was removed or that
-- its creator no longer owns the card. A use marks last_used_at at most once a minute, so that
-- a busy script does not write a row each call.
create or replace function private.namecard_token_use(secret text, need text, fn text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  t private.namecard_token%rowtype;
  why text;
begin
  if secret is not null and secret ~ '^nct_[A-Za-z0-9_-]{32}$' then
    select * into t from private.namecard_token as k
    where k.hash = sha256(convert_to(secret, 'UTF8'));
  end if;
  if t.id is null then
    raise exception using
      errcode = 'PT401',
      message = 'This token is not valid',
      detail = 'invalid token',
      hint = 'Check NAMECARD_TOKEN, or ask an owner of the card for a new token (namecard token create).';
  end if;
  why := case
    when t.revoked_at is not null then 'token revoked'
    when t.expires_at is not null and t.expires_at <= now() then 'token expired'
    when exists (select from public.namecard_card as c where c.id = t.card_id and c.removed_at is not null)
      then 'card removed'
    when not exists (
      select from private.namecard_member as m
      where m.card_id = t.card_id and m.user_id = t.created_by and m.role = 'owner'
    ) then 'creator not an owner'
  end;
  if why is not null then
    raise exception using
      errcode = 'PT401',
      message = case why
        when 'token revoked' then format('The token %s was revoked', t.name)
        when 'token expired' then format('The token %s expired at %s', t.name,
          to_char(t.expires_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'))
        when 'card removed' then format('The card of the token %s was removed', t.name)
        else format('The token %s no longer works: the owner who created it no longer owns the card', t.name)
      end,
      detail = why,
      hint = 'Ask an owner of the card for a new token (namecard token create).';
  end if;
  if private.namecard_role_rank(t.role) < private.namecard_role_rank(need) then
    raise exception using
      errcode = '42501',
      message = format('permission denied for function %s', fn),
      detail = 'needs ' || need,
      hint = format('The token %s is a %s token: ask an owner of the card for an %s token.',
        t.name, t.role, need);
  end if;
  update private.namecard_token as k set last_used_at = now()
  where k.id = t.id and (k.last_used_at is null or k.last_used_at <= now() - interval '1 minute');
  return t.card_id;
end;
$$;

comment on function private.namecard_token_use(text, text, text) is
  'The card a token acts on when it is live and holds at least `need` (viewer|editor); else PT401 (invalid token, token revoked, token expired, card removed, creator not an owner) or 42501 needs <role>. Marks last_used_at at most once a minute.';

revoke all on function private.namecard_token_use(text, text, text) from public;

-- A live token of card cid by its name, or PT404.
create or replace function private.namecard_token_by_name(cid bigint, token_name text)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
declare
  found_id bigint;
begin
  select k.id into found_id from private.namecard_token as k
  where k.card_id = cid and k.name = token_name and k.revoked_at is null;
  if found_id is null then
    raise exception using
      errcode = 'PT404',
      message = format('There is no token %s on this card', left(token_name, 40)),
      detail = 'no such token',
      hint = 'The card''s tokens: namecard token list.';
  end if;
  return found_id;
end;
$$;

revoke all on function private.namecard_token_by_name(bigint, text) from public;

-- Owners: a new token for the card, shown once in this answer; valid_seconds null is a token
-- that never expires (default 90 days).
create or replace function public.namecard_token_create(
  name text, role text DEFAULT 'editor'::text, card text DEFAULT NULL::text,
  valid_seconds integer DEFAULT 7776000
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  secret text;
  until timestamptz;
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_token_create', true);
  if name is null or name !~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$' then
    raise exception using
      errcode = '22023',
      message = format('name must be 1 to 40 of A-Z, a-z, 0-9, ., _ and -, starting with a letter or digit, not %s',
        coalesce(left(name, 40), 'null'));
  end if;
  if role is null or role not in ('editor', 'viewer') then
    raise exception using
      errcode = '22023',
      message = format('role must be editor or viewer, not %s', coalesce(left(role, 40), 'null'));
  end if;
  if valid_seconds is not null and valid_seconds not between 60 and 315360000 then
    raise exception using
      errcode = '22023',
      message = format('valid_seconds must be from 60 (a minute) to 315360000 (10 years), or null (never), not %s',
        valid_seconds);
  end if;
  -- Creations for one card wait for each other here, so that the limit and the name hold.
  perform from public.namecard_card as c where c.id = cid for update;
  if exists (select from private.namecard_token as k
    where k.card_id = cid and k.name = namecard_token_create.name and k.revoked_at is null)
  then
    raise exception using
      errcode = '23505',
      message = format('The card already has a token %s: revoke it first, or choose another name', namecard_token_create.name),
      detail = 'token name taken';
  end if;
  if (select count(*) from private.namecard_token as k where k.card_id = cid and k.revoked_at is null)
    >= private.namecard_token_limit()
  then
    raise exception using
      errcode = 'PT409',
      message = format('A card has at most %s tokens: revoke one first', private.namecard_token_limit()),
      detail = 'token limit';
  end if;
  secret := 'nct_' || translate(encode(substring(sha256(convert_to(
    gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')) from 1 for 24), 'base64'),
    '+/', '-_');
  until := now() + make_interval(secs => valid_seconds);
  insert into private.namecard_token (card_id, name, role, hash, expires_at, created_by)
  values (cid, namecard_token_create.name, namecard_token_create.role,
    sha256(convert_to(secret, 'UTF8')), until, (select auth.uid()));
  return jsonb_build_object(
    'token', secret, 'name', namecard_token_create.name, 'role', namecard_token_create.role,
    'card', (select c.slug from public.namecard_card as c where c.id = cid), 'expires', until);
end;
$$;

comment on function public.namecard_token_create(text, text, text, integer) is
  'Owners: a token (nct_…, shown only in this answer) for the card (slug; null: the first card) with role editor|viewer, valid for valid_seconds (default 90 days; null: never). Answers {token, name, role, card, expires}; only its sha256 is kept.';

revoke all on function public.namecard_token_create(text, text, text, integer) from public;
grant execute on function public.namecard_token_create(text, text, text, integer) to authenticated, service_role;

-- Owners: the card's live tokens, newest first. Never the secret or its hash.
create or replace function public.namecard_tokens(card text DEFAULT NULL::text)
returns table (
  name text, role text, created_at timestamptz, creator text, expires_at timestamptz,
  last_used_at timestamptz, state text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_tokens', true);
  return query
    select k.name, k.role, k.created_at, u.email::text, k.expires_at, k.last_used_at,
      case
        when k.expires_at is not null and k.expires_at <= now() then 'expired'
        when not exists (
          select from private.namecard_member as m
          where m.card_id = cid and m.user_id = k.created_by and m.role = 'owner'
        ) then 'creator not an owner'
        else 'live'
      end
    from private.namecard_token as k
    left join auth.users as u on u.id = k.created_by
    where k.card_id = cid and k.revoked_at is null
    order by k.created_at desc, k.id desc;
end;
$$;

comment on function public.namecard_tokens(text) is
  'Owners: the card''s tokens not revoked (name, role, created_at, creator e-mail, expires_at: null never, last_used_at, state live|expired|creator not an owner), newest first.';

revoke all on function public.namecard_tokens(text) from public;
grant execute on function public.namecard_tokens(text) to authenticated, service_role;

-- Owners: the token stops at once (the next request with it is refused as `token revoked`).
create or replace function public.namecard_token_revoke(name text, card text DEFAULT NULL::text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  tid bigint;
  done jsonb;
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_token_revoke', true);
  tid := private.namecard_token_by_name(cid, namecard_token_revoke.name);
  update private.namecard_token as k set revoked_at = now()
  where k.id = tid
  returning jsonb_build_object('name', k.name, 'role', k.role, 'revoked_at', k.revoked_at) into done;
  return done || jsonb_build_object(
    'card', (select c.slug from public.namecard_card as c where c.id = cid));
end;
$$;

comment on function public.namecard_token_revoke(text, text) is
  'Owners: revokes the card''s token of this name at once; answers {name, role, revoked_at, card}. PT404 no such token.';

revoke all on function public.namecard_token_revoke(text, text) from public;
grant execute on function public.namecard_token_revoke(text, text) to authenticated, service_role;

-- Anyone holding a token: what it is (its card, its name, its role, its expiry).
create or replace function public.namecard_token_whoami(token text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_token_use(token, 'viewer', 'namecard_token_whoami');
begin
  return (
    select jsonb_build_object('card', c.slug, 'card_name', c.name, 'name', k.name,
      'role', k.role, 'expires', k.expires_at)
    from private.namecard_token as k
    join public.namecard_card as c on c.id = k.card_id
    where k.hash = sha256(convert_to(token, 'UTF8'))
  );
end;
$$;

comment on function public.namecard_token_whoami(text) is
  'A token''s card (slug and name), name, role and expiry (null: never); refusals as every token use.';

revoke all on function public.namecard_token_whoami(text) from public;
grant execute on function public.namecard_token_whoami(text) to anon, authenticated, service_role;

-- Viewer tokens and up: the card's status, as namecard_card_status answers it.
create or replace function public.namecard_token_status(token text)
returns table (
  now bigint, active jsonb, timeline jsonb, labels jsonb, url text, series_ahead jsonb
)
language plpgsql
security definer
set search_path = ''
set jit = 'off'
as $$
declare
  cid bigint := private.namecard_token_use(token, 'viewer', 'namecard_token_status');
begin
  return query
    select s.now, s.active, s.timeline, s.labels, s.url, s.series_ahead
    from public.namecard_status_of(cid) as s;
end;
$$;

comment on function public.namecard_token_status(text) is
  'Viewer tokens and up: the status of the token''s card, as namecard_card_status answers it.';

revoke all on function public.namecard_token_status(text) from public;
grant execute on function public.namecard_token_status(text) to anon, authenticated, service_role;

-- Viewer tokens and up: the card's newest entries (at most 1000), as a member reads them
-- without the audit columns.
create or replace function public.namecard_token_entries(token text, max_rows integer DEFAULT 100)
returns table (
  id bigint, type text, stamp_start bigint, stamp_end bigint, stopped_at bigint,
  stop_kind text, planned_end bigint
)
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_token_use(token, 'viewer', 'namecard_token_entries');
begin
  if max_rows is null or max_rows not between 1 and 1000 then
    raise exception using
      errcode = '22023',
      message = format('max_rows must be from 1 to 1000, not %s', coalesce(max_rows::text, 'null'));
  end if;
  return query
    select n.id, n.type, n.stamp_start, n.stamp_end, n.stopped_at, n.stop_kind, n.planned_end
    from public.namecard as n
    where n.card_id = cid
    order by n.id desc
    limit max_rows;
end;
$$;

comment on function public.namecard_token_entries(text, integer) is
  'Viewer tokens and up: the newest max_rows (1 to 1000, default 100) entries of the token''s card, newest first.';

revoke all on function public.namecard_token_entries(text, integer) from public;
grant execute on function public.namecard_token_entries(text, integer) to anon, authenticated, service_role;

-- Editor tokens: stores an entry in the token's card (as namecard_set; the entry's creator is
-- nobody, a token is not a person). Answers it and the card's status after it.
create or replace function public.namecard_token_set(
  token text, type text, stamp_start bigint, stamp_end bigint
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_token_use(token, 'editor', 'namecard_token_set');
  stored jsonb;
begin
  insert into public.namecard as n (card_id, type, stamp_start, stamp_end, created_by)
  values (cid, namecard_token_set.type, namecard_token_set.stamp_start,
    namecard_token_set.stamp_end, null)
  returning to_jsonb(n) into stored;
  return private.namecard_answer(cid, jsonb_build_object('entry', stored));
end;
$$;

comment on function public.namecard_token_set(text, text, bigint, bigint) is
  'Editor tokens: stores an entry in the token''s card, as namecard_set; answers it and what visitors get now.';

revoke all on function public.namecard_token_set(text, text, bigint, bigint) from public;
grant execute on function public.namecard_token_set(text, text, bigint, bigint) to anon, authenticated, service_role;

-- Editor tokens: end now on the token's card, as namecard_end_now.
create or replace function public.namecard_token_end_now(token text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  return private.namecard_end_now_of(
    private.namecard_token_use(token, 'editor', 'namecard_token_end_now'));
end;
$$;

comment on function public.namecard_token_end_now(text) is
  'Editor tokens: visitors of the token''s card get the main site now, as namecard_end_now.';

revoke all on function public.namecard_token_end_now(text) from public;
grant execute on function public.namecard_token_end_now(text) to anon, authenticated, service_role;

-- Editor tokens: cancels an entry or series of the token's card, as namecard_cancel.
create or replace function public.namecard_token_cancel(token text, entry_id bigint)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  return private.namecard_cancel_of(
    private.namecard_token_use(token, 'editor', 'namecard_token_cancel'), entry_id);
end;
$$;

comment on function public.namecard_token_cancel(text, bigint) is
  'Editor tokens: the entry or series of the token''s card never counts again, as namecard_cancel.';

revoke all on function public.namecard_token_cancel(text, bigint) from public;
grant execute on function public.namecard_token_cancel(text, bigint) to anon, authenticated, service_role;

-- Editor tokens: stores a weekly series in the token's card, as namecard_set_series.
create or replace function public.namecard_token_set_series(
  token text, type text, weekdays smallint[], start_time time without time zone,
  end_time time without time zone, time_zone text, first_date date DEFAULT NULL::date,
  last_date date DEFAULT NULL::date
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_token_use(token, 'editor', 'namecard_token_set_series');
  stored jsonb;
begin
  insert into public.namecard_series as s
    (card_id, type, weekdays, start_time, end_time, time_zone, first_date, last_date, created_by)
  values (
    cid,
    namecard_token_set_series.type,
    coalesce((
      select array_agg(distinct u.w order by u.w)
      from unnest(namecard_token_set_series.weekdays) as u (w)
    ), '{}'),
    namecard_token_set_series.start_time,
    namecard_token_set_series.end_time,
    namecard_token_set_series.time_zone,
    namecard_token_set_series.first_date,
    namecard_token_set_series.last_date,
    null
  )
  returning to_jsonb(s) into stored;
  return private.namecard_answer(cid, jsonb_build_object('series', stored));
end;
$$;

comment on function public.namecard_token_set_series(text, text, smallint[], time without time zone, time without time zone, text, date, date) is
  'Editor tokens: stores a weekly series in the token''s card, as namecard_set_series; answers it and what visitors get now.';

revoke all on function public.namecard_token_set_series(text, text, smallint[], time without time zone, time without time zone, text, date, date) from public;
grant execute on function public.namecard_token_set_series(text, text, smallint[], time without time zone, time without time zone, text, date, date) to anon, authenticated, service_role;

-- Viewer tokens and up: the card's series (at most 1000, newest first) and the occurrences
-- stopped by "end now" (at most 10000), as `list` and `calendar` read them.
create or replace function public.namecard_token_series(token text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_token_use(token, 'viewer', 'namecard_token_series');
begin
  return jsonb_build_object(
    'series', (
      select coalesce(jsonb_agg(to_jsonb(s) order by s.id desc), '[]')
      from (
        select s.id, s.type, s.weekdays, s.start_time, s.end_time, s.time_zone, s.first_date,
          s.last_date, s.stopped_at
        from public.namecard_series as s
        where s.card_id = cid
        order by s.id desc
        limit 1000
      ) as s
    ),
    'stops', (
      select coalesce(jsonb_agg(to_jsonb(x)), '[]')
      from (
        select x.series_id, x.occurrence_start, x.stopped_at
        from public.namecard_series_stop as x
        where x.card_id = cid
        limit 10000
      ) as x
    ));
end;
$$;

comment on function public.namecard_token_series(text) is
  'Viewer tokens and up: {series, stops} of the token''s card: its series (newest 1000) and the occurrences stopped early (10000 at most).';

revoke all on function public.namecard_token_series(text) from public;
grant execute on function public.namecard_token_series(text) to anon, authenticated, service_role;

-- Viewer tokens and up: the card's profiles (name, label, destination, removal), by name.
create or replace function public.namecard_token_profiles(token text)
returns table (name text, label text, url text, removed_at timestamptz)
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_token_use(token, 'viewer', 'namecard_token_profiles');
begin
  return query
    select p.name, p.label, p.url, p.removed_at from public.namecard_profile as p
    where p.card_id = cid
    order by p.name;
end;
$$;

comment on function public.namecard_token_profiles(text) is
  'Viewer tokens and up: the profiles of the token''s card (name, label, url: null the build''s, removed_at), by name.';

revoke all on function public.namecard_token_profiles(text) from public;
grant execute on function public.namecard_token_profiles(text) to anon, authenticated, service_role;

-- Viewer tokens and up: the card's visits per day, as namecard_visit_days answers a member.
create or replace function public.namecard_token_visit_days(token text, day_starts bigint[])
returns table (day integer, type text, via text, visits bigint)
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_token_use(token, 'viewer', 'namecard_token_visit_days');
begin
  return query select * from private.namecard_visit_days_of(cid, day_starts);
end;
$$;

comment on function public.namecard_token_visit_days(text, bigint[]) is
  'Viewer tokens and up: visits of the token''s card summed per day, as namecard_visit_days.';

revoke all on function public.namecard_token_visit_days(text, bigint[]) from public;
grant execute on function public.namecard_token_visit_days(text, bigint[]) to anon, authenticated, service_role;

-- Viewer tokens and up: what the card's lookup answers at up to 10 instants, as
-- namecard_preview (the instants anon may ask about: from a day back to the end of 2199).
create or replace function public.namecard_token_preview(token text, at_ms bigint[])
returns table (at bigint, id bigint, type text, stamp_start bigint, stamp_end bigint, series boolean)
language plpgsql
security definer
set search_path = ''
set jit = 'off'
as $$
declare
  cid bigint := private.namecard_token_use(token, 'viewer', 'namecard_token_preview');
begin
  return query select * from private.namecard_preview_of(cid, at_ms);
end;
$$;

comment on function public.namecard_token_preview(text, bigint[]) is
  'Viewer tokens and up: for each epoch ms in at_ms (at most 10), the entry or occurrence of the token''s card in force then, as namecard_preview.';

revoke all on function public.namecard_token_preview(text, bigint[]) from public;
grant execute on function public.namecard_token_preview(text, bigint[]) to anon, authenticated, service_role;
