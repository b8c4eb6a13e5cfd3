-- Profiles: where each kind of entry sends visitors (name, label, destination URL), kept in the
-- database so that owners change them at runtime and the site is built once. main and photo
-- have no URL of their own until given one: a null url follows the build's NAMECARD_MAIN_URL
-- (and NAMECARD_PHOTO_PATH under it). Whatever the URL says, /go follows it only on an origin
-- the build allows (NAMECARD_ALLOWED_ORIGINS): this table chooses among allowed places, it can
-- never widen them (docs/security.md).

create table public.namecard_profile (
  name text not null
    constraint namecard_profile_name_form check (name ~ '^[a-z][a-z0-9-]{0,31}$'),
  -- No control characters (C0, DEL, C1): a label reaches terminals, pages and calendar files.
  label text not null
    constraint namecard_profile_label_form check (
      char_length(label) >= 1 and char_length(label) <= 60 and label = btrim(label)
      and label !~ '[\u0001-\u001f\u007f-\u009f]'
    ),
  -- Absolute http(s), at most 2,048 characters, no user or password before the host, no
  -- white space or control characters; null only for main and photo (the build's settings).
  url text null
    constraint namecard_profile_url_form check (
      url is null or (
        char_length(url) <= 2048
        and url ~* '^https?://[^/?#@[:space:][:cntrl:]]+([/?#][^[:space:][:cntrl:]]*)?$'
      )
    ),
  removed_at timestamptz null,
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  updated_at timestamptz not null default now(),
  -- Each card has its own profiles.
  card_id bigint not null references public.namecard_card (id),
  constraint namecard_profile_url_given check (url is not null or name in ('main', 'photo')),
  primary key (card_id, name)
);

comment on table public.namecard_profile is
  'The owner''s profiles: name (namecard.type), label, destination url (null: the build''s).';
comment on column public.namecard_profile.removed_at is
  'When the owner removed it: it stays for the history of old entries, and no new entry may name it.';

alter table public.namecard_profile enable row level security;

revoke all on table public.namecard_profile from anon, authenticated, public;
grant select on table public.namecard_profile to anon;
grant select, delete on table public.namecard_profile to authenticated;
grant insert (card_id, name, label, url) on table public.namecard_profile to authenticated;
grant update (label, url, removed_at) on table public.namecard_profile to authenticated;
grant select, insert, update, delete on table public.namecard_profile to service_role;

-- Members read their cards' profiles (the labels and destinations their faces show; a card
-- token as a member); only owners add, change and remove them, a card token never.
create policy namecard_profile_member_read on public.namecard_profile
  for select to anon, authenticated
  using (card_id = any ((select private.namecard_cards_where('viewer'))::bigint[]));

create policy namecard_profile_owner_insert on public.namecard_profile
  for insert to authenticated
  with check (card_id = any ((select private.namecard_cards_where('owner'))::bigint[]));

create policy namecard_profile_owner_update on public.namecard_profile
  for update to authenticated
  using (card_id = any ((select private.namecard_cards_where('owner'))::bigint[]))
  with check (card_id = any ((select private.namecard_cards_where('owner'))::bigint[]));

create policy namecard_profile_owner_delete on public.namecard_profile
  for delete to authenticated
  using (card_id = any ((select private.namecard_cards_where('owner'))::bigint[]));

-- A new entry or series may name only a profile that exists and is not removed (23503,
-- PostgREST's 409, naming it). The writes that insert them have checked the caller's role on the
-- card first (private.namecard_check_writer), so that nobody learns a card's profiles this way.
create or replace function private.namecard_entry_profile_check()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (
    select 1 from public.namecard_profile as p
    where p.card_id = new.card_id and p.name = new.type and p.removed_at is null
  ) then
    raise exception using
      errcode = '23503',
      message = format('unknown profile: %s', new.type),
      hint = 'Name a profile the card has (namecard profile list).';
  end if;
  return new;
end;
$$;

revoke all on function private.namecard_entry_profile_check() from public;

-- A card has at most private.namecard_limit('profiles') profiles, removed ones included (they
-- stay for the history): what reading a card's profiles costs, the visits' days above all,
-- stays bounded. After the insert, so that row-level security has refused a non-owner first,
-- with the same answer whatever the card holds; the card's row is locked, so that inserts at
-- once cannot pass the limit together.
create or replace function private.namecard_profile_cap()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  made integer;
begin
  perform from public.namecard_card as c where c.id = new.card_id for update;
  select count(*) into made from public.namecard_profile as p where p.card_id = new.card_id;
  if made > private.namecard_limit('profiles') then
    raise exception using
      errcode = '23514',
      message = format('A card has at most %s profiles, removed ones included',
        private.namecard_limit('profiles')),
      detail = 'profile limit',
      hint = 'Give an existing profile a new destination instead (namecard profile edit).';
  end if;
  return null;
end;
$$;

revoke all on function private.namecard_profile_cap() from public;

-- Keeps updated_at, and refuses marking a profile removed by hand: removing goes through DELETE,
-- which checks what needs it.
create or replace function private.namecard_profile_before_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.removed_at is not null and old.removed_at is null and pg_trigger_depth() = 1 then
    raise exception using
      errcode = '42501',
      message = 'remove a profile with DELETE (namecard profile remove), which checks that no entry needs it';
  end if;
  new.updated_at := now();
  return new;
end;
$$;

revoke all on function private.namecard_profile_before_update() from public;

-- Removing is marking: a DELETE becomes removed_at = now(), so that old entries keep their label.
-- main is never removed, nor a profile that an entry or series in force or to come names (the
-- refusal names them).
create or replace function private.namecard_profile_before_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  in_use text;
begin
  if old.name = 'main' then
    raise exception using
      errcode = '23503',
      message = 'the main profile cannot be removed: it is where visitors go when nothing else is set';
  end if;
  select string_agg(n.id::text, ', ' order by n.id) into in_use
  from public.namecard as n
  where n.card_id = old.card_id
    and n.type = old.name
    and n.stamp_end > now_ms
    and (n.stamp_start is null or n.stamp_start < n.stamp_end);
  if in_use is null then
    select string_agg('series ' || x.id::text, ', ' order by x.id) into in_use
    from private.namecard_series_rule as x
    join public.namecard_series as y on y.id = x.id
    where y.card_id = old.card_id
      and x.type = old.name
      and (private.namecard_series_until(x) is null or private.namecard_series_until(x) > now_ms);
  end if;
  if in_use is not null then
    raise exception using
      errcode = '23503',
      message = format('profile %s is in use by entries %s', old.name, in_use),
      detail = in_use,
      hint = 'End or cancel those entries first (namecard cancel <id>).';
  end if;
  update public.namecard_profile as p
  set removed_at = coalesce(p.removed_at, now()), updated_at = now()
  where p.card_id = old.card_id and p.name = old.name;
  return null;
end;
$$;

revoke all on function private.namecard_profile_before_delete() from public;

create trigger namecard_profile_touch
  before update on public.namecard_profile
  for each row execute function private.namecard_profile_before_update();

create trigger namecard_profile_remove
  before delete on public.namecard_profile
  for each row execute function private.namecard_profile_before_delete();

create trigger namecard_profile_cap
  after insert on public.namecard_profile
  for each row execute function private.namecard_profile_cap();
