// The query plan of the active-entry lookup, for the SQL text the emulator sends: the same
// query string `fetchActiveEntry` requests, parsed and built by the emulator's own PostgREST
// code, then run under EXPLAIN (ANALYZE, BUFFERS) with the same bound parameter.
// It runs as the superuser rather than as `anon` inside the emulator's transaction; the
// read policy is `using (true)`, which the planner drops, so the plan is the one anon gets.
import { parseQuery } from '../emulator/rest/query.js';
import type { TableInfo } from '../emulator/rest/schema-cache.js';
import { buildRead } from '../emulator/rest/sql.js';
import { activeEntryQuery } from '../shared/core/lookup.js';
import type { BenchEmulator } from './emulator.js';

const NAMECARD: TableInfo = {
  schema: 'public',
  name: 'namecard',
  columns: new Map(
    ['id', 'stamp_end', 'type', 'created_at', 'created_by'].map((name) => [
      name,
      { name, hasDefault: name !== 'stamp_end' && name !== 'type' },
    ]),
  ),
};

/** The lookup's SQL and parameters as the emulator builds them for the reader's `now`. */
export function lookupStatement(now: number): { sql: string; params: unknown[] } {
  return buildRead(NAMECARD, parseQuery(new URLSearchParams(activeEntryQuery(now))), false);
}

/** A plan as text, and PostgreSQL's own execution time for it (ms). */
export interface Plan {
  text: string;
  executionMs: number;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the lookup on `emulator`'s database. */
export async function explainLookup(emulator: BenchEmulator, now = Date.now()): Promise<Plan> {
  const { sql, params } = lookupStatement(now);
  const rows = await emulator.query<Record<string, string>>(
    `explain (analyze, buffers) ${sql}`,
    params,
  );
  const text = rows.map((row) => Object.values(row)[0] ?? '').join('\n');
  const match = /Execution Time: ([\d.]+) ms/.exec(text);
  return { text, executionMs: match ? Number(match[1]) : Number.NaN };
}
