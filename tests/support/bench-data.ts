import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD_SQL } from './emulator.js';

/** How much of the bench's data to load (the largest by default). */
export interface BenchSizes {
  entries: number;
  futureEntries: number;
  series: number;
}

/** Entries in the bench's largest table, as tests/emulator/index-plan.test.ts loads them. */
export const BENCH_ENTRIES = 1_000_000;
/** Of which have not started yet (the newest ids, one a minute from an hour on). */
export const BENCH_FUTURE_ENTRIES = 100_000;
/** Weekly series stored, of which LIVE_SERIES are live (the cap) and the rest cancelled. */
export const BENCH_SERIES = 1_000;
export const LIVE_SERIES = 100;
/**
 * Profiles besides main and photo: with them a card has 50, the most it may have
 * (private.namecard_limit('profiles')). None is named by an entry or series, so that each label
 * asked about is looked for among the entries and the series and not found (the most work a
 * label takes).
 */
export const EXTRA_PROFILES = 48;

const MINUTE = 60_000;

/**
 * Fills a fresh emulator's database, as the superuser, with the bench's largest data: 10^6
 * entries (9 × 10^5 ended, one a minute up to `now`, no start; then 10^5 that have not started,
 * one a minute from an hour on), 10^3 weekly series (one to three weekdays, 1 to 9 hours, four
 * zones, materialised by their trigger), all but the newest 100 cancelled now, and
 * EXTRA_PROFILES profiles `p1`…; then VACUUM ANALYZE. The series cap is lifted while the
 * cancelled ones are stored (an owner reaches the same table 100 at a time: store, cancel,
 * store again). Takes a minute or two on PostgreSQL.
 * @param now epoch ms the entries are laid out around (the database's clock)
 * @param sizes smaller data for a quick bench run
 */
export async function loadBenchData(
  emulator: Pick<RunningEmulator, 'query'>,
  now: number,
  sizes: BenchSizes = {
    entries: BENCH_ENTRIES,
    futureEntries: BENCH_FUTURE_ENTRIES,
    series: BENCH_SERIES,
  },
): Promise<void> {
  // Loading 10^6 rows into the indexes one by one is slow: drop the secondary indexes and make
  // them again from their own definitions afterwards.
  const indexes = await emulator.query<{ indexdef: string; indexname: string }>(
    `select indexname, indexdef from pg_indexes where schemaname = 'public'
     and tablename = 'namecard' and indexname <> 'namecard_pkey'`,
  );
  for (const { indexname } of indexes) await emulator.query(`drop index public.${indexname}`);
  await emulator.query(
    `insert into public.namecard (card_id, stamp_end, type)
     select ${MAIN_CARD_SQL}, $1::bigint - ($2::bigint - g) * ${MINUTE} - 1,
       case when g % 2 = 0 then 'main' else 'photo' end
     from generate_series(1, $2::bigint) g`,
    [now, sizes.entries - sizes.futureEntries],
  );
  await emulator.query(
    `insert into public.namecard (card_id, stamp_start, stamp_end, type)
     select ${MAIN_CARD_SQL}, $1::bigint + 60 * ${MINUTE} + g * ${MINUTE},
       $1::bigint + 60 * ${MINUTE} + g * ${MINUTE} + ${MINUTE} - 1, 'photo'
     from generate_series(1, $2::bigint) g`,
    [now, sizes.futureEntries],
  );
  for (const { indexdef } of indexes) await emulator.query(indexdef);
  await emulator.query(`
    alter table public.namecard_series disable trigger namecard_series_cap;
    insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
    select ${MAIN_CARD_SQL}, case when g % 2 = 0 then 'photo' else 'main' end,
      array(select distinct d from unnest(array[1 + g % 7, 1 + (g * 3) % 7, 1 + (g * 5) % 7]) as d
            order by d)::smallint[],
      make_time((g * 7) % 24, (g % 4) * 15, 0),
      make_time((g * 7 + 1 + g % 9) % 24, (g % 4) * 15, 0),
      (array['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'])[1 + g % 4]
    from generate_series(1, ${sizes.series}) as g;
    update public.namecard_series
    set stopped_at = (extract(epoch from now()) * 1000)::bigint, stop_kind = 'cancelled'
    where id not in (select id from public.namecard_series order by id desc limit ${LIVE_SERIES});
    alter table public.namecard_series enable trigger namecard_series_cap;
    insert into public.namecard_profile (card_id, name, label, url)
    select ${MAIN_CARD_SQL}, 'p' || g, 'Profile ' || g, 'https://example.com/p' || g
    from generate_series(1, ${EXTRA_PROFILES}) as g;
  `);
  await emulator.query(
    'vacuum analyze public.namecard, public.namecard_series, public.namecard_profile',
  );
  await emulator.query('analyze private.namecard_occurrence, private.namecard_series_window');
}
