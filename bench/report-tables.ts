// The detail tables of the report, one function per measurement: each returns its lines
// (a blank line first), or none when the run did not measure it.
import path from 'node:path';
import type { VisitorLookups } from './member-flood.js';
import type { BenchResults } from './bench-results.js';
import type { CliCommandFigures } from './cli.js';
import type { Plan } from './explain.js';
import { ms, size, span, x } from './report-format.js';

const count = (n: number) => n.toLocaleString('en-US');
const caseOf = (active: boolean) => (active ? 'active entry' : 'none active');

/** A plan (or two) folded away under a summary line. */
function details(summary: string, ...plans: Plan[]): string[] {
  const texts = plans.flatMap((plan, i) => (i === 0 ? [plan.text] : ['', plan.text]));
  return [
    '',
    `<details><summary>${summary}</summary>`,
    '',
    '```',
    ...texts,
    '```',
    '',
    '</details>',
  ];
}

/** The lookup through the REST API at each size and case. */
export function lookupTable(r: BenchResults): string[] {
  if (r.lookup.length === 0) return [];
  const lines = [
    '',
    'Lookup through the REST API (sequential requests after warm-up; medians of per-round p50/p99):',
    '',
    '| db | case | rows | p50 | p99 | plan (EXPLAIN ANALYZE) |',
    '|---|---|---:|---:|---:|---|',
  ];
  for (const l of r.lookup) {
    for (const p of l.points) {
      const node = /->\s+(.*?) on namecard/.exec(p.plan.text)?.[1] ?? '?';
      lines.push(
        `| ${l.db} | ${caseOf(p.active)} | ${count(p.rows)} | ${ms(p.p50)} | ${ms(p.p99)} | ${node}, ${p.plan.executionMs} ms |`,
      );
    }
  }
  return lines;
}

/** The lookup with live weekly series, and its plans. */
export function seriesTables(r: BenchResults): string[] {
  const measured = r.lookup.flatMap((l) => (l.series ? [{ db: l.db, s: l.series }] : []));
  if (measured.length === 0) return [];
  const lines = [
    '',
    'Lookup with live weekly series (the largest table, beside the smallest with none, in the same rounds):',
    '',
    '| db | series | rows | p50 | p99 | no series, rows: p50 | ratio | in the database: lookup, series part | answers ≠ the rule |',
    '|---|---:|---:|---:|---:|---:|---:|---|---:|',
  ];
  for (const { db, s } of measured) {
    lines.push(
      `| ${db} | ${count(s.series)} | ${count(s.rows)} | ${ms(s.p50)} | ${ms(s.p99)} | ${count(s.baseline.rows)}: ${ms(s.baseline.p50)} | ${x(s.ratio)} | ${s.plan.executionMs} ms, ${s.seriesPlan.executionMs} ms | ${s.mismatches} |`,
    );
  }
  for (const { db, s } of measured) {
    lines.push(
      ...details(
        `${db}, ${count(s.series)} series, ${count(s.rows)} rows: EXPLAIN (ANALYZE, BUFFERS) of the lookup and of its series part`,
        s.plan,
        s.seriesPlan,
      ),
    );
  }
  return lines;
}

/** The timeline read (namecard_status) at each size and case. */
export function timelineTable(r: BenchResults): string[] {
  if (!r.lookup.some((l) => l.points.some((p) => p.status))) return [];
  const lines = [
    '',
    "Timeline read through the REST API (`namecard status`'s one GET of namecard_status: now, active entry, up to 24 segments):",
    '',
    '| db | case | rows | p50 | p99 | in the database (EXPLAIN ANALYZE) |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const l of r.lookup) {
    for (const p of l.points.filter((q) => q.status)) {
      lines.push(
        `| ${l.db} | ${caseOf(p.active)} | ${count(p.rows)} | ${ms(p.status.p50)} | ${ms(p.status.p99)} | ${p.status.plan.executionMs} ms |`,
      );
    }
  }
  return lines;
}

/** The plans of the timeline read and of the lookup at the largest table, per database. */
export function largestPlans(r: BenchResults): string[] {
  const lines: string[] = [];
  for (const l of r.lookup) {
    const largest = Math.max(...l.points.map((p) => p.rows));
    const at = l.points.filter((p) => p.rows === largest);
    for (const p of at.filter((q) => q.status)) {
      lines.push(
        ...details(
          `${l.db}, ${caseOf(p.active)}, ${count(p.rows)} rows: EXPLAIN (ANALYZE, BUFFERS) of the timeline read`,
          p.status.plan,
        ),
      );
    }
    for (const p of at) {
      lines.push(
        ...details(
          `${l.db}, ${caseOf(p.active)}, ${count(p.rows)} rows: EXPLAIN (ANALYZE, BUFFERS) of the lookup`,
          p.plan,
        ),
      );
    }
  }
  return lines;
}

const PAGE_NAMES = { go: '/go', baseline: 'baseline', limit: 'reference: 1 HTML + 1 GET' };

/** The visitor's page: every page, size and network. */
export function pageTable(r: BenchResults): string[] {
  if (r.page.length === 0) return [];
  const lines = [
    '',
    'Visitor page in headless Chromium (fresh context per load; medians from navigation start; API requests per load, fewest–most):',
    '',
    '| db | network | page | rows | decision | redirect | API requests for the decision (OPTIONS) per load, + visit count POSTs | scripts (gzipped) | first load: requests, answer | HTML done | API request |',
    '|---|---|---|---:|---:|---:|---|---:|---|---:|---:|',
  ];
  for (const p of r.page) {
    for (const g of p.pages) {
      const requests = Object.entries(g.apiRequests)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([method, n]) => `${n} ${method}`)
        .join(' + ');
      const scripts = `${(g.scripts.gzipBytes / 1024).toFixed(2)} KB (${g.scripts.count} ${g.scripts.count === 1 ? 'file' : 'files'})`;
      lines.push(
        `| ${p.db} | ${g.network} | ${PAGE_NAMES[g.page]} | ${count(g.rows)} | ${ms(g.decisionMs)} | ${ms(g.redirectMs)} | ${span(g.apiPerLoad)} (${span(g.optionsPerLoad)}) + ${span(g.visitCountsPerLoad)} | ${scripts} | ${requests}; ${size(g.apiBytes)} | ${ms(g.phases.htmlDone)} | ${ms(g.phases.apiStart)} → ${ms(g.phases.apiEnd)} |`,
      );
    }
  }
  return lines;
}

function cliName(k: CliCommandFigures): string {
  if (k.name === 'node -e 0') return 'node -e 0';
  if (k.name === 'floor') return 'node bench/floor.mjs';
  if (k.name === 'token floor') return 'node bench/floor-token-set.mjs';
  if (k.name === 'token set') return `NAMECARD_TOKEN=… namecard ${k.args.slice(1).join(' ')}`;
  return `namecard ${k.args.slice(1).join(' ')}`;
}

/** The CLI's wall times against bare Node and the floor. */
export function cliTable(r: BenchResults): string[] {
  if (r.cli.length === 0) return [];
  const lines = [
    '',
    'CLI wall time (median of interleaved runs; the floor is a bare Node script sending the same GET as `status`, and for the card token rows the same POST as the token `set`; NODE_OPTIONS and NODE_EXTRA_CA_CERTS cleared):',
    '',
    '| db | command | wall time | ÷ node -e 0 | ÷ floor |',
    '|---|---|---:|---:|---:|',
  ];
  for (const c of r.cli) {
    for (const k of c.commands) {
      lines.push(
        `| ${c.db} | \`${cliName(k)}\` | ${ms(k.ms)} | ${x(k.ratio)} | ${x(k.floorRatio)} |`,
      );
    }
  }
  return lines;
}

/** The owner's pages: script before the first draw, against the budgets. */
export function siteTable(r: BenchResults): string[] {
  if (!r.site) return [];
  const lines = [
    '',
    "The owner's pages: gzipped script (level 9) loaded before the first draw (module scripts and their static imports; chunks loaded with import() come later):",
    '',
    '| page | before the first draw | files | budget |',
    '|---|---:|---|---:|',
  ];
  for (const p of r.site.pages) {
    const files = p.scripts.map((f) => `${path.basename(f.file)} ${size(f.gzipBytes)}`).join(', ');
    lines.push(`| ${p.page} | ${size(p.gzipBytes)} | ${files} | ${p.budgetKB} KB |`);
  }
  lines.push('', `Every script of the build, gzipped: ${size(r.site.allScriptsGzipBytes)}.`);
  return lines;
}

/** The emulator under load (autocannon). */
export function loadTable(r: BenchResults): string[] {
  if (r.load.length === 0) return [];
  const lines = [
    '',
    'Emulator under load (autocannon, median over runs; errors summed):',
    '',
    '| db | rows | connections × s | req/s | p50 | p99 | errors |',
    '|---|---:|---|---:|---:|---:|---:|',
  ];
  for (const l of r.load) {
    lines.push(
      `| ${l.db} | ${count(l.rows)} | ${l.connections} × ${l.seconds} s × ${l.runs.length} | ${Math.round(l.requestsPerSecond)} | ${l.p50} ms | ${l.p99} ms | ${l.errors} (non-2xx ${l.non2xx}, socket ${l.socketErrors}, time-outs ${l.timeouts}) |`,
    );
  }
  return lines;
}

/** The visitor's lookups, quiet and during a flood of large anonymous posts. */
export function floodTable(r: BenchResults): string[] {
  if ((r.flood ?? []).length === 0) return [];
  const lines = [
    '',
    'Visitor lookups, one at a time, quiet and during a flood of anonymous 1 MiB posts:',
    '',
    '| db | clients × s | quiet p50 / p99 | flood p50 / p99 / max | lookups (failed) | posts: answers by status, socket errors |',
    '|---|---|---:|---:|---:|---|',
  ];
  for (const f of r.flood) {
    const answers = Object.entries(f.posts.byStatus)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    lines.push(
      `| ${f.db} | ${f.clients} × ${f.seconds} s | ${ms(f.quiet.p50)} / ${ms(f.quiet.p99)} | ${ms(f.flood.p50)} / ${ms(f.flood.p99)} / ${ms(f.flood.max)} | ${f.flood.count} (${f.flood.failures}) | ${f.posts.sent} sent; ${answers || 'none'}; ${f.posts.socketErrors} |`,
    );
  }
  return lines;
}

/** One flood's rows: bare /go and /go/?c=, quiet and flooded, and the flood's answers. */
function floodRows(
  db: string,
  flood: string,
  quiet: VisitorLookups,
  flooded: VisitorLookups,
  sent: number,
  byStatus: Record<string, number>,
  socketErrors: number,
): string[] {
  const answers = Object.entries(byStatus)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  return (['go', 'card'] as const).map((which) => {
    const q = quiet[which];
    const f = flooded[which];
    return `| ${db} | ${flood} | ${which === 'go' ? '/go' : '/go/?c=main'} | ${ms(q.p50)} / ${ms(q.p99)} | ${ms(f.p50)} / ${ms(f.p99)} / ${ms(f.max)} | ${f.count} (${f.failures}) | ${sent} sent; ${answers || 'none'}; ${socketErrors} |`;
  });
}

/** Every anon call's time over HTTP, then the visitor's lookups quiet and during the floods. */
export function anonFloodTable(r: BenchResults): string[] {
  return (r.anon ?? []).flatMap((a) => {
    return [
      '',
      `Anon calls over HTTP (${a.db}, ${a.entries.toLocaleString('en-US')} entries, ${a.series.toLocaleString('en-US')} series), median of 5, slowest first:`,
      '',
      '| entry | extreme arguments | ms | status |',
      '|---|---|---:|---:|',
      ...a.calls.map((c) => `| \`${c.entry}\` | ${c.label} | ${ms(c.ms)} | ${c.status} |`),
      '',
      `Visitor lookups, one at a time (bare /go and /go/?c=main in turn), quiet and during each flood: ${a.clients} anon clients calling the slowest; ${a.member.clients} clients of one signed-in account calling ${a.member.call.label} (${ms(a.member.call.ms)} alone, ${a.member.call.status}):`,
      '',
      '| db | flood | lookup | quiet p50 / p99 | flood p50 / p99 / max | lookups (failed) | calls: answers by status, socket errors |',
      '|---|---|---|---:|---:|---:|---|',
      ...floodRows(a.db, 'anon', a.quiet, a.flood, a.sent, a.byStatus, a.socketErrors),
      ...floodRows(
        a.db,
        'member',
        a.member.quiet,
        a.member.flood,
        a.member.sent,
        a.member.byStatus,
        a.member.socketErrors,
      ),
    ];
  });
}
