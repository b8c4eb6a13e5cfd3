-- Visits are counts only: per card, 15-minute bucket (server clock), profile served and channel.
-- No per-visit rows, no address, no user agent. One anon-callable function counts; members read.

create table public.namecard_visit (
  bucket bigint not null
    constraint namecard_visit_bucket_whole check (bucket >= 0 and bucket % 900000 = 0)
    constraint namecard_visit_bucket_range check (bucket < 7258118400000),
  type text not null,
  via text not null constraint namecard_visit_via_known check (via in ('qr', 'nfc', 'link')),
  visits bigint not null constraint namecard_visit_visits_positive check (visits > 0),
  -- The running total of this profile and channel up to and including this bucket, so that
  -- the visits between any two instants on bucket boundaries are two index look-ups (the
  -- total before the end minus the total before the start), however many visits there are.
  running bigint not null constraint namecard_visit_running_covers check (running >= visits)
    -- At most 10^15 (a million visits a second for 31 years), where counting stops adding: so
    -- that no row, however large its numbers, makes a count fail.
    constraint namecard_visit_running_range check (running <= 1000000000000000),
  -- The card visited.
  card_id bigint not null references public.namecard_card (id),
  constraint namecard_visit_type_profile foreign key (card_id, type)
    references public.namecard_profile (card_id, name),
  constraint namecard_visit_pkey primary key (card_id, bucket, type, via)
);

-- "The last counter of this card, profile and channel before t" for the running totals.
create index namecard_visit_running_idx
  on public.namecard_visit (card_id, type, via, bucket desc) include (running);

comment on table public.namecard_visit is
  'Visit counts: per 15-minute bucket (start, epoch ms), type sent to and channel (qr|nfc|link).';

-- The card's members read its counts (a card token as a member); nobody else reads them, and
-- nobody writes them through the API but the counting function.
alter table public.namecard_visit enable row level security;
revoke all on table public.namecard_visit from anon, authenticated, public;
grant select on table public.namecard_visit to anon, authenticated;
grant select, insert, update, delete on table public.namecard_visit to service_role;

create policy namecard_visit_member_read on public.namecard_visit
  for select to anon, authenticated
  using (card_id = any ((select private.namecard_cards_where('viewer'))::bigint[]));

-- Counts one visit of a card's link (/go/?c=<slug>; a bare /go/ is main) now: for the profile its
-- lookup answers now (the caller cannot choose it), via 'qr' or 'nfc' (anything else: 'link').
-- Two named text parameters, so that a browser calls it with a CORS-simple POST of a form
-- (application/x-www-form-urlencoded: via=qr&card=<slug>). An unknown or removed slug counts
-- nothing, answers as any other does (204), and costs what a count costs: the lookup, the lock and
-- the read of the counter are made for the card main in its stead, so that nobody learns by
-- timing which cards exist. A visit is a rough signal: its commit does not wait for the disk
-- (synchronous_commit off, for this transaction only), which a write of one counter would
-- otherwise add to a real slug's time.
-- Security definer: anon holds no privilege on the table.
create or replace function public.namecard_count_visit(via text, card text)
returns void
language plpgsql
security definer
set search_path = ''
set plan_cache_mode = 'force_generic_plan'
as $$
#variable_conflict use_column
declare
  cid bigint := private.namecard_live_card(namecard_count_visit.card);
  -- The card whose lookup, lock and counter are read: the card named, or main in its stead.
  read_card bigint := coalesce(cid, private.namecard_live_card('main'));
  channel text := lower(btrim(coalesce(namecard_count_visit.via, '')));
  sent_to text;
  at_ms bigint;
  prev_total bigint;
begin
  perform set_config('synchronous_commit', 'off', true);
  if channel not in ('qr', 'nfc') then
    channel := 'link';
  end if;
  select a.type into sent_to
  from private.namecard_in_force_at(read_card, (extract(epoch from now()) * 1000)::bigint, 'lookup') as a;
  sent_to := coalesce(sent_to, 'main');
  -- One count of a card, profile and channel at a time, the bucket taken from the clock once
  -- the lock is held: buckets then only ever grow, and the newest counter's running total is
  -- the one to add to. Counts of other cards, profiles or channels do not wait.
  perform pg_advisory_xact_lock(
    hashtext('namecard_visit:' || coalesce(cid, 0)::text || ':' || sent_to || ':' || channel));
  -- (A missing slug takes a lock of its own, key 0: visitors of main do not wait for it.)
  at_ms := (extract(epoch from clock_timestamp()) * 1000)::bigint;
  select v.running into prev_total
  from public.namecard_visit as v
  where v.card_id = read_card and v.type = sent_to and v.via = channel
  order by v.bucket desc
  limit 1;
  -- Counters stop at 10^15 (namecard_visit_running_range) rather than fail.
  insert into public.namecard_visit as v (card_id, bucket, type, via, visits, running)
  select cid, at_ms - at_ms % 900000, sent_to, channel, 1,
    least(coalesce(prev_total, 0) + 1, 1000000000000000)
  where cid is not null
  on conflict (card_id, bucket, type, via) do update
    set visits = least(v.visits + 1, 1000000000000000),
      running = least(v.running + 1, 1000000000000000);
end;
$$;

comment on function public.namecard_count_visit(text, text) is
  'Counts one visit now of the live card of slug card: for its active profile, via qr|nfc (anything else: link). An unknown slug counts nothing.';

revoke all on function public.namecard_count_visit(text, text) from public;
grant execute on function public.namecard_count_visit(text, text) to anon, authenticated, service_role;

-- Members (viewers and up, a card token too): a card's visits summed per day, by profile and
-- channel; day_starts are the days' starts in epoch ms on 15-minute boundaries, ascending, plus
-- the end of the last: at most 32 (a month; a longer span is asked in several calls). Two probes
-- of the running totals' index per day and kind (a profile of the card, at most
-- private.namecard_limit('profiles'), and a channel), read from the index alone: what it costs
-- is bounded by the days and the card's profiles, however many visits there were.
create or replace function public.namecard_visit_days(day_starts bigint[], card text)
returns table (day integer, type text, via text, visits bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cid bigint := private.namecard_card_id(card);
  n integer := coalesce(cardinality(day_starts), 0);
begin
  if n > 32 then
    raise exception using
      errcode = '22023',
      message = format('day_starts must hold at most 32 values (31 days and the end of the last), not %s', n),
      hint = 'Ask for a longer span in several calls.';
  end if;
  if exists (select 1 from unnest(day_starts) as d (v) where d.v is null or d.v % 900000 <> 0) then
    raise exception using
      errcode = '22023',
      message = 'day_starts must be epoch milliseconds on 15-minute boundaries (multiples of 900000)';
  end if;
  if exists (
    select 1 from generate_subscripts(day_starts, 1) as i (i)
    where i.i > 1 and day_starts[i.i] <= day_starts[i.i - 1]
  ) then
    raise exception using errcode = '22023', message = 'day_starts must be in ascending order';
  end if;
  return query
  with
    kinds (type, via) as (
      select p.name, c.via
      from public.namecard_profile as p
      cross join (values ('qr'), ('nfc'), ('link')) as c (via)
      where p.card_id = cid
    ),
    marks as (
      select k.type, k.via, i.i, coalesce((
        select v.running
        from public.namecard_visit as v
        where v.card_id = cid and v.type = k.type and v.via = k.via and v.bucket < day_starts[i.i]
        order by v.bucket desc
        limit 1
      ), 0) as total
      from kinds as k
      cross join generate_subscripts(day_starts, 1) as i (i)
    )
  select m.i::integer as day, m.type, m.via, (n2.total - m.total)::bigint as visits
  from marks as m
  join marks as n2 on n2.type = m.type and n2.via = m.via and n2.i = m.i + 1
  where n2.total > m.total
  order by 1, 2, 3;
end;
$$;

comment on function public.namecard_visit_days(day_starts bigint[], card text) is
  'Members: visits of the card (slug) summed per day; day_starts are the days'' starts in epoch ms plus the end (at most 32).';

revoke all on function public.namecard_visit_days(day_starts bigint[], card text) from public;
grant execute on function public.namecard_visit_days(day_starts bigint[], card text) to anon, authenticated, service_role;
