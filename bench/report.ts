// Turns the figures into what people read: the goals table and the detail tables (Markdown,
// stdout and bench/results/latest.md), the JSON under bench/results/, and the lookup chart (SVG).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchResults } from './bench-results.js';
import type { DbKind } from './emulator.js';
import { goals, type Goal } from './goals.js';
import {
  anonFloodTable,
  cliTable,
  floodTable,
  largestPlans,
  loadTable,
  lookupTable,
  pageTable,
  seriesTables,
  siteTable,
  timelineTable,
} from './report-tables.js';
import { cardsTable } from './report-cards.js';
import { lineChart, type Series } from './svg.js';

const verdict = (g: Goal, overloaded: boolean) =>
  `${g.met === undefined ? '—' : g.met ? 'yes' : '**no**'}${overloaded && g.met !== undefined ? ' (overloaded)' : ''}`;

/** The load averages taken before each measurement, once the machine had settled. */
function settled(m: BenchResults['machine'], quick: boolean): string {
  const loads = (m.loadAverage.sections ?? []).map((s) => s.load);
  if (loads.length === 0) return '';
  const low = Math.min(...loads).toFixed(2);
  const high = Math.max(...loads).toFixed(2);
  return `, ${low === high ? low : `${low}–${high}`} before each measurement${quick ? '' : ' (after settling)'}`;
}

/** The first line: when, on what machine and software, under what load. */
function heading(r: BenchResults): string {
  const m = r.machine;
  return (
    `Benchmark ${r.date}${r.quick ? ' (--quick)' : ''} on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}; Node ${m.node}` +
    `${m.postgres ? `; PostgreSQL ${m.postgres}` : ''}${m.pglite ? `; PGlite ${m.pglite}` : ''}${m.chromium ? `; Chromium ${m.chromium}` : ''}` +
    `; load average ${m.loadAverage.start.toFixed(2)} at the start${settled(m, r.quick)}, ${m.loadAverage.end?.toFixed(2) ?? '?'} at the end.`
  );
}

/** The goals table, after a warning when the run was overloaded. */
function goalsTable(r: BenchResults): string[] {
  const overloaded = r.machine.overloaded === true;
  const warning = overloaded
    ? [
        '',
        `**Overloaded run**: the load average exceeded the ${r.machine.cores} cores, so other work competed for the CPU; these figures are not comparable with a quiet run's.`,
      ]
    : [];
  return [
    ...warning,
    '',
    '| goal | db | measured | floor (same run) | met? |',
    '|---|---|---|---|---|',
    ...goals(r).map(
      (g) =>
        `| ${g.goal} | ${g.db} | ${g.measured} | ${g.floor ?? '—'} | ${verdict(g, overloaded)} |`,
    ),
  ];
}

/** The goals table and the detail tables, as Markdown. */
export function markdown(r: BenchResults): string {
  const lines = [
    heading(r),
    ...goalsTable(r),
    ...lookupTable(r),
    ...seriesTables(r),
    ...timelineTable(r),
    ...largestPlans(r),
    ...cardsTable(r),
    ...pageTable(r),
    ...cliTable(r),
    ...siteTable(r),
    ...loadTable(r),
    ...floodTable(r),
    ...anonFloodTable(r),
  ];
  return `${lines.join('\n')}\n`;
}

const COLORS: Record<DbKind, { none: string; active: string }> = {
  postgres: { none: '#1f5fbf', active: '#6fa3ef' },
  pglite: { none: '#c2410c', active: '#f59e0b' },
};

/** The lookup chart: p50 (solid) and p99 (dashed) against rows, per database and case. */
export function lookupChart(r: BenchResults): string {
  const series: Series[] = [];
  for (const l of r.lookup) {
    for (const active of [false, true]) {
      const pts = l.points.filter((p) => p.active === active);
      for (const stat of ['p50', 'p99'] as const) {
        series.push({
          label: `${l.db} ${active ? 'active' : 'none active'} ${stat}`,
          color: COLORS[l.db][active ? 'active' : 'none'],
          dashed: stat === 'p99',
          marker: active ? 'square' : 'circle',
          points: pts.map((p) => ({ x: p.rows, y: p[stat] })),
        });
      }
    }
  }
  return lineChart({
    title: 'Active-entry lookup through the REST API',
    subtitle: `${r.date.slice(0, 10)}, ${r.machine.cores} cores, Node ${r.machine.node}; sequential requests`,
    xLabel: 'rows in public.namecard (log scale)',
    yLabel: 'ms per lookup',
    series,
  });
}

/**
 * Writes the figures with their goals (`names.json`), the tables (`names.markdown`) and, with
 * lookups, the chart (`names.chart`) into `dir`; returns the paths written.
 */
export async function writeResults(
  r: BenchResults,
  dir: string,
  names: { json: string; markdown: string; chart: string },
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify({ ...r, goals: goals(r) }, null, 2)}\n`;
  const written: string[] = [path.join(dir, names.json)];
  await writeFile(path.join(dir, names.json), json);
  await writeFile(path.join(dir, names.markdown), markdown(r));
  written.push(path.join(dir, names.markdown));
  if (r.lookup.length > 0) {
    await writeFile(path.join(dir, names.chart), lookupChart(r));
    written.push(path.join(dir, names.chart));
  }
  return written;
}
