// The query plans of what visitors and members read, on the bench's database: the lookup /go
// makes (public.namecard_go), the card's status (public.namecard_status), the timeline walk
// inside it and the series' part of the lookup, each run under EXPLAIN (ANALYZE, BUFFERS) as
// the superuser. Every read is a security-definer function over the card main, so the plan is
// the one anon gets (tests/emulator/index-plan.test.ts checks anon's own plan); a PL/pgSQL
// function shows as one node, its time and buffers including the queries it runs.
import { MAIN_CARD } from '../shared/core/cards.js';
import { ACTIVE_COLUMNS, GO_FUNCTION } from '../shared/core/lookup.js';
import type { BenchEmulator } from './emulator.js';

/** The id of the card main, as SQL. */
const MAIN_ID = `(select c.id from public.namecard_card as c where c.slug = '${MAIN_CARD}')`;

/** The server's now as epoch ms, as SQL. */
const NOW_MS = '(extract(epoch from now()) * 1000)::bigint';

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

/** EXPLAIN (ANALYZE, BUFFERS) of the lookup (/go's GET of namecard_go) of the card main. */
export async function explainLookup(emulator: BenchEmulator): Promise<Plan> {
  const text = await explainText(
    emulator,
    `select ${ACTIVE_COLUMNS} from public.${GO_FUNCTION}($1)`,
    [MAIN_CARD],
  );
  return { text, executionMs: timeIn(text, 'Execution') };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the timeline read (namecard_status of the card main: the
 * server's now, the active entry and up to 24 segments of the timeline). The walk runs inside a
 * PL/pgSQL function, so the plan shows one node; its buffers and time include the walk's index
 * probes.
 */
export async function explainStatus(emulator: BenchEmulator): Promise<Plan> {
  const text = await explainText(
    emulator,
    'select now, active, timeline from public.namecard_status($1)',
    [MAIN_CARD],
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
 * The walk of 24 segments from the server's now of the card main (private.namecard_timeline_until,
 * what the status calls), timed by EXPLAIN ANALYZE `calls` times: the median, so that a
 * connection's first call (its session plans the walk's PL/pgSQL once: 20-40 ms) does not stand
 * for the walk, as one EXPLAIN of the whole status would (its lookup, labels, destination and
 * series ahead besides the walk).
 */
export async function timeWalk(emulator: BenchEmulator, calls = 11): Promise<WalkTime> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const text = await explainText(
      emulator,
      `select * from private.namecard_timeline_until(${MAIN_ID}, ${NOW_MS}, null, 24)`,
    );
    times.push(timeIn(text, 'Planning') + timeIn(text, 'Execution'));
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)] ?? Number.NaN, calls };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the series' part of the lookup of the card main at the server's
 * now: the materialised occurrences' index stab (private.namecard_series_materialised_at,
 * inlined, so the plan shows the index), and the call /go's lookup makes
 * (private.namecard_series_in_force_of, PL/pgSQL: one node, its time including the stab and the
 * one-time fallback check).
 */
export async function explainSeries(emulator: BenchEmulator): Promise<Plan> {
  const stab = await explainText(
    emulator,
    `select * from private.namecard_series_materialised_at(${MAIN_ID}, ${NOW_MS})`,
  );
  const call = await explainText(
    emulator,
    `select * from private.namecard_series_in_force_of(${MAIN_ID}, ${NOW_MS})`,
  );
  return { text: `${stab}\n\n${call}`, executionMs: timeIn(call, 'Execution') };
}
