-- Visits: counts only, never a visit of its own (issue 19).
--
-- A visit to /go adds one to a counter: the 15-minute bucket it fell in (epoch ms of the
-- bucket's start, server clock), what visitors were sent to (type) and the channel the card
-- link carried (via: qr, nfc or link). Nothing else is kept: no row per visit, no address, no
-- user agent, no time finer than 15 minutes. 15 minutes, because every time zone's offset is
-- a multiple of it (+05:30, +05:45, +12:45 included), so a day in any zone is an exact sum of
-- whole buckets.

create table public.namecard_visit (
  bucket bigint not null
    constraint namecard_visit_bucket_whole check (bucket >= 0 and bucket % 900000 = 0),
  type text not null constraint namecard_visit_type_known check (type in ('main', 'photo')),
  via text not null constraint namecard_visit_via_known check (via in ('qr', 'nfc', 'link')),
  visits bigint not null constraint namecard_visit_visits_positive check (visits > 0),
  primary key (bucket, type, via)
);

comment on table public.namecard_visit is
  'Visit counts: per 15-minute bucket (start, epoch ms), type sent to and channel (qr|nfc|link).';

-- Owners read the counts; nobody else reads them, and nobody writes them through the API but
-- the counting function below. anon has no privilege on the table at all (a read is 401).
alter table public.namecard_visit enable row level security;
revoke all on table public.namecard_visit from anon, authenticated, public;
grant select on table public.namecard_visit to authenticated;
grant select, insert, update, delete on table public.namecard_visit to service_role;

create policy namecard_visit_owner_read on public.namecard_visit
  for select
  to authenticated
  using ((select private.is_namecard_owner()));

-- Counts one visit: the profile is the one namecard_active answers now (the caller cannot
-- choose it), the channel the text given ('qr' or 'nfc'; anything else is 'link'). A single
-- unnamed text parameter, so that a browser calls it with a CORS-simple POST
-- (Content-Type: text/plain, the anon key as ?apikey=): PostgREST passes a text/plain body
-- to such a function whole. Security definer: anon holds no privilege on the table.
create function public.namecard_count_visit(text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  channel text := lower(btrim(coalesce($1, '')));
  sent_to text;
begin
  if channel not in ('qr', 'nfc') then
    channel := 'link';
  end if;
  select a.type into sent_to from public.namecard_active_at(now_ms) as a;
  insert into public.namecard_visit as v (bucket, type, via, visits)
  values (now_ms - now_ms % 900000, coalesce(sent_to, 'main'), channel, 1)
  on conflict (bucket, type, via) do update set visits = v.visits + 1;
end;
$$;

comment on function public.namecard_count_visit(text) is
  'Counts one visit now: for the active profile, via qr|nfc (anything else: link).';

revoke all on function public.namecard_count_visit(text) from public;
grant execute on function public.namecard_count_visit(text) to anon, authenticated, service_role;

-- The owner's read: the counts summed per day, on the server, so that what travels does not
-- grow with the visits (at most days × 2 profiles × 3 channels rows). The caller gives the
-- days' starts (epoch ms, ascending, the last one the end of the last day), worked out in the
-- reader's time zone (shared/calendar/visits.ts); every start is on a 15-minute boundary, so
-- each bucket lies wholly in one day. day is the 1-based index of the day. Runs with the
-- caller's rights: row-level security leaves a non-owner no rows.
create function public.namecard_visit_days(day_starts bigint[])
returns table (day integer, type text, via text, visits bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select width_bucket(v.bucket, day_starts) as day, v.type, v.via, sum(v.visits)::bigint
  from public.namecard_visit as v
  where v.bucket >= day_starts[1]
    and v.bucket < day_starts[array_upper(day_starts, 1)]
  group by 1, 2, 3
  order by 1, 2, 3
$$;

comment on function public.namecard_visit_days(bigint[]) is
  'Owners: visits summed per day; day_starts are the days'' starts in epoch ms plus the end.';

revoke all on function public.namecard_visit_days(bigint[]) from public, anon;
grant execute on function public.namecard_visit_days(bigint[]) to authenticated, service_role;
