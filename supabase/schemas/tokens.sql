-- Card tokens: a script's credential for one card and one role, so that CI never holds a
-- person's password. A token is `nct_` and 32 base64url characters (192 bits from PostgreSQL's
-- strong random source); the server keeps only its sha256, shown once by namecard_token_create.
-- Owners create, list and revoke them:
--   namecard_token_create(name, card, role, valid_seconds)   owner: {token, name, role, card, expires}
--   namecard_tokens(card)                                     owner: name, role, created, creator, expiry, last use
--   namecard_token_revoke(name, card)                         owner
-- A token is a caller, not a door: a script sends it in the header `x-namecard-token` (never in a
-- URL) with the anon or publishable key, and calls the same functions, views and tables a member
-- does. PostgREST's pre-request function (private.namecard_pre_request, set on the role
-- `authenticator` as Supabase's "Securing your API" guide sets one) checks it once per request;
-- from then on private.namecard_cards_where and private.namecard_role_on (cards.sql) answer the
-- token's card with the token's role, so that row-level security and every function's check treat
-- it as a member of that one card. Refusals end the request before anything runs: PT401 (401)
-- with detail `invalid token` (unknown or malformed: whether a token ever existed is not said),
-- `token revoked`, `token expired`, `card removed` or `creator not an owner` (the one who made it
-- no longer owns the card); a role too low is the functions' own 42501 `needs editor`.

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

-- THE check of every request that carries a card token (header x-namecard-token): the token's
-- card, role and id for this transaction (private.namecard_cards_where reads them), or the
-- refusal. An unknown or malformed secret is refused as `invalid token` (one indexed probe of the
-- hash; nothing says whether such a token ever existed). Only the holder of a real secret learns
-- that it was revoked, expired, that its card was removed or that its creator no longer owns the
-- card. A token goes with the anon key, never with a person's session (PT400). A use marks
-- last_used_at at most once a minute, in a transaction that may write (a GET's is read-only).
-- Run by PostgREST before every request (db-pre-request), as the request's role: a request
-- without the header costs one settings read. Security definer: the tokens are nobody's to read.
create or replace function private.namecard_pre_request()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  secret text := nullif(current_setting('request.headers', true), '')::json ->> 'x-namecard-token';
  t private.namecard_token%rowtype;
  why text;
begin
  if secret is null then
    return;
  end if;
  if (select auth.uid()) is not null then
    raise exception using
      errcode = 'PT400',
      message = 'A request carries a session or a card token, not both',
      detail = 'token with a session',
      hint = 'Unset NAMECARD_TOKEN to act as yourself, or send the token with the anon key alone.';
  end if;
  if secret ~ '^nct_[A-Za-z0-9_-]{32}$' then
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
  perform set_config('namecard.token_card', t.card_id::text, true),
    set_config('namecard.token_role', t.role, true),
    set_config('namecard.token_id', t.id::text, true);
  if current_setting('transaction_read_only') = 'off' then
    update private.namecard_token as k set last_used_at = now()
    where k.id = t.id and (k.last_used_at is null or k.last_used_at <= now() - interval '1 minute');
  end if;
end;
$$;

comment on function private.namecard_pre_request() is
  'PostgREST''s pre-request check: with a card token in the header x-namecard-token, the token''s card and role for this transaction, or PT401 (invalid token, token revoked, token expired, card removed, creator not an owner).';

revoke all on function private.namecard_pre_request() from public;
grant execute on function private.namecard_pre_request() to anon, authenticated, service_role;

-- PostgREST calls the check before every request (in-database configuration, read by PostgREST
-- at start and on NOTIFY pgrst, 'reload config'): a role setting, the server's, which the schema
-- comparison cannot see, so the migration that adds or changes it carries it by hand.
alter role authenticator set pgrst.db_pre_request = 'private.namecard_pre_request';

-- Who the caller is: {kind: person, email} for a signed-in person, {kind: token, name, role,
-- card, card_name, expires} for a card token (expires null: never), {kind: anon} otherwise.
-- What `namecard whoami` and `doctor` say, from the server, not from what the client holds.
create or replace function public.namecard_caller()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when nullif(current_setting('namecard.token_id', true), '') is not null then (
      select jsonb_build_object('kind', 'token', 'name', k.name, 'role', k.role,
        'card', c.slug, 'card_name', c.name, 'expires', k.expires_at)
      from private.namecard_token as k
      join public.namecard_card as c on c.id = k.card_id
      where k.id = nullif(current_setting('namecard.token_id', true), '')::bigint
    )
    when (select auth.uid()) is not null then (
      select jsonb_build_object('kind', 'person', 'email', u.email)
      from auth.users as u where u.id = (select auth.uid())
    )
    else jsonb_build_object('kind', 'anon')
  end
$$;

comment on function public.namecard_caller() is
  'Who calls: {kind: person, email}, {kind: token, name, role, card, card_name, expires} or {kind: anon}.';

revoke all on function public.namecard_caller() from public;
grant execute on function public.namecard_caller() to anon, authenticated, service_role;

-- Owners: a new token for the card, shown once in this answer; valid_seconds null is a token
-- that never expires (default 90 days).
create or replace function public.namecard_token_create(
  name text, card text, role text DEFAULT 'editor'::text, valid_seconds integer DEFAULT 7776000
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
    >= private.namecard_limit('tokens')
  then
    raise exception using
      errcode = 'PT409',
      message = format('A card has at most %s tokens: revoke one first', private.namecard_limit('tokens')),
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
  'Owners: a token (nct_…, shown only in this answer) for the card (slug) with role editor|viewer, valid for valid_seconds (default 90 days; null: never). Answers {token, name, role, card, expires}; only its sha256 is kept.';

revoke all on function public.namecard_token_create(text, text, text, integer) from public;
grant execute on function public.namecard_token_create(text, text, text, integer) to authenticated, service_role;

-- Owners: the card's live tokens, newest first. Never the secret or its hash.
create or replace function public.namecard_tokens(card text)
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
create or replace function public.namecard_token_revoke(name text, card text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  done jsonb;
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_token_revoke', true);
  update private.namecard_token as k set revoked_at = now()
  where k.card_id = cid and k.name = namecard_token_revoke.name and k.revoked_at is null
  returning jsonb_build_object('name', k.name, 'role', k.role, 'revoked_at', k.revoked_at) into done;
  if done is null then
    raise exception using
      errcode = 'PT404',
      message = format('There is no token %s on this card', left(namecard_token_revoke.name, 40)),
      detail = 'no such token',
      hint = 'The card''s tokens: namecard token list.';
  end if;
  return done || jsonb_build_object(
    'card', (select c.slug from public.namecard_card as c where c.id = cid));
end;
$$;

comment on function public.namecard_token_revoke(text, text) is
  'Owners: revokes the card''s token of this name at once; answers {name, role, revoked_at, card}. PT404 no such token.';

revoke all on function public.namecard_token_revoke(text, text) from public;
grant execute on function public.namecard_token_revoke(text, text) to authenticated, service_role;
