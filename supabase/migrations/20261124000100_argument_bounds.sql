-- Bounded arguments for the owners' visits read. namecard_visit_days took any array: 20,000
-- days cost about a second of database time per call, and a pool of such calls could keep the
-- database busy. Its readers ask for at most 366 days (`namecard stats --days`, /manage's
-- chart), so it now refuses, with 22023 (PostgREST: 400) and a message naming the argument:
-- more than 400 days, days not in ascending order, or a day start off the 15-minute grid the
-- counters are kept on. The body is the profiles migration's, unchanged.

create or replace function public.namecard_visit_days(day_starts bigint[])
returns table (day integer, type text, via text, visits bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  n integer := coalesce(cardinality(day_starts), 0);
begin
  if n > 401 then
    raise exception using
      errcode = '22023',
      message = format('day_starts must hold at most 401 values (400 days and the end of the last), not %s', n);
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
  select m.i::integer as day, m.type, m.via, (n2.total - m.total)::bigint as visits
  from marks as m
  join marks as n2 on n2.type = m.type and n2.via = m.via and n2.i = m.i + 1
  where n2.total > m.total
  order by 1, 2, 3;
end;
$$;
