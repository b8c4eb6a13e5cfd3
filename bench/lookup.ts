// Measurement 1: the active-entry lookup through the REST API against table size, with
// no active entry (the common case) and with one. The lookup is the product's: one GET of
// the view namecard_active (`fetchActiveEntry`). A tenth of each table (10^5 of 10^6) is
// scheduled entries that have not started yet, the newest ids, so a plan walking the
// primary key would have to read them all. Sizes run side by side: every round visits every
// size, so drift on the shared machine hits them all alike.
import { fetchActiveEntry, fetchStatus } from '../shared/core/lookup.js';
import type { BenchEmulator, DbKind } from './emulator.js';
import { explainLookup, explainStatus, type Plan } from './explain.js';
import type { Fleet, FilledTable } from './fleet.js';
import { medianOfRounds, msSince, percentiles, type Percentiles } from './stats.js';

export interface LookupSettings {
  sizes: number[];
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
  /** The timeline read (`fetchStatus`, one GET of namecard_status): medians, and its plan. */
  status: Percentiles & { plan: Plan };
}

export interface LookupResult {
  db: DbKind;
  points: LookupPoint[];
  /** p50 at the largest size ÷ p50 at the smallest, per case. */
  ratio: { none: number; active: number };
  /** The same for the timeline read (namecard_status). */
  statusRatio: { none: number; active: number };
}

/** One timed read of the card's status (now, active entry, timeline), ms. */
async function timedStatus(table: FilledTable): Promise<number> {
  const start = process.hrtime.bigint();
  const status = await fetchStatus({
    supabaseUrl: table.emulator.url,
    anonKey: table.emulator.anonKey,
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
    timeoutMs: 10_000,
  });
  const ms = msSince(start);
  if (table.active ? entry?.type !== 'photo' : entry !== null) {
    throw new Error(`lookup answered ${JSON.stringify(entry)} with active=${table.active}`);
  }
  return ms;
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
      `insert into public.namecard (stamp_end, type, created_by) values ($1, 'photo', null)`,
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
    for (const table of tables) await setActiveEntry(table, active);
    const rounds = new Map<FilledTable, Percentiles[]>(tables.map((t) => [t, []]));
    const errors = new Map<FilledTable, number>(tables.map((t) => [t, 0]));
    const statusRounds = new Map<FilledTable, Percentiles[]>(tables.map((t) => [t, []]));
    for (let round = 0; round < settings.rounds; round++) {
      // Rotate the order so no size always runs first (right after another process ran).
      const order = tables.map((_, i) => tables[(i + round) % tables.length] as FilledTable);
      for (const table of order) {
        const warmup = round === 0 ? settings.warmup : Math.ceil(settings.warmup / 10);
        for (let i = 0; i < warmup; i++) await timedLookup(table).catch(() => 0);
        const samples: number[] = [];
        for (let i = 0; i < settings.requestsPerRound; i++) {
          try {
            samples.push(await timedLookup(table));
          } catch (error) {
            errors.set(table, (errors.get(table) ?? 0) + 1);
            if (errors.get(table) === 1) log(`${fleet.db}: lookup failed: ${String(error)}`);
          }
        }
        rounds.get(table)?.push(percentiles(samples));
        // The timeline read, at a quarter of the lookup's requests (it is the owner's read).
        const statusSamples: number[] = [];
        for (let i = 0; i < Math.ceil(settings.requestsPerRound / 4); i++) {
          try {
            statusSamples.push(await timedStatus(table));
          } catch (error) {
            errors.set(table, (errors.get(table) ?? 0) + 1);
            log(`${fleet.db}: status read failed: ${String(error)}`);
          }
        }
        statusRounds.get(table)?.push(percentiles(statusSamples));
      }
    }
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
        },
      };
      points.push(point);
      log(
        `${fleet.db} lookup ${active ? 'active' : 'none  '} ${table.rows.toLocaleString('en-US').padStart(9)} rows: p50 ${point.p50.toFixed(2)} ms, p99 ${point.p99.toFixed(2)} ms, plan ${point.plan.executionMs} ms; status p50 ${point.status.p50.toFixed(2)} ms, plan ${point.status.plan.executionMs} ms`,
      );
    }
  }
  // Later sections expect the common case: no active entry.
  for (const table of tables) await setActiveEntry(table, false);

  const ratio = (active: boolean) => {
    const sel = points.filter((p) => p.active === active);
    const first = sel[0];
    const last = sel[sel.length - 1];
    return first && last ? last.p50 / first.p50 : Number.NaN;
  };
  const statusRatio = (active: boolean) => {
    const sel = points.filter((p) => p.active === active);
    const first = sel[0];
    const last = sel[sel.length - 1];
    return first && last ? last.status.p50 / first.status.p50 : Number.NaN;
  };
  return {
    db: fleet.db,
    points,
    ratio: { none: ratio(false), active: ratio(true) },
    statusRatio: { none: statusRatio(false), active: statusRatio(true) },
  };
}
