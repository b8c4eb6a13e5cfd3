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
  -- The running total of this profile and channel up to and including this bucket, so that
  -- the visits between any two instants on bucket boundaries are two index look-ups (the
  -- total before the end minus the total before the start), however many visits there are.
  running bigint not null constraint namecard_visit_running_covers check (running >= visits),
  primary key (bucket, type, via)
);

-- "The last counter of this profile and channel before t" for the running totals.
create index namecard_visit_running_idx
  on public.namecard_visit (type, via, bucket desc) include (running);

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
  at_ms bigint;
  prev_total bigint;
begin
  if channel not in ('qr', 'nfc') then
    channel := 'link';
  end if;
  select a.type into sent_to from public.namecard_active_at(now_ms) as a;
  sent_to := coalesce(sent_to, 'main');
  -- One count of a profile and channel at a time, the bucket taken from the clock once the
  -- lock is held: buckets then only ever grow, and the newest counter's running total is the
  -- one to add to. Counts of other profiles or channels do not wait.
  perform pg_advisory_xact_lock(hashtext('namecard_visit:' || sent_to || ':' || channel));
  at_ms := (extract(epoch from clock_timestamp()) * 1000)::bigint;
  select v.running into prev_total
  from public.namecard_visit as v
  where v.type = sent_to and v.via = channel
  order by v.bucket desc
  limit 1;
  insert into public.namecard_visit as v (bucket, type, via, visits, running)
  values (at_ms - at_ms % 900000, sent_to, channel, 1, coalesce(prev_total, 0) + 1)
  on conflict (bucket, type, via) do update set visits = v.visits + 1, running = v.running + 1;
end;
$$;

comment on function public.namecard_count_visit(text) is
  'Counts one visit now: for the active profile, via qr|nfc (anything else: link).';

revoke all on function public.namecard_count_visit(text) from public;
grant execute on function public.namecard_count_visit(text) to anon, authenticated, service_role;

-- The owner's read: the counts summed per day, on the server, in a time that does not grow
-- with the visits: for each day start (and the end) and each profile and channel, the running
-- total of the last counter before it (one index look-up), and a day's visits are the
-- difference of two. The caller gives the days' starts (epoch ms, ascending, the last one the
-- end of the last day), worked out in the reader's time zone (shared/calendar/visits.ts);
-- every start is on a 15-minute boundary, so each counter lies wholly in one day. day is the
-- 1-based index of the day; days without visits have no row. Runs with the caller's rights:
-- row-level security leaves a non-owner no counters, so no rows.
create function public.namecard_visit_days(day_starts bigint[])
returns table (day integer, type text, via text, visits bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  with
    kinds (type, via) as (
      values ('main', 'qr'), ('main', 'nfc'), ('main', 'link'),
             ('photo', 'qr'), ('photo', 'nfc'), ('photo', 'link')
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

comment on function public.namecard_visit_days(bigint[]) is
  'Owners: visits summed per day; day_starts are the days'' starts in epoch ms plus the end.';

revoke all on function public.namecard_visit_days(bigint[]) from public, anon;
grant execute on function public.namecard_visit_days(bigint[]) to authenticated, service_role;
