-- What a signed-in user does with cards and people, each one RPC (security definer: the members
-- and invitations are nobody's to read or write directly):
--   namecard_cards()                              the caller's cards, with their role
--   namecard_caller()                             who the caller is: a person or a card token
--   namecard_card_add(slug, name)                 a new card, the caller its owner
--   namecard_card_rename(card, name)              owner
--   namecard_card_remove(card)                    owner (never the card main)
--   namecard_members(card)                        owner: the members, by e-mail
--   namecard_member_invite(role, card, valid_seconds)   owner: a one-time code, shown once
--   namecard_member_accept(code)                  anyone signed in: joins the code's card
--   namecard_member_invites(card)                 owner: the open codes (never the code itself)
--   namecard_member_revoke_invite(id, card)       owner: an open code stops working
--   namecard_member_remove(email, card)           owner, or a member leaving
--   namecard_member_role(email, role, card)       owner
-- `card` is a slug. Refusals: PT401 the session was signed out; PT404 no such card among the
-- caller's (never saying whether it exists); 42501 with detail `needs <role>` (or `needs a
-- person`: a card token manages no cards or people); PT409 the last owner or the card main;
-- 22023 a malformed argument, naming it; 23514 a limit reached, naming it.

-- The caller's live cards by slug: id, slug, name and the caller's role. A card token's caller
-- has one: the token's card, with the token's role.
create or replace function public.namecard_cards()
returns table (id bigint, slug text, name text, role text)
language sql
stable
security definer
set search_path = ''
as $$
  select c.id, c.slug, c.name, private.namecard_role_on(c.id)
  from public.namecard_card as c
  where c.id = any (private.namecard_cards_where('viewer'))
  order by c.slug
$$;

comment on function public.namecard_cards() is
  'The caller''s live cards by slug: id, slug, name, role (owner|editor|viewer); a card token''s caller: its one card with the token''s role.';

revoke all on function public.namecard_cards() from public;
grant execute on function public.namecard_cards() to anon, authenticated, service_role;

-- One card as the card functions answer it.
create or replace function private.namecard_card_json(card bigint)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', c.id, 'slug', c.slug, 'name', c.name,
    'role', private.namecard_role_on(c.id), 'removed_at', c.removed_at)
  from public.namecard_card as c
  where c.id = card
$$;

revoke all on function private.namecard_card_json(bigint) from public;

-- A signed-in person whose session is live, or the refusal: PT401 for a session signed out;
-- 42501 for anon, and for a card token (`needs a person`: a token acts on its card's schedule,
-- never on cards or people).
create or replace function private.namecard_signed_in(fn text)
returns uuid
language plpgsql
stable
set search_path = ''
as $$
declare
  uid uuid := (select auth.uid());
begin
  if uid is null then
    raise exception using
      errcode = '42501',
      message = format('permission denied for function %s', fn),
      detail = case when nullif(current_setting('namecard.token_card', true), '') is not null
        then 'needs a person' end,
      hint = case when nullif(current_setting('namecard.token_card', true), '') is not null
        then 'A card token cannot do this: sign in as a member of the card (namecard login).'
        else 'Sign in first.' end;
  end if;
  if not (select private.namecard_session_live()) then
    raise exception using errcode = 'PT401', message = 'The session has ended', hint = 'Sign in again.';
  end if;
  return uid;
end;
$$;

revoke all on function private.namecard_signed_in(text) from public;

-- A card's name: 1 to 60 characters, no control characters, no blank ends (22023 names it).
create or replace function private.namecard_card_name(name text, fallback text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  given text := coalesce(btrim(name), fallback);
begin
  if given is null or char_length(given) not between 1 and 60 or given ~ '[[:cntrl:]]' then
    raise exception using
      errcode = '22023',
      message = 'name must be 1 to 60 characters with no control characters';
  end if;
  return given;
end;
$$;

revoke all on function private.namecard_card_name(text, text) from public;

-- A new card: the caller becomes its owner, and it starts with the profiles main and photo,
-- which follow the build's settings until an owner gives them a URL. A slug is never given
-- twice, not even after its card was removed (23505); an account makes at most
-- private.namecard_limit('cards') cards, removed ones included (23514), so that nobody takes
-- every good slug.
create or replace function public.namecard_card_add(slug text, name text DEFAULT NULL::text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := private.namecard_signed_in('namecard_card_add');
  given text := lower(btrim(slug));
  made bigint;
begin
  if given is null or given !~ '^[a-z0-9][a-z0-9-]{1,31}$' then
    raise exception using
      errcode = '22023',
      message = format('slug must be 2 to 32 of a-z, 0-9 and -, not starting with -, not %s',
        coalesce(left(slug, 40), 'null'));
  end if;
  -- One account's cards are made one at a time, so that the limit holds.
  perform pg_advisory_xact_lock(hashtext('namecard_card_add:' || uid::text));
  if (select count(*) from public.namecard_card as c where c.created_by = uid)
    >= private.namecard_limit('cards')
  then
    raise exception using
      errcode = '23514',
      message = format('An account may make at most %s cards, and this one has made %s',
        private.namecard_limit('cards'),
        (select count(*) from public.namecard_card as c where c.created_by = uid)),
      detail = 'card limit',
      hint = 'A removed card counts too, since its slug is never given again.';
  end if;
  begin
    insert into public.namecard_card as c (slug, name, created_by)
    values (given, private.namecard_card_name(name, given), uid)
    returning c.id into made;
  exception when unique_violation then
    raise exception using
      errcode = '23505',
      message = format('The slug %s is taken: choose another (a slug is never given twice)', given),
      detail = 'slug taken';
  end;
  insert into private.namecard_member (card_id, user_id, role) values (made, uid, 'owner');
  insert into public.namecard_profile (card_id, name, label, url, created_by)
  values (made, 'main', 'Main Profile', null, uid), (made, 'photo', 'Photographer', null, uid);
  return private.namecard_card_json(made);
end;
$$;

comment on function public.namecard_card_add(text, text) is
  'Signed in: a new card with this slug (lower case, never given twice) and name (default: the slug); the caller is its owner. At most namecard_limit(cards) a person.';

revoke all on function public.namecard_card_add(text, text) from public;
grant execute on function public.namecard_card_add(text, text) to authenticated, service_role;

create or replace function public.namecard_card_rename(card text, name text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_card_rename', true);
  update public.namecard_card as c set name = private.namecard_card_name(namecard_card_rename.name, null)
  where c.id = cid;
  return private.namecard_card_json(cid);
end;
$$;

comment on function public.namecard_card_rename(text, text) is
  'Owners: gives the card (slug) a new name.';

revoke all on function public.namecard_card_rename(text, text) from public;
grant execute on function public.namecard_card_rename(text, text) to authenticated, service_role;

-- Removing is marking: the card then answers /go like an unknown slug, leaves its members'
-- lists and refuses every call; its slug is never given again. The card main stays: a bare /go/
-- link is it.
create or replace function public.namecard_card_remove(card text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_card_remove', true);
  if (select c.slug from public.namecard_card as c where c.id = cid) = 'main' then
    raise exception using
      errcode = 'PT409',
      message = 'The card main cannot be removed: a bare /go/ link is this card',
      detail = 'main card';
  end if;
  update public.namecard_card as c set removed_at = now() where c.id = cid;
  return private.namecard_card_json(cid);
end;
$$;

comment on function public.namecard_card_remove(text) is
  'Owners: removes the card (not main): /go then answers as for an unknown slug; the slug is never given again.';

revoke all on function public.namecard_card_remove(text) from public;
grant execute on function public.namecard_card_remove(text) to authenticated, service_role;

create or replace function public.namecard_members(card text)
returns table (email text, role text, since timestamptz, you boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_members', true);
  return query
    select u.email::text, m.role, m.created_at, m.user_id = (select auth.uid())
    from private.namecard_member as m
    join auth.users as u on u.id = m.user_id
    where m.card_id = cid
    order by private.namecard_role_rank(m.role) desc, lower(u.email);
end;
$$;

comment on function public.namecard_members(text) is
  'Owners: the card''s members (e-mail, role, since, you), owners first.';

revoke all on function public.namecard_members(text) from public;
grant execute on function public.namecard_members(text) to authenticated, service_role;

-- A one-time code for a role on the card: 'nci_' and 32 base64url characters, 192 bits from
-- two random UUIDs (PostgreSQL's strong random source) through sha256. Only its sha256 is kept;
-- the code is in this answer and nowhere else.
create or replace function public.namecard_member_invite(
  role text, card text, valid_seconds integer DEFAULT 604800
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  code text;
  until timestamptz;
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_member_invite', true);
  if role is null or role not in ('owner', 'editor', 'viewer') then
    raise exception using
      errcode = '22023',
      message = format('role must be owner, editor or viewer, not %s', coalesce(left(role, 40), 'null'));
  end if;
  if valid_seconds is null or valid_seconds not between 60 and 7776000 then
    raise exception using
      errcode = '22023',
      message = format('valid_seconds must be from 60 (a minute) to 7776000 (90 days), not %s',
        coalesce(valid_seconds::text, 'null'));
  end if;
  code := 'nci_' || translate(encode(substring(sha256(convert_to(
    gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')) from 1 for 24), 'base64'),
    '+/', '-_');
  until := now() + make_interval(secs => valid_seconds);
  insert into private.namecard_invitation (card_id, role, code_hash, expires_at, created_by)
  values (cid, namecard_member_invite.role, sha256(convert_to(code, 'UTF8')), until, (select auth.uid()));
  return jsonb_build_object(
    'code', code, 'role', namecard_member_invite.role,
    'card', (select c.slug from public.namecard_card as c where c.id = cid), 'expires', until);
end;
$$;

comment on function public.namecard_member_invite(text, text, integer) is
  'Owners: a one-time invitation code for role on the card (slug), valid for valid_seconds (default 7 days); answers {code, role, card, expires}. Only its sha256 is kept.';

revoke all on function public.namecard_member_invite(text, text, integer) from public;
grant execute on function public.namecard_member_invite(text, text, integer) to authenticated, service_role;

-- Whether an invitation code still works: unused, not revoked, not expired, its card live, and
-- its maker still an owner of the card, the only role that may invite. A code dies with its
-- maker's right to make it, as a card token does: an owner demoted or removed cannot come back
-- through a spare code made before. Inlined into its callers (accepting and listing codes).
create or replace function private.namecard_invitation_works(i private.namecard_invitation)
returns boolean
language sql
stable
set search_path = ''
as $$
  select i.used_at is null
    and i.revoked_at is null
    and i.expires_at > now()
    and exists (
      select from public.namecard_card as c
      where c.id = i.card_id and c.removed_at is null
    )
    and exists (
      select from private.namecard_member as m
      where m.card_id = i.card_id and m.user_id = i.created_by and m.role = 'owner'
    )
$$;

comment on function private.namecard_invitation_works(private.namecard_invitation) is
  'True while an invitation code can be accepted: unused, not revoked, not expired, its card live and its maker still an owner of it.';

revoke all on function private.namecard_invitation_works(private.namecard_invitation) from public;

-- Redeems a code: the caller becomes a member of its card with its role (a member already
-- keeps the higher of the two), and the code is used up. A code that does not work (unknown,
-- used, revoked, expired, for a removed card, or made by someone who no longer owns the card)
-- is refused alike (PT404), saying nothing of which.
create or replace function public.namecard_member_accept(code text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := private.namecard_signed_in('namecard_member_accept');
  invitation private.namecard_invitation%rowtype;
begin
  select i.* into invitation
  from private.namecard_invitation as i
  where i.code_hash = sha256(convert_to(coalesce(left(code, 200), ''), 'UTF8'))
    and private.namecard_invitation_works(i)
  for update of i;
  if not found then
    raise exception using
      errcode = 'PT404',
      message = 'This invitation code is not valid: it may have expired, been used or been revoked',
      detail = 'no such invitation',
      hint = 'Ask an owner of the card for a new code.';
  end if;
  update private.namecard_invitation as i set used_at = now(), used_by = uid where i.id = invitation.id;
  insert into private.namecard_member as m (card_id, user_id, role)
  values (invitation.card_id, uid, invitation.role)
  on conflict (card_id, user_id) do update set role = excluded.role
    where private.namecard_role_rank(excluded.role) > private.namecard_role_rank(m.role);
  return private.namecard_card_json(invitation.card_id);
end;
$$;

comment on function public.namecard_member_accept(text) is
  'Signed in: joins the card of an invitation code that works (namecard_invitation_works) with its role (keeping a higher one); the code is used up. Answers the card with the caller''s role.';

revoke all on function public.namecard_member_accept(text) from public;
grant execute on function public.namecard_member_accept(text) to authenticated, service_role;

-- Owners: the card's open invitation codes, the newest first: id, role, maker's e-mail, when
-- made, until when. Never the code: only its sha256 is kept.
create or replace function public.namecard_member_invites(card text)
returns table (id bigint, role text, maker text, created_at timestamptz, expires_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_member_invites', true);
  return query
    select i.id, i.role, u.email::text, i.created_at, i.expires_at
    from private.namecard_invitation as i
    left join auth.users as u on u.id = i.created_by
    where i.card_id = cid and private.namecard_invitation_works(i)
    order by i.created_at desc, i.id desc;
end;
$$;

comment on function public.namecard_member_invites(text) is
  'Owners: the card''s open invitation codes (id, role, maker e-mail, created_at, expires_at), newest first; never the code.';

revoke all on function public.namecard_member_invites(text) from public;
grant execute on function public.namecard_member_invites(text) to authenticated, service_role;

-- Owners: an open code of the card stops working at once. An id that is no open code of the
-- card (unknown, another card's, used, expired or revoked) is PT404.
create or replace function public.namecard_member_revoke_invite(invitation_id bigint, card text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  done jsonb;
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_member_revoke_invite', true);
  update private.namecard_invitation as i set revoked_at = now()
  where i.id = invitation_id and i.card_id = cid and private.namecard_invitation_works(i)
  returning jsonb_build_object('id', i.id, 'role', i.role, 'revoked_at', i.revoked_at) into done;
  if done is null then
    raise exception using
      errcode = 'PT404',
      message = format('There is no open invitation %s on this card', invitation_id),
      detail = 'no such invitation',
      hint = 'The open invitations: namecard member invites.';
  end if;
  return done || jsonb_build_object(
    'card', (select c.slug from public.namecard_card as c where c.id = cid));
end;
$$;

comment on function public.namecard_member_revoke_invite(bigint, text) is
  'Owners: the card''s open invitation code of this id stops working at once; answers {id, role, revoked_at, card}. PT404 no such invitation.';

revoke all on function public.namecard_member_revoke_invite(bigint, text) from public;
grant execute on function public.namecard_member_revoke_invite(bigint, text) to authenticated, service_role;

-- The member of card cid with this e-mail, or PT404.
create or replace function private.namecard_member_by_email(cid bigint, member_email text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid;
begin
  select m.user_id into uid
  from private.namecard_member as m
  join auth.users as u on u.id = m.user_id
  where m.card_id = cid and lower(u.email) = lower(btrim(member_email));
  if uid is null then
    raise exception using
      errcode = 'PT404',
      message = format('%s is not a member of this card', left(member_email, 80)),
      detail = 'no such member',
      hint = 'The members: namecard member list.';
  end if;
  return uid;
end;
$$;

revoke all on function private.namecard_member_by_email(bigint, text) from public;

-- An owner removes a member; any member may remove themselves (leave). Never the last owner.
create or replace function public.namecard_member_remove(email text, card text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  me uuid := (select auth.uid());
  own_email text := (select u.email from auth.users as u where u.id = me);
  target uuid;
  was text;
begin
  perform private.namecard_check_writer(cid, 'viewer', 'namecard_member_remove', true);
  if lower(btrim(email)) is distinct from lower(own_email) then
    perform private.namecard_check_writer(cid, 'owner', 'namecard_member_remove', true);
  end if;
  target := private.namecard_member_by_email(cid, email);
  delete from private.namecard_member as m where m.card_id = cid and m.user_id = target
  returning m.role into was;
  return jsonb_build_object(
    'card', (select c.slug from public.namecard_card as c where c.id = cid),
    'email', lower(btrim(email)), 'role', was);
end;
$$;

comment on function public.namecard_member_remove(text, text) is
  'Owners remove a member by e-mail; a member may remove themselves. Never the last owner (PT409).';

revoke all on function public.namecard_member_remove(text, text) from public;
grant execute on function public.namecard_member_remove(text, text) to authenticated, service_role;

create or replace function public.namecard_member_role(email text, role text, card text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  target uuid;
begin
  perform private.namecard_check_writer(cid, 'owner', 'namecard_member_role', true);
  if role is null or role not in ('owner', 'editor', 'viewer') then
    raise exception using
      errcode = '22023',
      message = format('role must be owner, editor or viewer, not %s', coalesce(left(role, 40), 'null'));
  end if;
  target := private.namecard_member_by_email(cid, email);
  update private.namecard_member as m set role = namecard_member_role.role
  where m.card_id = cid and m.user_id = target;
  return jsonb_build_object(
    'card', (select c.slug from public.namecard_card as c where c.id = cid),
    'email', lower(btrim(email)), 'role', namecard_member_role.role);
end;
$$;

comment on function public.namecard_member_role(text, text, text) is
  'Owners: gives a member (by e-mail) another role. The last owner cannot be demoted (PT409).';

revoke all on function public.namecard_member_role(text, text, text) from public;
grant execute on function public.namecard_member_role(text, text, text) to authenticated, service_role;
