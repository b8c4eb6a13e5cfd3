// Measurement 1: the active-entry lookup through the REST API against table size, with
// no active entry (the common case) and with one. Sizes run side by side: every round
// visits every size, so drift on the shared machine hits them all alike.
import { fetchActiveEntry } from '../shared/core/lookup.js';
import type { DbKind } from './emulator.js';
import { explainLookup, type Plan } from './explain.js';
import { setActive, type Fleet, type FilledTable } from './fleet.js';
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
}

export interface LookupResult {
  db: DbKind;
  points: LookupPoint[];
  /** p50 at the largest size ÷ p50 at the smallest, per case. */
  ratio: { none: number; active: number };
}

/** One timed lookup, ms; throws when the answer is not the expected one. */
async function timedLookup(table: FilledTable): Promise<number> {
  const start = process.hrtime.bigint();
  const now = Date.now();
  const entry = await fetchActiveEntry({
    supabaseUrl: table.emulator.url,
    anonKey: table.emulator.anonKey,
    now,
    timeoutMs: 10_000,
  });
  const ms = msSince(start);
  if (table.active ? entry?.type !== 'photo' : entry !== null) {
    throw new Error(`lookup answered ${JSON.stringify(entry)} with active=${table.active}`);
  }
  return ms;
}

export async function measureLookup(
  fleet: Fleet,
  settings: LookupSettings,
  log: (line: string) => void,
): Promise<LookupResult> {
  const tables: FilledTable[] = [];
  for (const rows of settings.sizes) tables.push(await fleet.table(rows));
  const points: LookupPoint[] = [];

  for (const active of [false, true]) {
    for (const table of tables) await setActive(table, active);
    const rounds = new Map<FilledTable, Percentiles[]>(tables.map((t) => [t, []]));
    const errors = new Map<FilledTable, number>(tables.map((t) => [t, 0]));
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
      };
      points.push(point);
      log(
        `${fleet.db} lookup ${active ? 'active' : 'none  '} ${table.rows.toLocaleString('en-US').padStart(9)} rows: p50 ${point.p50.toFixed(2)} ms, p99 ${point.p99.toFixed(2)} ms, plan ${point.plan.executionMs} ms`,
      );
    }
  }
  // Later sections expect the common case: no active entry.
  for (const table of tables) await setActive(table, false);

  const ratio = (active: boolean) => {
    const sel = points.filter((p) => p.active === active);
    const first = sel[0];
    const last = sel[sel.length - 1];
    return first && last ? last.p50 / first.p50 : Number.NaN;
  };
  return { db: fleet.db, points, ratio: { none: ratio(false), active: ratio(true) } };
}
