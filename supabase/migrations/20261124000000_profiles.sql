-- Profiles: where each kind of entry sends visitors, kept in the database so that the owner
-- changes them at runtime and the site is built once.
--
-- A profile has a name (what public.namecard.type holds and the CLI types), a label (what
-- people see) and a destination URL. main and photo are created here with the spec's labels
-- and no URL of their own: a null url means "follow the build's setting" (NAMECARD_MAIN_URL,
-- and NAMECARD_PHOTO_PATH under it), so a deployment that applies this migration keeps sending
-- visitors exactly where it did. Every other profile carries its URL.
--
-- Whatever the URL says, the Redirecting.. page follows it only when its origin is one the
-- build allows (NAMECARD_ALLOWED_ORIGINS): this table decides among allowed places, it can
-- never widen them (docs/security.md).
--
-- Nothing here needs a superuser: tables, triggers, policies and grants on objects the
-- migrating role (postgres on hosted Supabase) owns.

create table public.namecard_profile (
  name text primary key
    constraint namecard_profile_name_form check (name ~ '^[a-z][a-z0-9-]{0,31}$'),
  label text not null
    constraint namecard_profile_label_form check (
      char_length(label) between 1 and 60 and label = btrim(label)
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
  constraint namecard_profile_url_given check (url is not null or name in ('main', 'photo'))
);

comment on table public.namecard_profile is
  'The owner''s profiles: name (namecard.type), label, destination url (null: the build''s).';
comment on column public.namecard_profile.removed_at is
  'When the owner removed it: it stays for the history of old entries, and no new entry may name it.';

insert into public.namecard_profile (name, label, url) values
  ('main', 'Main Profile', null),
  ('photo', 'Photographer', null);

-- Entries and visit counters name a profile of the table. The literal checks go; the rows
-- already stored name main or photo, which exist, so every old row keeps its meaning.
alter table public.namecard drop constraint namecard_type_known;
alter table public.namecard
  add constraint namecard_type_profile foreign key (type) references public.namecard_profile (name);
alter table public.namecard_visit drop constraint namecard_visit_type_known;
alter table public.namecard_visit
  add constraint namecard_visit_type_profile foreign key (type)
    references public.namecard_profile (name);

-- A new entry may name only a profile that exists and is not removed. The foreign key alone
-- would accept a removed one and answer an unknown one in its own words; this answers both
-- the same way (23503, PostgREST's 409), naming the profile. Security definer: it reads the
-- profile table whatever the inserting role's row-level security leaves it.
create function private.namecard_entry_profile_check()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (
    select 1 from public.namecard_profile as p where p.name = new.type and p.removed_at is null
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

create trigger namecard_entry_profile
  before insert on public.namecard
  for each row execute function private.namecard_entry_profile_check();

-- Removing is marking: a DELETE is turned into removed_at = now(), so that old entries keep
-- their label. main can never be removed, and neither can a profile that an entry in force or
-- a scheduled entry names (stamp_end after now and a non-empty interval: ending brings
-- stamp_end forward to the moment it stopped, cancelling a scheduled entry leaves it empty);
-- the answer names those entries.
create function private.namecard_profile_before_delete()
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
  where n.type = old.name
    and n.stamp_end > now_ms
    and (n.stamp_start is null or n.stamp_start < n.stamp_end);
  if in_use is not null then
    raise exception using
      errcode = '23503',
      message = format('profile %s is in use by entries %s', old.name, in_use),
      detail = in_use,
      hint = 'End or cancel those entries first (namecard cancel <id>).';
  end if;
  update public.namecard_profile as p
  set removed_at = coalesce(p.removed_at, now()), updated_at = now()
  where p.name = old.name;
  return null;
end;
$$;

revoke all on function private.namecard_profile_before_delete() from public;

create trigger namecard_profile_remove
  before delete on public.namecard_profile
  for each row execute function private.namecard_profile_before_delete();

-- Updates keep the audit column current, and removal happens only through the delete above
-- (which checks what is in use); an update may bring a removed profile back (removed_at null).
create function private.namecard_profile_before_update()
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

create trigger namecard_profile_touch
  before update on public.namecard_profile
  for each row execute function private.namecard_profile_before_update();

-- Owners read and change profiles; anon has no privilege at all (401), and a signed-in
-- non-owner reads an empty list and changes nothing (row-level security). The name is fixed
-- once created: entries refer to it.
alter table public.namecard_profile enable row level security;
revoke all on table public.namecard_profile from anon, authenticated, public;
grant select, delete on table public.namecard_profile to authenticated;
grant insert (name, label, url) on table public.namecard_profile to authenticated;
grant update (label, url, removed_at) on table public.namecard_profile to authenticated;
grant select, insert, update, delete on table public.namecard_profile to service_role;

create policy namecard_profile_owner_read on public.namecard_profile
  for select to authenticated using ((select private.is_namecard_owner()));
create policy namecard_profile_owner_insert on public.namecard_profile
  for insert to authenticated with check ((select private.is_namecard_owner()));
create policy namecard_profile_owner_update on public.namecard_profile
  for update to authenticated
  using ((select private.is_namecard_owner()))
  with check ((select private.is_namecard_owner()));
create policy namecard_profile_owner_delete on public.namecard_profile
  for delete to authenticated using ((select private.is_namecard_owner()));

-- The owner's removal in one call that answers the marked row (a DELETE answers no row, since
-- the row stays). Runs with the caller's rights: a non-owner's delete matches no row, and the
-- answer is then empty.
create function public.namecard_remove_profile(profile_name text)
returns setof public.namecard_profile
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  delete from public.namecard_profile as p where p.name = profile_name;
  return query select * from public.namecard_profile as p where p.name = profile_name;
end;
$$;

revoke all on function public.namecard_remove_profile(text) from public, anon;
grant execute on function public.namecard_remove_profile(text) to authenticated, service_role;

-- Where the entry in force sends visitors: its profile's URL, or null (the build's setting).
-- Security definer, so that anon needs no privilege on the profile table; it answers only
-- the one URL /go would learn anyway (the entry in force at the statement's now()), never the
-- list or another profile's. Called with no argument, so nothing can be asked of it but that.
create function public.namecard_active_url()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select p.url
  from public.namecard_active_at((extract(epoch from now()) * 1000)::bigint) as a
  join public.namecard_profile as p on p.name = a.type
$$;

revoke all on function public.namecard_active_url() from public;
grant execute on function public.namecard_active_url() to anon, authenticated, service_role;

-- The lookup /go makes answers the destination too, in the same one GET: a column added at
-- the end (create or replace view keeps the others and their plan on the two indexes). now()
-- is the transaction's, so the entry and its URL come from the same instant.
create or replace view public.namecard_active
with (security_invoker = true) as
  select a.id, a.type, a.stamp_start, a.stamp_end, public.namecard_active_url() as url
  from public.namecard_active_at((extract(epoch from now()) * 1000)::bigint) as a;

-- The visits read counts every profile the table has (removed ones too: their old visits
-- stay), instead of a literal list.
create or replace function public.namecard_visit_days(day_starts bigint[])
returns table (day integer, type text, via text, visits bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  with
    kinds (type, via) as (
      select p.name, c.via
      from public.namecard_profile as p
      cross join (values ('qr'), ('nfc'), ('link')) as c (via)
    ),
    marks as (
      select k.type, k.via, i.i, coalesce((
        select v.running
        from public.namecard_visit as v
        where v.type = k.type and v.via = k.via and v.bucket < day_starts[i.i]
        order by v.bucket desc
        limit 1
      ), 0) as total
      from kinds as k
      cross join generate_subscripts(day_starts, 1) as i (i)
    )
  select m.i as day, m.type, m.via, (n.total - m.total)::bigint as visits
  from marks as m
  join marks as n on n.type = m.type and n.via = m.via and n.i = m.i + 1
  where n.total > m.total
  order by 1, 2, 3
$$;
