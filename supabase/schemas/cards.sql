-- Cards and their people. One deployment serves many cards; each has a public slug (its link is
-- /go/?c=<slug>), its own profiles, entries, series and visit counts, and members with a role:
--   owner:  everything, members, profiles and tokens included, and removing the card;
--   editor: set, end, cancel, series; reads everything of the card;
--   viewer: reads the card's entries, timeline and visits; writes nothing.
-- A card always keeps at least one owner. Members join by a one-time invitation code. The card
-- whose slug is `main` is the one a bare /go/ link opens; it is a card like any other, except
-- that it cannot be removed.
--
-- A caller is a person (a session) or a card token (tokens.sql), which acts as a member of its
-- one card with its role. Row-level security asks one security-definer helper for the caller's
-- standing, private.namecard_cards_where(role): the ids of the caller's live cards on which they
-- have at least that role, read once per statement, and empty for the write roles when the
-- access token's session was signed out. Policies say `card_id = any ((select …)::bigint[])`:
-- the `(select …)` is planned once (an InitPlan, as Supabase's RLS performance guide advises),
-- and the cast makes ANY take its array (bare, `any ((select …))` would read the subquery's
-- rows).

-- A GiST index with the card as its first column (an equality on a bigint) needs btree_gist's
-- operator classes; Supabase keeps extensions in their own schema.
create schema if not exists extensions;
create extension if not exists btree_gist with schema extensions;

create table public.namecard_card (
  id bigint generated always as identity primary key,
  -- Never reused: a removed card keeps its row (removed_at), so its slug stays taken.
  slug text not null
    constraint namecard_card_slug_key unique
    constraint namecard_card_slug_form check (slug ~ '^[a-z0-9][a-z0-9-]{1,31}$'),
  name text not null
    constraint namecard_card_name_form check (
      char_length(name) >= 1 and char_length(name) <= 60 and name = btrim(name)
      and name !~ '[[:cntrl:]]'
    ),
  removed_at timestamptz null,
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  -- Times from 1970 to the end of 2199, as every table's.
  constraint namecard_card_times_range check (
    created_at >= timestamptz '1970-01-01 00:00:00+00'
    and created_at < timestamptz '2200-01-01 00:00:00+00'
    and (removed_at is null or (removed_at >= timestamptz '1970-01-01 00:00:00+00'
      and removed_at < timestamptz '2200-01-01 00:00:00+00'))
  )
);

comment on table public.namecard_card is
  'Cards: slug (the public name in the card''s link /go/?c=<slug>; main is a bare /go/), name.';
comment on column public.namecard_card.removed_at is
  'When an owner removed the card: it answers like an unknown slug, and its slug is never given again.';

create table private.namecard_member (
  card_id bigint not null references public.namecard_card (id),
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null constraint namecard_member_role_known check (role in ('owner', 'editor', 'viewer')),
  created_at timestamptz not null default now(),
  primary key (card_id, user_id),
  constraint namecard_member_times_range check (
    created_at >= timestamptz '1970-01-01 00:00:00+00'
    and created_at < timestamptz '2200-01-01 00:00:00+00'
  )
);

comment on table private.namecard_member is
  'Who may do what on which card: owner, editor or viewer.';

-- The helper reads a caller's memberships by user.
create index namecard_member_user_idx on private.namecard_member (user_id) include (role);

alter table private.namecard_member enable row level security;
revoke all on table private.namecard_member from public, anon, authenticated;

create table private.namecard_invitation (
  id bigint generated always as identity primary key,
  card_id bigint not null references public.namecard_card (id),
  role text not null constraint namecard_invitation_role_known check (role in ('owner', 'editor', 'viewer')),
  -- sha256 of the code: the code itself is shown once, to the owner who made it.
  code_hash bytea not null constraint namecard_invitation_code_hash_key unique,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  created_by uuid references auth.users (id) on delete set null,
  used_at timestamptz null,
  used_by uuid null references auth.users (id) on delete set null,
  -- When an owner revoked the code: it never works again.
  revoked_at timestamptz null,
  constraint namecard_invitation_times_range check (
    created_at >= timestamptz '1970-01-01 00:00:00+00'
    and expires_at >= timestamptz '1970-01-01 00:00:00+00'
    and expires_at < timestamptz '2200-01-01 00:00:00+00'
    and created_at < timestamptz '2200-01-01 00:00:00+00'
    and (used_at is null or (used_at >= timestamptz '1970-01-01 00:00:00+00'
      and used_at < timestamptz '2200-01-01 00:00:00+00'))
    and (revoked_at is null or (revoked_at >= timestamptz '1970-01-01 00:00:00+00'
      and revoked_at < timestamptz '2200-01-01 00:00:00+00'))
  )
);

comment on table private.namecard_invitation is
  'One-time invitation codes (their sha256 only): for a card and a role, until expires_at, used once, while their maker owns the card and no owner revoked them.';

alter table private.namecard_invitation enable row level security;
revoke all on table private.namecard_invitation from public, anon, authenticated;

-- Roles in order: a role includes what the ones below it may do.
create or replace function private.namecard_role_rank(role text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case role when 'viewer' then 1 when 'editor' then 2 when 'owner' then 3 else 0 end
$$;

revoke all on function private.namecard_role_rank(text) from public;

-- The card token a request carries, as the pre-request check (private.namecard_pre_request,
-- tokens.sql) set it for this transaction: its card's id and its role, or nulls for a person or
-- anon. Transaction-local settings that no API caller can set: PostgREST sets only `request.*`,
-- `role` and `search_path` before the check runs.
--
-- THE helper of every policy: the ids of the caller's live cards on which they have at least
-- min_role. A card token has its one card, while its role is at least min_role. For a person and
-- the write roles (editor, owner) it is empty when the access token names a session that was
-- signed out, so that no write by any route goes through with it. Security definer: the API
-- roles cannot read the members.
create or replace function private.namecard_cards_where(min_role text)
returns bigint[]
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when nullif(current_setting('namecard.token_card', true), '') is not null then
      case when private.namecard_role_rank(current_setting('namecard.token_role', true))
          >= private.namecard_role_rank(min_role)
        then array[nullif(current_setting('namecard.token_card', true), '')::bigint]
        else '{}'::bigint[]
      end
    else (
      select coalesce(array_agg(m.card_id order by m.card_id), '{}')
      from private.namecard_member as m
      join public.namecard_card as c on c.id = m.card_id
      where m.user_id = (select auth.uid())
        and c.removed_at is null
        and private.namecard_role_rank(m.role) >= private.namecard_role_rank(min_role)
        and (min_role = 'viewer' or (select private.namecard_session_live()))
    )
  end
$$;

comment on function private.namecard_cards_where(text) is
  'Ids of the caller''s live cards on which they hold at least min_role (viewer|editor|owner): a card token''s one card, or a person''s memberships (for editor and owner, none once the session was signed out).';

revoke all on function private.namecard_cards_where(text) from public;
grant execute on function private.namecard_cards_where(text) to anon, authenticated, service_role;

-- The caller's role on a live card (a card token's role on its own card), or null.
create or replace function private.namecard_role_on(card bigint)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when nullif(current_setting('namecard.token_card', true), '') is not null then
      case when nullif(current_setting('namecard.token_card', true), '')::bigint = card
        then current_setting('namecard.token_role', true)
      end
    else (
      select m.role
      from private.namecard_member as m
      join public.namecard_card as c on c.id = m.card_id
      where m.card_id = card and m.user_id = (select auth.uid()) and c.removed_at is null
    )
  end
$$;

revoke all on function private.namecard_role_on(bigint) from public;

-- The live card of a slug, as anyone may name it in a link (lower case; blanks around ignored),
-- or null: an unknown, malformed or removed slug alike. What visitors and signed-out readers ask
-- by (/go, the status, preview, counting a visit): none of them tells which cards exist. Plain
-- SQL with no settings and one scalar subquery, so that the planner inlines it into its callers.
create or replace function private.namecard_live_card(card text)
returns bigint
language sql
stable
as $$
  select (
    select c.id from public.namecard_card as c
    where c.slug = lower(btrim(card)) and c.removed_at is null
  )
$$;

revoke all on function private.namecard_live_card(text) from public;

-- The card a member's call names, by its slug (lower case; blanks around ignored): a live card
-- the caller is a member of (for a card token, its own card). Anything else is refused alike,
-- whether the slug was never given, the card was removed or the caller is no member (PT404), so
-- that nobody learns which cards exist.
create or replace function private.namecard_card_id(card text)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  given text := lower(btrim(card));
  found_id bigint;
begin
  if given is null or given !~ '^[a-z0-9][a-z0-9-]{1,31}$' then
    raise exception using
      errcode = '22023',
      message = format('card must be a card''s slug (2 to 32 of a-z, 0-9 and -, not starting with -), not %s',
        coalesce(left(card, 40), 'null')),
      detail = 'invalid card';
  end if;
  select c.id into found_id
  from public.namecard_card as c
  where c.slug = given and c.removed_at is null and private.namecard_role_on(c.id) is not null;
  if found_id is null then
    raise exception using
      errcode = 'PT404',
      message = format('None of your cards is called %s', given),
      detail = 'no such card',
      hint = 'Your cards: namecard card list.';
  end if;
  return found_id;
end;
$$;

comment on function private.namecard_card_id(text) is
  'The id of the live card of this slug that the caller is a member of (a card token: its own card); else PT404 "None of your cards is called <slug>", or 22023 for a malformed slug.';

revoke all on function private.namecard_card_id(text) from public;

-- The first step of every write, before anything of the card is read: an access token whose
-- session was signed out writes nothing (PT401, PostgREST's 401); a member (or a card token)
-- whose role is below `need` is refused (42501, naming the function as PostgreSQL's own refusal
-- does, the role needed in the detail: `needs editor`). Someone who is no member of the card is
-- refused here too when `refuse_strangers`; otherwise (a write as the caller) row-level security
-- refuses them.
create or replace function private.namecard_check_writer(
  card bigint, need text, fn text, refuse_strangers boolean
)
returns void
language plpgsql
stable
set search_path = ''
as $$
declare
  role text := private.namecard_role_on(card);
begin
  if not (select private.namecard_session_live()) then
    raise exception using
      errcode = 'PT401',
      message = 'The session has ended',
      hint = 'Sign in again.';
  end if;
  if (role is not null or refuse_strangers)
    and private.namecard_role_rank(role) < private.namecard_role_rank(need)
  then
    raise exception using
      errcode = '42501',
      message = format('permission denied for function %s', fn),
      detail = 'needs ' || need,
      hint = case need
        when 'owner' then 'Only the card''s owners may do this.'
        else 'Only the card''s owners and editors may change what visitors get.'
      end;
  end if;
end;
$$;

revoke all on function private.namecard_check_writer(bigint, text, text, boolean) from public;

-- Members read their live cards; nobody writes them but the functions below.
alter table public.namecard_card enable row level security;
revoke all on table public.namecard_card from anon, authenticated, public;
grant select on table public.namecard_card to authenticated;
grant select, insert, update on table public.namecard_card to service_role;

create policy namecard_card_member_read on public.namecard_card
  for select to authenticated
  using (id = any ((select private.namecard_cards_where('viewer'))::bigint[]));

-- A card always keeps an owner: the last one cannot leave, be removed or be demoted, by any
-- route. Only the account's own deletion (by the deployment's admin) takes it away.
create or replace function private.namecard_member_keep_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Changes to one card's members wait for each other here, so that two owners removing each
  -- other at once cannot both succeed (each sees the other's change once it is its turn).
  perform from public.namecard_card as c where c.id = old.card_id for update;
  if old.role = 'owner'
    and (tg_op = 'DELETE' or new.role <> 'owner' or new.card_id <> old.card_id)
    and exists (select from auth.users as u where u.id = old.user_id)
    and not exists (
      select from private.namecard_member as m
      where m.card_id = old.card_id and m.role = 'owner' and m.user_id <> old.user_id
    )
  then
    raise exception using
      errcode = 'PT409',
      message = 'A card keeps at least one owner: make another member an owner first',
      detail = 'last owner';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

revoke all on function private.namecard_member_keep_owner() from public;

create trigger namecard_member_keep_owner
  before update or delete on private.namecard_member
  for each row execute function private.namecard_member_keep_owner();
