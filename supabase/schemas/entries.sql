-- Entries: one row per switch of the card. An entry is active at instant t when
-- (stamp_start is null or stamp_start <= t) and stamp_end > t (epoch ms, the database server's
-- clock); among active entries the highest id wins; with none, visitors get the main site.
-- Rows are never deleted: end and cancel mark them (stopped_at, stop_kind, planned_end).

create table public.namecard (
  id bigint generated always as identity primary key,
  stamp_end bigint not null constraint namecard_stamp_end_positive check (stamp_end > 0),
  type text not null,
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  stamp_start bigint null,
  stopped_at bigint null,
  stop_kind text null constraint namecard_stop_kind_known check (stop_kind in ('ended', 'cancelled')),
  planned_end bigint null,
  -- The card it switches.
  card_id bigint not null references public.namecard_card (id),
  constraint namecard_start_before_end check (
    stamp_start is null or stamp_start < stamp_end
    or (stop_kind is not null and stamp_start <= stamp_end)
  ),
  constraint namecard_stop_complete check (
    (stopped_at is null and stop_kind is null and planned_end is null)
    or (stopped_at is not null and stop_kind is not null and planned_end is not null)
  ),
  -- Every instant from 1970 to the end of 2199 (epoch ms): a value past that would overflow the
  -- date arithmetic of the rule and stop status, lookups and writes for everyone.
  constraint namecard_instants_range check (
    stamp_end < 7258118400000
    and (stamp_start is null or stamp_start >= 0)
    and (stopped_at is null or stopped_at between 0 and 7258118399999)
    and (planned_end is null or planned_end between 0 and 7258118399999)
  ),
  constraint namecard_type_profile foreign key (card_id, type)
    references public.namecard_profile (card_id, name)
);

comment on table public.namecard is
  'Name card switches: type main|photo until stamp_end (epoch ms). Newest active entry wins.';
comment on column public.namecard.stamp_start is
  'Epoch ms when the entry starts; null means from the moment it was stored.';
comment on column public.namecard.stopped_at is
  'Epoch ms (server clock) when the owner ended or cancelled the entry; null if never.';
comment on column public.namecard.stop_kind is
  'ended: stopped by "end now" while in force; cancelled: stopped by "cancel"; null: never.';
comment on column public.namecard.planned_end is
  'The stamp_end the entry had before it was stopped (stamp_end is then the stop moment).';

-- What is active at t in a card is answered by two partial indexes, one per kind of entry, so
-- that neither the ended entries (most of the table) nor the ones not started yet are read:
-- - no start: active while stamp_end > t, a btree range scan over the card's few not ended;
-- - a start: active while stamp_start <= t < stamp_end, a GiST (btree_gist) over the card, the
--   start and the end, which prunes by all three at once as an R-tree does, for a member's read
--   of the table: plain comparisons of bigints, not a range's @>, are leakproof, so that under
--   row-level security they still bound the index scan. The rule's own lookups run as the
--   tables' owner and read the range index below.
-- The next start after t is a btree on the card and the start; the card's own list a btree on
-- the card and the id, and what has not ended yet (a face's `endingAfter`) one on the card and
-- the end. The card first in every one: a card's rows are one range of each, however many
-- other cards there are. tests/emulator/index-plan.test.ts checks the plans at 10^6 rows.
create index namecard_stamp_end_idx on public.namecard (card_id, stamp_end);
create index namecard_open_end_idx on public.namecard (card_id, stamp_end) where stamp_start is null;
create index namecard_active_range_idx
  on public.namecard using gist (card_id, stamp_start, stamp_end)
  where stamp_start is not null;
create index namecard_start_idx on public.namecard (card_id, stamp_start)
  where stamp_start is not null;
-- The timeline walk's stab of the started entries at an instant that is a value of its query,
-- not a constant: with it, the planner reads the range index, where with the columns it reads
-- every entry started before the instant from the start's btree (0.4 ms a step at 10^6 rows).
-- The walk runs as the owner, so the range's operator need not be leakproof. Its predicate is
-- written as the walk alone writes it (every started entry with an end after its start): with
-- `stamp_start is not null` the rule's lookups read all of a card's started entries through it.
create index namecard_started_range_idx
  on public.namecard using gist (card_id, int8range(stamp_start, stamp_end))
  where stamp_end - stamp_start > 0;
create index namecard_card_idx on public.namecard (card_id, id);
-- Whether an entry of a card in force or to come names a profile (what anon may learn of a
-- profile, private.namecard_public_profiles): one probe, not a read of every entry not ended
-- (round 5: 64 labels read 76,000 buffers at 10^6 rows).
create index namecard_type_end_idx on public.namecard (card_id, type, stamp_end);

alter table public.namecard enable row level security;

-- A card's members read its entries (a card token as a member: the caller is then anon, with
-- the token's card set by the pre-request check). Nobody writes them directly: set, end and
-- cancel are functions that check the caller's role first (write-path.sql).
revoke all on table public.namecard from anon, authenticated, public;
grant select on table public.namecard to anon, authenticated;
grant select, insert on table public.namecard to service_role;

create policy namecard_member_read on public.namecard
  for select to anon, authenticated
  using (card_id = any ((select private.namecard_cards_where('viewer'))::bigint[]));

create trigger namecard_entry_profile
  before insert on public.namecard
  for each row execute function private.namecard_entry_profile_check();
