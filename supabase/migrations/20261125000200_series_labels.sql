-- The labels the status answers anon (namecard_profile_labels) cover the profiles that a live
-- weekly series names too: its occurrences are in the timeline like entries, and without this
-- they would be shown by their bare name. A series counts while it is not cancelled and its
-- last date, if any, has not passed (a day of slack for zones ahead of UTC).
--
-- Nothing here needs a superuser: a function the migrating role owns.

create or replace function public.namecard_profile_labels(names text[])
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(p.name, p.label), '{}'::jsonb)
  from public.namecard_profile as p
  where p.name = any (names)
    and (
      p.name in ('main', 'photo')
      or exists (
        select 1 from public.namecard as n
        where n.type = p.name
          and n.stamp_end > (extract(epoch from now()) * 1000)::bigint
      )
      or exists (
        select 1 from public.namecard_series as s
        where s.type = p.name
          and s.stopped_at is null
          and (s.last_date is null or s.last_date >= current_date - 1)
      )
    )
$$;

create or replace function public.namecard_schema_version()
returns text
language sql
immutable
set search_path = ''
as $$
  select '20261125000200'::text
$$;
