// The query plan of the active-entry lookup, for the SQL text the emulator sends: the same
// query string the product requests (`viewUrl(…, 'namecard_active')`), parsed and built by the
// emulator's own PostgREST code, then run under EXPLAIN (ANALYZE, BUFFERS).
// It runs as the superuser rather than as `anon` inside the emulator's transaction; the
// view is security_invoker and anon's read policy is `card_id = namecard_first_card()`, a
// constant the lookup asks already (tests/emulator/index-plan.test.ts checks anon's own plan),
// and the column grants do not change the plan, so the plan is the one anon gets.
import { parseQuery } from '../emulator/rest/query.js';
import type { TableInfo } from '../emulator/catalog/schema-cache.js';
import { buildRead } from '../emulator/rest/sql.js';
import { ACTIVE_COLUMNS, ACTIVE_VIEW, viewUrl } from '../shared/core/lookup.js';
import type { BenchEmulator } from './emulator.js';

const ACTIVE: TableInfo = {
  schema: 'public',
  name: ACTIVE_VIEW,
  columns: new Map(ACTIVE_COLUMNS.split(',').map((name) => [name, { name, hasDefault: false }])),
};

/** The lookup's SQL and parameters as the emulator builds them for the product's view URL. */
export function lookupStatement(): { sql: string; params: unknown[] } {
  // The parser leaves out `apikey` (the gateway's parameter, never a filter).
  const query = new URL(viewUrl('http://bench.invalid', 'key', ACTIVE_VIEW)).searchParams;
  return buildRead(ACTIVE, parseQuery(query), false);
}

/** A plan as text, and PostgreSQL's own execution time for it (ms). */
export interface Plan {
  text: string;
  executionMs: number;
}

/** The plan EXPLAIN (ANALYZE, BUFFERS) prints for `sql` on `emulator`'s database, as text. */
async function explainText(
  emulator: BenchEmulator,
  sql: string,
  params?: unknown[],
): Promise<string> {
  const rows = await emulator.query<Record<string, string>>(
    `explain (analyze, buffers) ${sql}`,
    params,
  );
  return rows.map((row) => Object.values(row)[0] ?? '').join('\n');
}

/** A time EXPLAIN ANALYZE printed (`label`: 'Planning' or 'Execution'), ms; NaN when absent. */
function timeIn(text: string, label: 'Planning' | 'Execution'): number {
  const match = new RegExp(`${label} Time: ([\\d.]+) ms`).exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the lookup (the view namecard_active) on `emulator`'s database. */
export async function explainLookup(emulator: BenchEmulator): Promise<Plan> {
  const { sql, params } = lookupStatement();
  const text = await explainText(emulator, sql, params);
  return { text, executionMs: timeIn(text, 'Execution') };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the timeline read (the view namecard_status: the server's now,
 * the active entry and up to 24 segments of the timeline). The walk runs inside a PL/pgSQL
 * function, so the plan shows one node; its buffers and time include the walk's index probes.
 */
export async function explainStatus(emulator: BenchEmulator): Promise<Plan> {
  const text = await explainText(
    emulator,
    'select now, active, timeline from public.namecard_status',
  );
  return { text, executionMs: timeIn(text, 'Execution') };
}

/** The timeline walk's own time in the database: the median of `calls` warm calls, ms. */
export interface WalkTime {
  /** Median of planning + execution time (EXPLAIN ANALYZE) over the calls, ms. */
  medianMs: number;
  calls: number;
}

/**
 * The walk of 24 segments from the server's now (public.namecard_timeline_at, what the status
 * view calls for the first card), timed by EXPLAIN ANALYZE `calls` times: the median, so that a
 * connection's first call (its session plans the walk's PL/pgSQL once: 20-40 ms) does not stand
 * for the walk, as one EXPLAIN of the whole status view did (its lookup, labels, destination and
 * series ahead besides the walk).
 */
export async function timeWalk(emulator: BenchEmulator, calls = 11): Promise<WalkTime> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const text = await explainText(
      emulator,
      'select * from public.namecard_timeline_at((extract(epoch from now()) * 1000)::bigint, 24)',
    );
    times.push(timeIn(text, 'Planning') + timeIn(text, 'Execution'));
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)] ?? Number.NaN, calls };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the series' part of the lookup at the server's now: the
 * materialised occurrences' index stab (private.namecard_series_materialised_at, inlined, so
 * the plan shows the index), and the call /go's lookup makes (public.namecard_series_in_force,
 * PL/pgSQL: one node, its time including the stab and the one-time fallback check).
 */
export async function explainSeries(emulator: BenchEmulator): Promise<Plan> {
  const now = '(extract(epoch from now()) * 1000)::bigint';
  const stab = await explainText(
    emulator,
    `select * from private.namecard_series_materialised_at(public.namecard_first_card(), ${now})`,
  );
  const call = await explainText(emulator, `select * from public.namecard_series_in_force(${now})`);
  return { text: `${stab}\n\n${call}`, executionMs: timeIn(call, 'Execution') };
}
