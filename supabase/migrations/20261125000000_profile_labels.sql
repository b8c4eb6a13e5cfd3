-- Profile labels in the card's status: `namecard status`, /manage and the answers of set, end
-- and cancel name a profile by its label (`Shop`, or `Gallery` after the owner relabels photo),
-- read from its row, not from a list built into the CLI or the site.
--
-- The status view is read with the anon key (no sign-in), and anon may not list the profiles.
-- So the labels come through a security-definer function that answers only the labels of
-- profiles visitors can meet: main, photo, and any profile that an entry still to come or in
-- force names (its type is in the status's timeline already). A guessed name of a profile that
-- no such entry names answers nothing.
--
-- Nothing here needs a superuser: a function and a view the migrating role owns.

create function public.namecard_profile_labels(names text[])
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
    )
$$;

comment on function public.namecard_profile_labels(text[]) is
  'Labels ({name: label}) of the given profiles that visitors can meet now or later: main, photo, and those an entry in force or to come names.';

revoke all on function public.namecard_profile_labels(text[]) from public;
grant execute on function public.namecard_profile_labels(text[])
  to anon, authenticated, service_role;

-- The same row as before, with two columns appended: `labels`, the label of every profile the
-- timeline names, and `url`, the destination of the entry in force as /go's lookup answers it
-- (null: the build's setting), so that `status` shows where visitors really go. Appending a column keeps every reader of the old columns working, and
-- the write functions (namecard_set, end_now, cancel) answer it too, since they return the
-- view's row as it is.
create or replace view public.namecard_status
with (security_invoker = true) as
  select
    clock.now_ms as now,
    (
      select jsonb_build_object(
        'id', a.id, 'type', a.type, 'stamp_start', a.stamp_start, 'stamp_end', a.stamp_end
      )
      from public.namecard_active_at(clock.now_ms) as a
    ) as active,
    segments.timeline,
    public.namecard_profile_labels(
      array(select distinct s ->> 'type' from jsonb_array_elements(segments.timeline) as s)
    ) as labels,
    public.namecard_active_url() as url
  from (select (extract(epoch from now()) * 1000)::bigint as now_ms) as clock
  cross join lateral (
    select jsonb_agg(
      jsonb_build_object('type', t.type, 'from', t."from", 'to', t."to") order by t."from"
    ) as timeline
    from public.namecard_timeline_at(clock.now_ms, 24) as t
  ) as segments;

comment on view public.namecard_status is
  'One row: the server''s now (epoch ms), the active entry or null, the timeline (24 segments at most), the labels of the profiles the timeline names, and the destination in force (null: the build''s).';

create or replace function public.namecard_schema_version()
returns text
language sql
immutable
set search_path = ''
as $$
  select '20261125000000'::text
$$;
