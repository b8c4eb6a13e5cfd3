-- What a Supabase database already has before the project's migrations run:
-- the API roles, the auth schema with its tables, and the auth.* helper functions.
-- (The migrations ledger is made by emulator/bootstrap.ts, also on a database laid out by
-- Supabase's own images, where this script does not run.)
-- Idempotent: safe to run on every start, and roles (cluster-wide in a PostgreSQL
-- server) are created only when missing.

do $$
declare
  r record;
begin
  for r in
    select * from (values
      ('anon', 'nologin noinherit'),
      ('authenticated', 'nologin noinherit'),
      ('service_role', 'nologin noinherit bypassrls'),
      ('authenticator', 'login noinherit')
    ) as v(name, attrs)
  loop
    if not exists (select 1 from pg_roles where rolname = r.name) then
      begin
        execute format('create role %I %s', r.name, r.attrs);
      exception when duplicate_object or unique_violation then
        null; -- another database of the same server created it meanwhile
      end;
    end if;
  end loop;
  if not pg_has_role('authenticator', 'anon', 'member') then
    grant anon, authenticated, service_role to authenticator;
  end if;
  -- API requests log in as authenticator (databases bootstrapped before it could).
  if not (select rolcanlogin from pg_roles where rolname = 'authenticator') then
    alter role authenticator login;
  end if;
  -- The emulator connects as its own user and switches role per request, as
  -- PostgREST's authenticator does; a superuser may do that without membership.
  if not (select rolsuper from pg_roles where rolname = current_user)
     and not pg_has_role(current_user, 'authenticated', 'member') then
    execute format('grant anon, authenticated, service_role to %I', current_user);
  end if;
end
$$;

-- Statement time-outs per API role, as Supabase's images set them (anon 3 s, authenticated 8 s).
-- PostgreSQL does not apply a role's settings on SET ROLE; PostgREST reads them from
-- pg_db_role_setting and sets them in each request's transaction ("impersonated role
-- settings"), and so does the emulator (emulator/rest/routes.ts). Set only when missing or
-- different: roles are cluster-wide, and rewriting them on every start would contend.
do $$
declare
  r record;
begin
  for r in select * from (values ('anon', '3s'), ('authenticated', '8s')) as v(name, timeout)
  loop
    if not exists (
      select 1 from pg_db_role_setting s join pg_roles ro on ro.oid = s.setrole
      where ro.rolname = r.name and s.setdatabase = 0
        and ('statement_timeout=' || r.timeout) = any (s.setconfig)
    ) then
      execute format('alter role %I set statement_timeout = %L', r.name, r.timeout);
    end if;
  end loop;
end
$$;

grant usage on schema public to anon, authenticated, service_role;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud varchar(255) not null default 'authenticated',
  role varchar(255) not null default 'authenticated',
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{"provider":"email","providers":["email"]}',
  raw_user_meta_data jsonb not null default '{}',
  is_super_admin boolean,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  phone text default null,
  phone_confirmed_at timestamptz,
  banned_until timestamptz,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);

create unique index if not exists users_email_key on auth.users (lower(email));

create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  refreshed_at timestamptz,
  aal text not null default 'aal1',
  not_after timestamptz
);

create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) not null unique,
  user_id varchar(255) not null,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  parent varchar(255),
  session_id uuid not null references auth.sessions (id) on delete cascade
);

create index if not exists refresh_tokens_session_id_revoked_idx
  on auth.refresh_tokens (session_id, revoked);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);

-- The API roles never read these tables directly (GoTrue owns them).
revoke all on auth.users, auth.sessions, auth.refresh_tokens from anon, authenticated;

-- The helpers as Supabase defines them: the legacy single-claim settings first,
-- then the claims JSON that PostgREST sets per request. auth.uid(), auth.role() and
-- auth.email() differ only in the claim and the type, so they are made from one template.
do $$
declare
  helper record;
begin
  for helper in
    select * from (values ('uid', 'sub', 'uuid'), ('role', 'role', 'text'), ('email', 'email', 'text'))
      as v(fn, claim, type)
  loop
    execute format(
      $template$
        create or replace function auth.%1$I() returns %3$s
        language sql stable
        as $body$
          select coalesce(
            nullif(current_setting('request.jwt.claim.%2$s', true), ''),
            (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> %2$L)
          )::%3$s
        $body$
      $template$,
      helper.fn, helper.claim, helper.type);
  end loop;
end
$$;

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';
comment on function auth.role() is 'Deprecated. Use auth.jwt() -> ''role'' instead.';
comment on function auth.email() is 'Deprecated. Use auth.jwt() -> ''email'' instead.';

grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt()
  to anon, authenticated, service_role;
