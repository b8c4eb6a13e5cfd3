// Measurement 1: the active-entry lookup through the REST API against table size, with
// no active entry (the common case) and with one. The lookup is the product's: one GET of
// rpc/namecard_go for the card main (`fetchActiveEntry`), what a bare /go/ sends. A tenth of each table (10^5 of 10^6) is
// scheduled entries that have not started yet, the newest ids, so a plan walking the
// primary key would have to read them all. Sizes run side by side: every round visits every
// size, so drift on the shared machine hits them all alike.
import { MAIN_CARD } from '../shared/core/cards.js';
import { fetchActiveEntry, fetchStatus } from '../shared/core/lookup.js';
import type { BenchEmulator, DbKind } from './emulator.js';
import {
  explainLookup,
  explainSeries,
  explainStatus,
  timeWalk,
  type Plan,
  type WalkTime,
} from './explain.js';
import type { Fleet, FilledTable } from './fleet.js';
import { medianOfRounds, msSince, percentiles, type Percentiles } from './stats.js';
import { MAIN_CARD_SQL } from '../tests/support/emulator.js';

export interface LookupSettings {
  sizes: number[];
  /** Live weekly series added to the largest table for the series case (0: no such case). */
  series: number;
  rounds: number;
  requestsPerRound: number;
  warmup: number;
}

export interface LookupPoint extends Percentiles {
  db: DbKind;
  rows: number;
  active: boolean;
  /** p50 and p99 of each round, ms. */
  rounds: Percentiles[];
  /** Requests whose answer was wrong or failed. */
  errors: number;
  plan: Plan;
  /**
   * The timeline read (`fetchStatus`, one GET of namecard_status): medians, and its plan; the
   * walk's own time in the database (absent from older result files).
   */
  status: Percentiles & { plan: Plan; walk?: WalkTime };
}

export interface LookupResult {
  db: DbKind;
  points: LookupPoint[];
  /** p50 at the largest size ÷ p50 at the smallest, per case. */
  ratio: { none: number; active: number };
  /** The same for the timeline read (namecard_status). */
  statusRatio: { none: number; active: number };
  /** The lookup with live series on the largest table, against the smallest without any. */
  series?: SeriesPoint;
}

/**
 * The lookup with `series` weekly series (random days, times and zones, some in force at any
 * moment; at most 100 live, the rest cancelled) and `rows` entries, beside the smallest table
 * with no series, both measured in the same interleaved rounds.
 */
export interface SeriesPoint extends Percentiles {
  db: DbKind;
  series: number;
  rows: number;
  rounds: Percentiles[];
  errors: number;
  /** Lookups whose answer differed from the rule's definition at the same instant. */
  mismatches: number;
  /** The smallest table's lookup (no series) in the same rounds. */
  baseline: Percentiles & { rows: number };
  /** p50 with series ÷ the baseline's p50. */
  ratio: number;
  /** EXPLAIN of the lookup (namecard_go), and of its series part. */
  plan: Plan;
  seriesPlan: Plan;
}

/** One timed read of the card's status (now, active entry, timeline), ms. */
async function timedStatus(table: FilledTable): Promise<number> {
  const start = process.hrtime.bigint();
  const status = await fetchStatus({
    supabaseUrl: table.emulator.url,
    anonKey: table.emulator.anonKey,
    card: MAIN_CARD,
    timeoutMs: 10_000,
  });
  const ms = msSince(start);
  if (status.timeline.length < 2) {
    throw new Error(`status answered ${JSON.stringify(status.timeline)} with future entries`);
  }
  return ms;
}

/** One timed lookup, ms; throws when the answer is not the expected one. */
async function timedLookup(table: FilledTable): Promise<number> {
  const start = process.hrtime.bigint();
  const entry = await fetchActiveEntry({
    supabaseUrl: table.emulator.url,
    anonKey: table.emulator.anonKey,
    card: MAIN_CARD,
    timeoutMs: 10_000,
  });
  const ms = msSince(start);
  if (table.active ? entry?.type !== 'photo' : entry !== null) {
    throw new Error(`lookup answered ${JSON.stringify(entry)} with active=${table.active}`);
  }
  return ms;
}

/** One timed lookup, ms, answer unchecked (checked against the rule separately). */
async function timedAnyLookup(table: FilledTable): Promise<number> {
  const start = process.hrtime.bigint();
  await fetchActiveEntry({
    supabaseUrl: table.emulator.url,
    anonKey: table.emulator.anonKey,
    card: MAIN_CARD,
    timeoutMs: 10_000,
  });
  return msSince(start);
}

/** Live series a card may have (private.namecard_limit('series')). */
export const LIVE_SERIES_LIMIT = 100;

/**
 * Adds `count` weekly series as the superuser (the materialising trigger runs as for an
 * owner's write): one to three weekdays, a start on the quarter hour, 1 to 9 hours long (some
 * past midnight), in four zones (two with the usual changes, Lord Howe's half hour, Kolkata's
 * +05:30); all but the newest LIVE_SERIES_LIMIT are then cancelled, as a card holds at most
 * that many live ones (the cap is lifted while they are stored: an owner reaches the same
 * table a hundred at a time); then VACUUM ANALYZE. Cancelling rebuilds each series' occurrences
 * and window, which leaves as many dead rows as live ones in the series' tables and their
 * indexes; a database in use has them removed by autovacuum within minutes, and measured with
 * them the timeline walk took twice as long (16-18 against 7.7 ms, 1,000 series). Returns the
 * time it took, ms.
 */
export async function addSeries(
  emulator: Pick<BenchEmulator, 'query'>,
  count: number,
): Promise<number> {
  const start = process.hrtime.bigint();
  await emulator.query('alter table public.namecard_series disable trigger namecard_series_cap');
  await emulator.query(
    `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone, created_by)
     select ${MAIN_CARD_SQL}, case when g % 2 = 0 then 'photo' else 'main' end,
       array(select distinct d from unnest(array[1 + g % 7, 1 + (g * 3) % 7, 1 + (g * 5) % 7]) as d
             order by d)::smallint[],
       make_time((g * 7) % 24, (g % 4) * 15, 0),
       make_time((g * 7 + 1 + g % 9) % 24, (g % 4) * 15, 0),
       (array['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'])[1 + g % 4],
       null
     from generate_series(1, $1::integer) as g`,
    [count],
  );
  await emulator.query(
    `update public.namecard_series
     set stopped_at = (extract(epoch from now()) * 1000)::bigint, stop_kind = 'cancelled'
     where id not in (select id from public.namecard_series order by id desc limit $1)`,
    [LIVE_SERIES_LIMIT],
  );
  await emulator.query('alter table public.namecard_series enable trigger namecard_series_cap');
  for (const table of [
    'public.namecard_series',
    'public.namecard_series_stop',
    'private.namecard_occurrence',
    'private.namecard_series_window',
  ]) {
    await emulator.query(`vacuum analyze ${table}`);
  }
  return msSince(start);
}

/**
 * How many of `n` checks found the lookup's answer (namecard_go of the card main) different
 * from the rule's definition at the same instant (private.namecard_in_force_at with the exact
 * expansion of the series).
 */
async function countMismatches(emulator: BenchEmulator, n: number): Promise<number> {
  let mismatches = 0;
  for (let i = 0; i < n; i++) {
    const [row] = await emulator.query<{ same: boolean }>(
      `select (select g.id from public.namecard_go('${MAIN_CARD}') as g)
         is not distinct from
         (select r.id from private.namecard_in_force_at(${MAIN_CARD_SQL},
           (extract(epoch from now()) * 1000)::bigint, 'exact') as r)
         as same`,
    );
    if (!row?.same) mismatches++;
  }
  return mismatches;
}

/**
 * The series case: live series on the largest table, measured against the smallest table
 * (no series) in interleaved rounds; then the series are removed again.
 */
async function measureSeries(
  fleet: Fleet,
  tables: FilledTable[],
  settings: LookupSettings,
  log: (line: string) => void,
): Promise<SeriesPoint | undefined> {
  const small = tables[0];
  const large = tables[tables.length - 1];
  if (!small || !large || settings.series <= 0) return undefined;
  const fillMs = await addSeries(large.emulator, settings.series);
  log(
    `${fleet.db}: ${settings.series.toLocaleString('en-US')} series (${Math.min(settings.series, LIVE_SERIES_LIMIT)} live, the rest cancelled) added to ${large.rows.toLocaleString('en-US')} rows in ${(fillMs / 1000).toFixed(1)} s`,
  );
  try {
    const both = [small, large];
    const rounds = new Map<FilledTable, Percentiles[]>(both.map((t) => [t, []]));
    let errors = 0;
    for (let round = 0; round < settings.rounds; round++) {
      const order = round % 2 === 0 ? both : [...both].reverse();
      for (const table of order) {
        const warmup = round === 0 ? settings.warmup : Math.ceil(settings.warmup / 10);
        for (let i = 0; i < warmup; i++) await timedAnyLookup(table).catch(() => 0);
        const samples: number[] = [];
        for (let i = 0; i < settings.requestsPerRound; i++) {
          try {
            samples.push(await timedAnyLookup(table));
          } catch (error) {
            errors++;
            if (errors === 1) log(`${fleet.db}: lookup with series failed: ${String(error)}`);
          }
        }
        rounds.get(table)?.push(percentiles(samples));
      }
    }
    const withSeries = medianOfRounds(rounds.get(large) ?? []);
    const baseline = medianOfRounds(rounds.get(small) ?? []);
    const point: SeriesPoint = {
      db: fleet.db,
      series: settings.series,
      rows: large.rows,
      ...withSeries,
      rounds: rounds.get(large) ?? [],
      errors,
      mismatches: await countMismatches(large.emulator, 20),
      baseline: { ...baseline, rows: small.rows },
      ratio: withSeries.p50 / baseline.p50,
      plan: await explainLookup(large.emulator),
      seriesPlan: await explainSeries(large.emulator),
    };
    log(
      `${fleet.db} lookup with ${point.series.toLocaleString('en-US')} series + ${point.rows.toLocaleString('en-US')} rows: p50 ${point.p50.toFixed(2)} ms (${point.baseline.rows.toLocaleString('en-US')} rows, no series: ${point.baseline.p50.toFixed(2)} ms) = ${point.ratio.toFixed(2)}x; plan ${point.plan.executionMs} ms, series part ${point.seriesPlan.executionMs} ms; ${point.mismatches} mismatches`,
    );
    return point;
  } finally {
    await large.emulator.query('delete from public.namecard_series_stop');
    await large.emulator.query('delete from public.namecard_series');
  }
}

const MINUTE = 60_000;
/** Share of each table turned into entries that have not started yet. */
const FUTURE_SHARE = 0.1;

/**
 * When the scheduled entries begin: 8 days on, after the active entry's end (7 days on), so
 * that the timeline read walks the same 24 segments at every table size, with and without
 * the active entry. Starting an hour on, they fell inside the active entry's week at 10^3
 * rows (100 minutes of them, hidden by the newer active entry: a walk of 2 steps) but not at
 * 10^6 (10^5 minutes: a walk through 24 segments), so the two sizes measured different work.
 */
const FUTURE_FROM = 8 * 24 * 60 * MINUTE;

/**
 * Turns the newest tenth of the table's (expired) rows into entries that start from
 * {@link FUTURE_FROM} on, one a minute, each a minute long, so the row count stays the size
 * measured; then VACUUM ANALYZE. Runs once per table (long before the first one starts).
 */
async function addFutureEntries(emulator: BenchEmulator, rows: number): Promise<void> {
  const future = Math.floor(rows * FUTURE_SHARE);
  await emulator.query(
    `with newest as (select max(id) as top from public.namecard)
     update public.namecard as n
     set stamp_start = $1::bigint + ${FUTURE_FROM} + (n.id - (newest.top - $2::bigint)) * ${MINUTE},
         stamp_end = $1::bigint + ${FUTURE_FROM + MINUTE} + (n.id - (newest.top - $2::bigint)) * ${MINUTE} - 1
     from newest where n.id > newest.top - $2::bigint`,
    [Date.now(), future],
  );
  await emulator.query('vacuum analyze public.namecard');
}

/**
 * Adds the active entry (the newest row, type photo, no start, ending in 7 days) or removes
 * it again, leaving the scheduled future entries alone; then ANALYZE.
 */
async function setActiveEntry(table: FilledTable, on: boolean): Promise<void> {
  if (table.active === on) return;
  if (on) {
    await table.emulator.query(
      `insert into public.namecard (card_id, stamp_end, type, created_by) values (${MAIN_CARD_SQL}, $1, 'photo', null)`,
      [Date.now() + 7 * 24 * 60 * MINUTE],
    );
  } else {
    await table.emulator.query(
      'delete from public.namecard where stamp_start is null and stamp_end > $1',
      [Date.now()],
    );
  }
  await table.emulator.query('analyze public.namecard');
  table.active = on;
}

const withFuture = new WeakSet<FilledTable>();

/**
 * One round at one table: the warm-up (the full one in the first round, a tenth after), the
 * timed lookups, then the timeline reads at a quarter of the lookup's requests (it is the
 * owner's read). A failed request counts in `errors`.
 */
async function timeRoundAt(
  table: FilledTable,
  round: number,
  settings: LookupSettings,
  errors: Map<FilledTable, number>,
  log: (line: string) => void,
): Promise<{ lookup: Percentiles; status: Percentiles }> {
  const warmup = round === 0 ? settings.warmup : Math.ceil(settings.warmup / 10);
  for (let i = 0; i < warmup; i++) await timedLookup(table).catch(() => 0);
  const samples: number[] = [];
  for (let i = 0; i < settings.requestsPerRound; i++) {
    try {
      samples.push(await timedLookup(table));
    } catch (error) {
      errors.set(table, (errors.get(table) ?? 0) + 1);
      if (errors.get(table) === 1) log(`lookup failed: ${String(error)}`);
    }
  }
  const statusSamples: number[] = [];
  for (let i = 0; i < Math.ceil(settings.requestsPerRound / 4); i++) {
    try {
      statusSamples.push(await timedStatus(table));
    } catch (error) {
      errors.set(table, (errors.get(table) ?? 0) + 1);
      log(`status read failed: ${String(error)}`);
    }
  }
  return { lookup: percentiles(samples), status: percentiles(statusSamples) };
}

/**
 * Every table, with or without the active entry, in interleaved rounds, then each table's
 * point: the medians of its rounds and the plans of its lookup and its timeline read.
 */
async function measureCase(
  fleet: Fleet,
  tables: FilledTable[],
  active: boolean,
  settings: LookupSettings,
  log: (line: string) => void,
): Promise<LookupPoint[]> {
  for (const table of tables) await setActiveEntry(table, active);
  const rounds = new Map<FilledTable, Percentiles[]>(tables.map((t) => [t, []]));
  const errors = new Map<FilledTable, number>(tables.map((t) => [t, 0]));
  const statusRounds = new Map<FilledTable, Percentiles[]>(tables.map((t) => [t, []]));
  for (let round = 0; round < settings.rounds; round++) {
    // Rotate the order so no size always runs first (right after another process ran).
    const order = tables.map((_, i) => tables[(i + round) % tables.length] as FilledTable);
    for (const table of order) {
      const figures = await timeRoundAt(table, round, settings, errors, (line) =>
        log(`${fleet.db}: ${line}`),
      );
      rounds.get(table)?.push(figures.lookup);
      statusRounds.get(table)?.push(figures.status);
    }
  }
  const points: LookupPoint[] = [];
  for (const table of tables) {
    const perRound = rounds.get(table) ?? [];
    const point: LookupPoint = {
      db: fleet.db,
      rows: table.rows,
      active,
      ...medianOfRounds(perRound),
      rounds: perRound,
      errors: errors.get(table) ?? 0,
      plan: await explainLookup(table.emulator),
      status: {
        ...medianOfRounds(statusRounds.get(table) ?? []),
        plan: await explainStatus(table.emulator),
        walk: await timeWalk(table.emulator),
      },
    };
    points.push(point);
    log(
      `${fleet.db} lookup ${active ? 'active' : 'none  '} ${table.rows.toLocaleString('en-US').padStart(9)} rows: p50 ${point.p50.toFixed(2)} ms, p99 ${point.p99.toFixed(2)} ms, plan ${point.plan.executionMs} ms; status p50 ${point.status.p50.toFixed(2)} ms, plan ${point.status.plan.executionMs} ms`,
    );
  }
  return points;
}

/** p50 at the largest size ÷ p50 at the smallest, of one case, as `p50` reads it. */
function lastOverFirst(
  points: LookupPoint[],
  active: boolean,
  p50: (point: LookupPoint) => number,
): number {
  const sel = points.filter((p) => p.active === active);
  const first = sel[0];
  const last = sel[sel.length - 1];
  return first && last ? p50(last) / p50(first) : Number.NaN;
}

export async function measureLookup(
  fleet: Fleet,
  settings: LookupSettings,
  log: (line: string) => void,
): Promise<LookupResult> {
  const tables: FilledTable[] = [];
  for (const rows of settings.sizes) {
    const table = await fleet.table(rows);
    if (!withFuture.has(table)) {
      await addFutureEntries(table.emulator, rows);
      withFuture.add(table);
      log(`${fleet.db}: ${rows.toLocaleString('en-US')} rows, a tenth of them not started yet`);
    }
    tables.push(table);
  }
  const points: LookupPoint[] = [];
  for (const active of [false, true]) {
    points.push(...(await measureCase(fleet, tables, active, settings, log)));
  }
  // Later sections expect the common case: no active entry.
  for (const table of tables) await setActiveEntry(table, false);
  const series = await measureSeries(fleet, tables, settings, log);

  const ratio = (active: boolean) => lastOverFirst(points, active, (p) => p.p50);
  const statusRatio = (active: boolean) => lastOverFirst(points, active, (p) => p.status.p50);
  return {
    db: fleet.db,
    points,
    ratio: { none: ratio(false), active: ratio(true) },
    statusRatio: { none: statusRatio(false), active: statusRatio(true) },
    ...(series ? { series } : {}),
  };
}
