// Turns the figures into what people read: the goals table (Markdown, stdout), the detail
// tables, the JSON under bench/results/, and the lookup chart (SVG).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliCommandFigures, CliResult } from './cli.js';
import type { DbKind } from './emulator.js';
import type { FloodResult } from './flood.js';
import type { LoadResult } from './load.js';
import type { CardsResult } from './cards.js';
import type { LookupResult } from './lookup.js';
import type { Machine } from './machine.js';
import type { PageResult } from './page.js';
import type { SiteResult } from './site.js';
import { lineChart, type Series } from './svg.js';

export interface BenchResults {
  date: string;
  quick: boolean;
  machine: Machine;
  settings: unknown;
  lookup: LookupResult[];
  /** The lookup of a card by its slug among many (older result files have none). */
  cards?: CardsResult[];
  page: PageResult[];
  cli: CliResult[];
  load: LoadResult[];
  flood: FloodResult[];
  /** The owner's pages' scripts before the first draw (older result files have none). */
  site?: SiteResult;
}

export interface Goal {
  goal: string;
  db: DbKind | 'both';
  measured: string;
  /**
   * What the goal is held against, measured in the same run: the floor for the CLI (a bare
   * Node script sending status's GET), the reference page for /go; undefined where the goal
   * is a fixed figure (bytes, errors, a ratio within one measurement).
   */
  floor?: string;
  /** Undefined: a figure to compare by hand (with an earlier run), not a verdict. */
  met: boolean | undefined;
}

/** The table size of the side-by-side comparison (the reference and baseline pages'). */
function pageBaseRows(p: PageResult): number {
  return p.pages.find((g) => g.page === 'limit')?.rows ?? Number.NaN;
}

const verdict = (g: Goal, overloaded: boolean) =>
  `${g.met === undefined ? '—' : g.met ? 'yes' : '**no**'}${overloaded && g.met !== undefined ? ' (overloaded)' : ''}`;

const x = (n: number) => `${n.toFixed(2)}×`;
const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);
const rows = (n: number) => `10^${Math.round(Math.log10(n))}`;

/** The goals of the lookup by slug among many cards (issue 40), without and with series. */
function cardsGoals(r: BenchResults): Goal[] {
  const out: Goal[] = [];
  for (const c of r.cards ?? []) {
    const cases = [
      ['', c.none] as const,
      ...(c.series
        ? [[`, ${rows(c.series.series)} live series spread over them`, c.series] as const]
        : []),
    ];
    for (const [what, k] of cases) {
      out.push({
        goal: `Lookup by slug p50 with ${rows(c.cards)} cards × ${rows(c.entries / c.cards)} entries${what} ≤ 1.5× the single-card lookup at ${rows(c.baselineRows)} entries`,
        db: c.db,
        measured: `${x(k.ratio)} (${ms(k.baseline.p50)} → ${ms(k.p50)}; ${ms(k.plan.executionMs)} in the database)`,
        met: k.ratio <= 1.5 && k.errors === 0 && k.mismatches === 0,
      });
    }
  }
  return out;
}

/** The detail table and plans of the lookup by slug. */
function cardsDetails(r: BenchResults): string[] {
  const all = r.cards ?? [];
  if (all.length === 0) return [];
  const lines = [
    '',
    'Lookup of a card by its slug (`rpc/namecard_go?card=<slug>`, a different card each request), beside the single-card lookup (the view) in the same rounds:',
    '',
    '| db | cards × entries | case | p50 | p99 | single card: p50 | ratio | in the database | answers ≠ namecard_card_active_at |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const c of all) {
    const cases = [
      ['no series', c.none] as const,
      ...(c.series
        ? [[`${c.series.series.toLocaleString('en-US')} series`, c.series] as const]
        : []),
    ];
    for (const [what, k] of cases) {
      lines.push(
        `| ${c.db} | ${c.cards.toLocaleString('en-US')} × ${(c.entries / c.cards).toLocaleString('en-US')} | ${what} | ${ms(k.p50)} | ${ms(k.p99)} | ${ms(k.baseline.p50)} | ${x(k.ratio)} | ${ms(k.plan.executionMs)} | ${k.mismatches} |`,
      );
    }
  }
  for (const c of all) {
    lines.push(
      '',
      `<details><summary>${c.db}: EXPLAIN (ANALYZE, BUFFERS) of namecard_go's query for one card</summary>`,
      '',
      '```',
      c.none.plan.text,
      '```',
      '',
      '</details>',
    );
  }
  return lines;
}

/** Every goal that this run measured, with its figure and verdict. */
export function goals(r: BenchResults): Goal[] {
  const out: Goal[] = [];
  for (const l of r.lookup) {
    for (const active of [false, true]) {
      const pts = l.points.filter((p) => p.active === active);
      const a = pts[0];
      const b = pts[pts.length - 1];
      if (!a || !b) continue;
      const ratio = b.p50 / a.p50;
      out.push({
        goal: `Lookup p50 at ${rows(b.rows)} ≤ 1.5× p50 at ${rows(a.rows)} (${active ? 'active entry' : 'none active'})`,
        db: l.db,
        measured: `${x(ratio)} (${ms(a.p50)} → ${ms(b.p50)})`,
        met: ratio <= 1.5 && pts.every((p) => p.errors === 0),
      });
      // Older result files have no timeline read.
      if (a.status && b.status) {
        const statusRatio = b.status.p50 / a.status.p50;
        out.push({
          goal: `Timeline read (namecard_status) p50 at ${rows(b.rows)} ≤ 1.5× at ${rows(a.rows)} (${active ? 'active entry' : 'none active'})`,
          db: l.db,
          measured: `${x(statusRatio)} (${ms(a.status.p50)} → ${ms(b.status.p50)})`,
          met: statusRatio <= 1.5 && pts.every((p) => p.errors === 0),
        });
        // The walk of 24 segments in the database, at the largest table (EXPLAIN ANALYZE).
        out.push({
          goal: `Timeline walk of 24 segments at ${rows(b.rows)} rows < 5 ms in the database (EXPLAIN ANALYZE of namecard_status, ${active ? 'active entry' : 'none active'})`,
          db: l.db,
          measured: ms(b.status.plan.executionMs),
          met: b.status.plan.executionMs < 5,
        });
      }
    }
  }
  for (const l of r.lookup) {
    const s = l.series;
    if (!s) continue;
    out.push({
      goal: `Lookup p50 with ${rows(s.series)} live series + ${rows(s.rows)} entries ≤ 1.5× p50 at ${rows(s.baseline.rows)} entries`,
      db: l.db,
      measured: `${x(s.ratio)} (${ms(s.baseline.p50)} → ${ms(s.p50)}; series part ${ms(s.seriesPlan.executionMs)} in the database)`,
      met: s.ratio <= 1.5 && s.errors === 0 && s.mismatches === 0,
    });
  }
  out.push(...cardsGoals(r));
  const goPages = r.page.flatMap((p) => p.pages.filter((g) => g.page === 'go'));
  if (goPages.length > 0) {
    const most = Math.max(...goPages.map((g) => g.apiPerLoad.max));
    const fewest = Math.min(...goPages.map((g) => g.apiPerLoad.min));
    const options = Math.max(...goPages.map((g) => g.optionsPerLoad.max));
    const counted = Math.min(...goPages.map((g) => g.visitCountsPerLoad.min));
    const countedMost = Math.max(...goPages.map((g) => g.visitCountsPerLoad.max));
    const sizes = [...new Set(goPages.map((g) => g.rows))].sort((a, b) => a - b).map(rows);
    out.push({
      goal: `Anonymous /go: exactly 1 API request and 0 OPTIONS per load for the decision (${sizes.join(', ')} rows, every network)`,
      db: 'both',
      measured: `${fewest === most ? most : `${fewest}–${most}`} ${most === 1 ? 'request' : 'requests'}, ${options} OPTIONS; then ${counted === countedMost ? counted : `${counted}–${countedMost}`} visit count POST`,
      met: fewest === 1 && most === 1 && options === 0,
    });
    const gz = Math.max(...goPages.map((g) => g.scripts.gzipBytes));
    const files = goPages[0]?.scripts.count ?? 0;
    out.push({
      goal: '/go script < 10 KB gzipped',
      db: 'both',
      measured: `${(gz / 1024).toFixed(2)} KB in ${files} ${files === 1 ? 'file' : 'files'}`,
      met: gz < 10 * 1024,
    });
  }
  for (const p of r.page) {
    for (const c of p.comparisons) {
      const at = (page: string) =>
        p.pages.find(
          (g) => g.network === c.network && g.page === page && g.rows === pageBaseRows(p),
        );
      const go = at('go');
      const limit = at('limit');
      const base = at('baseline');
      out.push({
        goal: `/go decision ≤ 1.10× the reference page (1 HTML + 1 simple GET), network: ${c.network}`,
        db: p.db,
        floor: limit ? `reference ${ms(limit.decisionMs)}` : undefined,
        measured:
          `${x(c.goVsReference)} (${go ? ms(go.decisionMs) : '?'} vs ${limit ? ms(limit.decisionMs) : '?'}; ` +
          `/go − reference ${ms(c.goMinusReferenceMs)}${c.latencyMs > 0 ? ` = ${(c.goMinusReferenceMs / c.latencyMs).toFixed(2)} round trips` : ''})`,
        met: c.goVsReference <= 1.1,
      });
      if (c.latencyMs > 0 && go) {
        out.push({
          goal: `/go decision at ${c.latencyMs} ms: ≥ 1 round trip (${c.latencyMs} ms) sooner than before (compare with the previous run), network: ${c.network}`,
          db: p.db,
          measured: `${ms(go.decisionMs)} = ${(go.decisionMs / c.latencyMs).toFixed(2)} round trips; redirect at ${ms(go.redirectMs)}`,
          met: undefined,
        });
      }
      const goSorted = p.pages
        .filter((g) => g.page === 'go' && g.network === c.network)
        .sort((a, b) => a.rows - b.rows);
      const small = goSorted[0];
      const large = goSorted[goSorted.length - 1];
      out.push({
        goal: `/go decision flat in table size (${large ? rows(large.rows) : '?'} ≤ 1.5× ${small ? rows(small.rows) : '?'}), network: ${c.network}`,
        db: p.db,
        measured: `${x(c.flatness)} (${small ? ms(small.decisionMs) : '?'} → ${large ? ms(large.decisionMs) : '?'})`,
        met: c.flatness <= 1.5,
      });
      out.push({
        goal: `/go decides ≥ 3× sooner than the baseline (${base ? rows(base.rows) : '?'} rows), network: ${c.network}`,
        db: p.db,
        measured: `${x(c.speedup)} (${go ? ms(go.decisionMs) : '?'} vs ${base ? ms(base.decisionMs) : '?'})`,
        met: c.speedup >= 3,
      });
    }
  }
  for (const c of r.cli) {
    const version = c.commands.find((k) => k.name === '--version');
    const status = c.commands.find((k) => k.name === 'status');
    const bare = c.commands.find((k) => k.name === 'node -e 0');
    const floor = c.commands.find((k) => k.name === 'floor');
    const floorMs = floor ? `floor ${ms(floor.ms)}` : undefined;
    if (status && floor) {
      out.push({
        goal: '`namecard status` ≤ 1.2× the floor (bare Node script, same GET)',
        db: c.db,
        measured: `${x(status.floorRatio)} (${ms(status.ms)})`,
        floor: floorMs,
        met: status.floorRatio <= 1.2 && status.failures === 0 && floor.failures === 0,
      });
    }
    // The writes with a stored, still valid access token: one request each.
    for (const name of ['set', 'end', 'cancel'] as const) {
      const write = c.commands.find((k) => k.name === name);
      if (!write || !floor) continue;
      out.push({
        goal: `\`namecard ${name}\` ≤ 2.5× the floor (stored session, token valid)`,
        db: c.db,
        measured: `${x(write.floorRatio)} (${ms(write.ms)})`,
        floor: floorMs,
        met: write.floorRatio <= 2.5 && write.failures === 0 && floor.failures === 0,
      });
    }
    if (status && bare) {
      out.push({
        goal: '`namecard status` ≤ 2.5× `node -e 0`',
        db: c.db,
        measured: `${x(status.ratio)} (${ms(status.ms)} vs ${ms(bare.ms)})`,
        floor: floorMs,
        met: status.ratio <= 2.5 && status.failures === 0,
      });
    }
    const profiles = c.commands.find((k) => k.name === 'profile list');
    if (profiles && bare) {
      out.push({
        goal: '`namecard profile list` ≤ 2.5× `node -e 0` (stored session)',
        db: c.db,
        measured: `${x(profiles.ratio)} (${ms(profiles.ms)} vs ${ms(bare.ms)})`,
        floor: floorMs,
        met: profiles.ratio <= 2.5 && profiles.failures === 0,
      });
    }
    if (version && bare) {
      out.push({
        goal: '`namecard --version` ≤ 1.3× `node -e 0`',
        db: c.db,
        measured: `${x(version.ratio)} (${ms(version.ms)} vs ${ms(bare.ms)})`,
        met: version.ratio <= 1.3 && version.failures === 0,
      });
    }
  }
  for (const p of r.site?.pages ?? []) {
    out.push({
      goal: `${p.page} ≤ ${p.budgetKB} KB of gzipped script before the first draw`,
      db: 'both',
      measured: `${(p.gzipBytes / 1024).toFixed(1)} KB in ${p.scripts.length} ${p.scripts.length === 1 ? 'file' : 'files'}`,
      met: p.gzipBytes <= p.budgetKB * 1024,
    });
  }
  for (const l of r.load) {
    out.push({
      goal: `Lookup under load: 0 errors (${l.connections} connections, ${l.seconds} s, ${rows(l.rows)} rows)`,
      db: l.db,
      measured: `${l.errors} errors; ${Math.round(l.requestsPerSecond)} req/s, p99 ${l.p99} ms`,
      met: l.errors === 0,
    });
  }
  for (const f of r.flood ?? []) {
    out.push({
      goal: `Visitor lookup p99 ≤ 500 ms while ${f.clients} anonymous clients post ${size(f.bodyBytes)} bodies (${f.seconds} s)`,
      db: f.db,
      measured: `p50 ${ms(f.flood.p50)}, p99 ${ms(f.flood.p99)} (quiet: ${ms(f.quiet.p50)}, ${ms(f.quiet.p99)}); ${f.flood.failures} failed`,
      met: f.flood.p99 <= 500 && f.flood.failures === 0,
    });
  }
  return out;
}

/** The load averages taken before each measurement, once the machine had settled. */
function settled(m: BenchResults['machine'], quick: boolean): string {
  const loads = (m.loadAverage.sections ?? []).map((s) => s.load);
  if (loads.length === 0) return '';
  const low = Math.min(...loads).toFixed(2);
  const high = Math.max(...loads).toFixed(2);
  return `, ${low === high ? low : `${low}–${high}`} before each measurement${quick ? '' : ' (after settling)'}`;
}

/** The goals table and the detail tables, as Markdown. */
export function markdown(r: BenchResults): string {
  const lines: string[] = [];
  const m = r.machine;
  lines.push(
    `Benchmark ${r.date}${r.quick ? ' (--quick)' : ''} on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}; Node ${m.node}` +
      `${m.postgres ? `; PostgreSQL ${m.postgres}` : ''}${m.pglite ? `; PGlite ${m.pglite}` : ''}${m.chromium ? `; Chromium ${m.chromium}` : ''}` +
      `; load average ${m.loadAverage.start.toFixed(2)} at the start${settled(m, r.quick)}, ${m.loadAverage.end?.toFixed(2) ?? '?'} at the end.`,
  );
  const overloaded = m.overloaded === true;
  if (overloaded) {
    lines.push(
      '',
      `**Overloaded run**: the load average exceeded the ${m.cores} cores, so other work competed for the CPU; these figures are not comparable with a quiet run's.`,
    );
  }
  lines.push(
    '',
    '| goal | db | measured | floor (same run) | met? |',
    '|---|---|---|---|---|',
    ...goals(r).map(
      (g) =>
        `| ${g.goal} | ${g.db} | ${g.measured} | ${g.floor ?? '—'} | ${verdict(g, overloaded)} |`,
    ),
  );
  if (r.lookup.length > 0) {
    lines.push(
      '',
      'Lookup through the REST API (sequential requests after warm-up; medians of per-round p50/p99):',
      '',
      '| db | case | rows | p50 | p99 | plan (EXPLAIN ANALYZE) |',
      '|---|---|---:|---:|---:|---|',
    );
    for (const l of r.lookup) {
      for (const p of l.points) {
        const node = /->\s+(.*?) on namecard/.exec(p.plan.text)?.[1] ?? '?';
        lines.push(
          `| ${l.db} | ${p.active ? 'active entry' : 'none active'} | ${p.rows.toLocaleString('en-US')} | ${ms(p.p50)} | ${ms(p.p99)} | ${node}, ${p.plan.executionMs} ms |`,
        );
      }
    }
  }
  if (r.lookup.some((l) => l.series)) {
    lines.push(
      '',
      'Lookup with live weekly series (the largest table, beside the smallest with none, in the same rounds):',
      '',
      '| db | series | rows | p50 | p99 | no series, rows: p50 | ratio | in the database: lookup, series part | answers ≠ namecard_active_at |',
      '|---|---:|---:|---:|---:|---:|---:|---|---:|',
    );
    for (const l of r.lookup) {
      const s = l.series;
      if (!s) continue;
      lines.push(
        `| ${l.db} | ${s.series.toLocaleString('en-US')} | ${s.rows.toLocaleString('en-US')} | ${ms(s.p50)} | ${ms(s.p99)} | ${s.baseline.rows.toLocaleString('en-US')}: ${ms(s.baseline.p50)} | ${x(s.ratio)} | ${s.plan.executionMs} ms, ${s.seriesPlan.executionMs} ms | ${s.mismatches} |`,
      );
    }
    for (const l of r.lookup) {
      const s = l.series;
      if (!s) continue;
      lines.push(
        '',
        `<details><summary>${l.db}, ${s.series.toLocaleString('en-US')} series, ${s.rows.toLocaleString('en-US')} rows: EXPLAIN (ANALYZE, BUFFERS) of the lookup and of its series part</summary>`,
        '',
        '```',
        s.plan.text,
        '',
        s.seriesPlan.text,
        '```',
        '',
        '</details>',
      );
    }
  }
  lines.push(...cardsDetails(r));
  if (r.lookup.some((l) => l.points.some((p) => p.status))) {
    lines.push(
      '',
      "Timeline read through the REST API (`namecard status`'s one GET of namecard_status: now, active entry, up to 24 segments):",
      '',
      '| db | case | rows | p50 | p99 | in the database (EXPLAIN ANALYZE) |',
      '|---|---|---:|---:|---:|---:|',
    );
    for (const l of r.lookup) {
      for (const p of l.points.filter((q) => q.status)) {
        lines.push(
          `| ${l.db} | ${p.active ? 'active entry' : 'none active'} | ${p.rows.toLocaleString('en-US')} | ${ms(p.status.p50)} | ${ms(p.status.p99)} | ${p.status.plan.executionMs} ms |`,
        );
      }
    }
  }
  for (const l of r.lookup) {
    const largest = Math.max(...l.points.map((p) => p.rows));
    for (const p of l.points.filter((q) => q.rows === largest && q.status)) {
      lines.push(
        '',
        `<details><summary>${l.db}, ${p.active ? 'active entry' : 'none active'}, ${p.rows.toLocaleString('en-US')} rows: EXPLAIN (ANALYZE, BUFFERS) of the timeline read</summary>`,
        '',
        '```',
        p.status.plan.text,
        '```',
        '',
        '</details>',
      );
    }
    for (const p of l.points.filter((q) => q.rows === largest)) {
      lines.push(
        '',
        `<details><summary>${l.db}, ${p.active ? 'active entry' : 'none active'}, ${p.rows.toLocaleString('en-US')} rows: EXPLAIN (ANALYZE, BUFFERS) of the lookup</summary>`,
        '',
        '```',
        p.plan.text,
        '```',
        '',
        '</details>',
      );
    }
  }
  if (r.page.length > 0) {
    lines.push(
      '',
      'Visitor page in headless Chromium (fresh context per load; medians from navigation start; API requests per load, fewest–most):',
      '',
      '| db | network | page | rows | decision | redirect | API requests for the decision (OPTIONS) per load, + visit count POSTs | scripts (gzipped) | first load: requests, answer | HTML done | API request |',
      '|---|---|---|---:|---:|---:|---|---:|---|---:|---:|',
    );
    for (const p of r.page) {
      for (const g of p.pages) {
        const requests = Object.entries(g.apiRequests)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([method, n]) => `${n} ${method}`)
          .join(' + ');
        const scripts = `${(g.scripts.gzipBytes / 1024).toFixed(2)} KB (${g.scripts.count} ${g.scripts.count === 1 ? 'file' : 'files'})`;
        lines.push(
          `| ${p.db} | ${g.network} | ${PAGE_NAMES[g.page]} | ${g.rows.toLocaleString('en-US')} | ${ms(g.decisionMs)} | ${ms(g.redirectMs)} | ${span(g.apiPerLoad)} (${span(g.optionsPerLoad)}) + ${span(g.visitCountsPerLoad)} | ${scripts} | ${requests}; ${size(g.apiBytes)} | ${ms(g.phases.htmlDone)} | ${ms(g.phases.apiStart)} → ${ms(g.phases.apiEnd)} |`,
        );
      }
    }
  }
  if (r.cli.length > 0) {
    lines.push(
      '',
      'CLI wall time (median of interleaved runs; the floor is a bare Node script sending the same GET as `status`; NODE_OPTIONS and NODE_EXTRA_CA_CERTS cleared):',
      '',
      '| db | command | wall time | ÷ node -e 0 | ÷ floor |',
      '|---|---|---:|---:|---:|',
    );
    for (const c of r.cli) {
      for (const k of c.commands) {
        lines.push(
          `| ${c.db} | \`${cliName(k)}\` | ${ms(k.ms)} | ${x(k.ratio)} | ${x(k.floorRatio)} |`,
        );
      }
    }
  }
  if (r.site) {
    lines.push(
      '',
      "The owner's pages: gzipped script (level 9) loaded before the first draw (module scripts and their static imports; chunks loaded with import() come later):",
      '',
      '| page | before the first draw | files | budget |',
      '|---|---:|---|---:|',
    );
    for (const p of r.site.pages) {
      const files = p.scripts
        .map((f) => `${path.basename(f.file)} ${size(f.gzipBytes)}`)
        .join(', ');
      lines.push(`| ${p.page} | ${size(p.gzipBytes)} | ${files} | ${p.budgetKB} KB |`);
    }
    lines.push('', `Every script of the build, gzipped: ${size(r.site.allScriptsGzipBytes)}.`);
  }
  if (r.load.length > 0) {
    lines.push(
      '',
      'Emulator under load (autocannon, median over runs; errors summed):',
      '',
      '| db | rows | connections × s | req/s | p50 | p99 | errors |',
      '|---|---:|---|---:|---:|---:|---:|',
    );
    for (const l of r.load) {
      lines.push(
        `| ${l.db} | ${l.rows.toLocaleString('en-US')} | ${l.connections} × ${l.seconds} s × ${l.runs.length} | ${Math.round(l.requestsPerSecond)} | ${l.p50} ms | ${l.p99} ms | ${l.errors} (non-2xx ${l.non2xx}, socket ${l.socketErrors}, time-outs ${l.timeouts}) |`,
      );
    }
  }
  if ((r.flood ?? []).length > 0) {
    lines.push(
      '',
      'Visitor lookups, one at a time, quiet and during a flood of anonymous 1 MiB posts:',
      '',
      '| db | clients × s | quiet p50 / p99 | flood p50 / p99 / max | lookups (failed) | posts: answers by status, socket errors |',
      '|---|---|---:|---:|---:|---|',
    );
    for (const f of r.flood) {
      const answers = Object.entries(f.posts.byStatus)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ');
      lines.push(
        `| ${f.db} | ${f.clients} × ${f.seconds} s | ${ms(f.quiet.p50)} / ${ms(f.quiet.p99)} | ${ms(f.flood.p50)} / ${ms(f.flood.p99)} / ${ms(f.flood.max)} | ${f.flood.count} (${f.flood.failures}) | ${f.posts.sent} sent; ${answers || 'none'}; ${f.posts.socketErrors} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const span = ({ min, max }: { min: number; max: number }) =>
  min === max ? String(min) : `${min}–${max}`;

function cliName(k: CliCommandFigures): string {
  if (k.name === 'node -e 0') return 'node -e 0';
  if (k.name === 'floor') return 'node bench/floor.mjs';
  return `namecard ${k.args.slice(1).join(' ')}`;
}

const PAGE_NAMES = { go: '/go', baseline: 'baseline', limit: 'reference: 1 HTML + 1 GET' };

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

/** Writes `<name>.json`, `<name>.md` and (with lookups) `<chart>.svg` into `dir`. */
export async function writeResults(
  r: BenchResults,
  dir: string,
  names: { json: string[]; markdown: string; chart: string },
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify({ ...r, goals: goals(r) }, null, 2)}\n`;
  const written: string[] = [];
  for (const name of names.json) {
    await writeFile(path.join(dir, name), json);
    written.push(path.join(dir, name));
  }
  await writeFile(path.join(dir, names.markdown), markdown(r));
  written.push(path.join(dir, names.markdown));
  if (r.lookup.length > 0) {
    await writeFile(path.join(dir, names.chart), lookupChart(r));
    written.push(path.join(dir, names.chart));
  }
  return written;
}
