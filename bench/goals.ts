// Every goal a run measured, with its figure and verdict: one function per measurement, each
// reading only its own figures. The report puts them in one table (report.ts), and the JSON
// under bench/results/ keeps them beside the figures.
import type { AnonFloodResult } from './anon-flood.js';
import type { BenchResults } from './bench-results.js';
import type { CliResult } from './cli.js';
import type { DbKind } from './emulator.js';
import type { FloodResult } from './flood.js';
import type { LoadResult } from './load.js';
import type { LookupResult } from './lookup.js';
import type { PageResult } from './page.js';
import { cardsGoals } from './report-cards.js';
import { ms, rows, size, x } from './report-format.js';
import type { SiteResult } from './site.js';

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

/** Every goal that this run measured, with its figure and verdict, in the report's order. */
export function goals(r: BenchResults): Goal[] {
  return [
    ...r.lookup.flatMap(lookupGoals),
    ...r.lookup.flatMap((l) => seriesGoal(l) ?? []),
    ...cardsGoals(r),
    ...goPageGoals(r.page),
    ...r.page.flatMap(comparisonGoals),
    ...r.cli.flatMap((c) => [...cliFloorGoals(c), ...cliNodeGoals(c)]),
    ...siteGoals(r.site),
    ...r.load.map(loadGoal),
    ...(r.flood ?? []).map(floodGoal),
    ...(r.anon ?? []).flatMap((a) => [anonCallGoal(a), ...anonFloodGoals(a)]),
  ];
}

/** The lookup and the timeline read flat in table size, and the walk's time, per case. */
function lookupGoals(l: LookupResult): Goal[] {
  const out: Goal[] = [];
  for (const active of [false, true]) {
    const pts = l.points.filter((p) => p.active === active);
    const a = pts[0];
    const b = pts[pts.length - 1];
    if (!a || !b) continue;
    const ratio = b.p50 / a.p50;
    const which = active ? 'active entry' : 'none active';
    out.push({
      goal: `Lookup p50 at ${rows(b.rows)} ≤ 1.5× p50 at ${rows(a.rows)} (${which})`,
      db: l.db,
      measured: `${x(ratio)} (${ms(a.p50)} → ${ms(b.p50)})`,
      met: ratio <= 1.5 && pts.every((p) => p.errors === 0),
    });
    // Older result files have no timeline read.
    if (!a.status || !b.status) continue;
    const statusRatio = b.status.p50 / a.status.p50;
    out.push({
      goal: `Timeline read (namecard_status) p50 at ${rows(b.rows)} ≤ 1.5× at ${rows(a.rows)} (${which})`,
      db: l.db,
      measured: `${x(statusRatio)} (${ms(a.status.p50)} → ${ms(b.status.p50)})`,
      met: statusRatio <= 1.5 && pts.every((p) => p.errors === 0),
    });
    // The walk of 24 segments in the database, at the largest table (EXPLAIN ANALYZE): the
    // walk's own median where the run timed it, else (older files) one plan of the status.
    const walk = b.status.walk;
    const timed = walk
      ? `namecard_timeline_until, median of ${walk.calls} calls`
      : 'namecard_status';
    out.push({
      goal: `Timeline walk of 24 segments at ${rows(b.rows)} rows < 5 ms in the database (EXPLAIN ANALYZE of ${timed}, ${which})`,
      db: l.db,
      measured: walk
        ? `${ms(walk.medianMs)} (the whole status: ${ms(b.status.plan.executionMs)}, one call)`
        : ms(b.status.plan.executionMs),
      met: (walk?.medianMs ?? b.status.plan.executionMs) < 5,
    });
  }
  return out;
}

/** The lookup with live series against the smallest table's, when the run measured it. */
function seriesGoal(l: LookupResult): Goal | undefined {
  const s = l.series;
  if (!s) return undefined;
  return {
    goal: `Lookup p50 with ${rows(s.series)} series (${rows(Math.min(s.series, 100))} live) + ${rows(s.rows)} entries ≤ 1.5× p50 at ${rows(s.baseline.rows)} entries`,
    db: l.db,
    measured: `${x(s.ratio)} (${ms(s.baseline.p50)} → ${ms(s.p50)}; series part ${ms(s.seriesPlan.executionMs)} in the database)`,
    met: s.ratio <= 1.5 && s.errors === 0 && s.mismatches === 0,
  };
}

/** /go's requests for its decision and its script's size, over every database and network. */
function goPageGoals(results: PageResult[]): Goal[] {
  const goPages = results.flatMap((p) => p.pages.filter((g) => g.page === 'go'));
  if (goPages.length === 0) return [];
  const most = Math.max(...goPages.map((g) => g.apiPerLoad.max));
  const fewest = Math.min(...goPages.map((g) => g.apiPerLoad.min));
  const options = Math.max(...goPages.map((g) => g.optionsPerLoad.max));
  const counted = Math.min(...goPages.map((g) => g.visitCountsPerLoad.min));
  const countedMost = Math.max(...goPages.map((g) => g.visitCountsPerLoad.max));
  const sizes = [...new Set(goPages.map((g) => g.rows))].sort((a, b) => a - b).map(rows);
  const gz = Math.max(...goPages.map((g) => g.scripts.gzipBytes));
  const files = goPages[0]?.scripts.count ?? 0;
  return [
    {
      goal: `Anonymous /go: exactly 1 API request and 0 OPTIONS per load for the decision (${sizes.join(', ')} rows, every network)`,
      db: 'both',
      measured: `${fewest === most ? most : `${fewest}–${most}`} ${most === 1 ? 'request' : 'requests'}, ${options} OPTIONS; then ${counted === countedMost ? counted : `${counted}–${countedMost}`} visit count POST`,
      met: fewest === 1 && most === 1 && options === 0,
    },
    {
      goal: '/go script < 10 KB gzipped',
      db: 'both',
      measured: `${(gz / 1024).toFixed(2)} KB in ${files} ${files === 1 ? 'file' : 'files'}`,
      met: gz < 10 * 1024,
    },
  ];
}

/** The table size of the side-by-side comparison (the reference and baseline pages'). */
function pageBaseRows(p: PageResult): number {
  return p.pages.find((g) => g.page === 'limit')?.rows ?? Number.NaN;
}

/** /go against the reference page, the baseline and itself at other sizes, per network. */
function comparisonGoals(p: PageResult): Goal[] {
  const out: Goal[] = [];
  for (const c of p.comparisons) {
    const at = (page: string) =>
      p.pages.find((g) => g.network === c.network && g.page === page && g.rows === pageBaseRows(p));
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
  return out;
}

/** `status` and the writes (stored session, token valid) against the floor. */
function cliFloorGoals(c: CliResult): Goal[] {
  const out: Goal[] = [];
  const status = c.commands.find((k) => k.name === 'status');
  const floor = c.commands.find((k) => k.name === 'floor');
  if (!floor) return out;
  const floorMs = `floor ${ms(floor.ms)}`;
  if (status) {
    out.push({
      goal: '`namecard status` ≤ 1.2× the floor (bare Node script, same GET)',
      db: c.db,
      measured: `${x(status.floorRatio)} (${ms(status.ms)})`,
      floor: floorMs,
      met: status.floorRatio <= 1.2 && status.failures === 0 && floor.failures === 0,
    });
  }
  out.push(...tokenSetGoal(c));
  // The writes with a stored, still valid access token: one request each.
  for (const name of ['set', 'end', 'cancel'] as const) {
    const write = c.commands.find((k) => k.name === name);
    if (!write) continue;
    out.push({
      goal: `\`namecard ${name}\` ≤ 2.5× the floor (stored session, token valid)`,
      db: c.db,
      measured: `${x(write.floorRatio)} (${ms(write.ms)})`,
      floor: floorMs,
      met: write.floorRatio <= 2.5 && write.failures === 0 && floor.failures === 0,
    });
  }
  return out;
}

/**
 * `set` with a card token: two requests (the read of the token's card, which names no card
 * itself, then the write), within 1.5× its own floor (a bare Node script sending the same POST
 * of namecard_set, the card known). Result files without a token's `set` give no goal.
 */
function tokenSetGoal(c: CliResult): Goal[] {
  const set = c.commands.find((k) => k.name === 'token set');
  const floor = c.commands.find((k) => k.name === 'token floor');
  if (!set || !floor) return [];
  const requests = set.requests ?? Number.NaN;
  return [
    {
      goal: '`NAMECARD_TOKEN=… namecard set`: 2 requests (its card, the write), ≤ 1.5× its floor (bare Node script, the same POST)',
      db: c.db,
      measured: `${x(set.floorRatio)} (${ms(set.ms)}), ${requests} ${requests === 1 ? 'request' : 'requests'}`,
      floor: `token floor ${ms(floor.ms)}`,
      met: set.floorRatio <= 1.5 && requests === 2 && set.failures === 0 && floor.failures === 0,
    },
  ];
}

/** `status`, `profile list` and `--version` against bare Node (`node -e 0`). */
function cliNodeGoals(c: CliResult): Goal[] {
  const out: Goal[] = [];
  const bare = c.commands.find((k) => k.name === 'node -e 0');
  if (!bare) return out;
  const floor = c.commands.find((k) => k.name === 'floor');
  const floorMs = floor ? `floor ${ms(floor.ms)}` : undefined;
  const against = (name: string, goal: string, limit: number, withFloor: boolean) => {
    const k = c.commands.find((command) => command.name === name);
    if (!k) return;
    out.push({
      goal,
      db: c.db,
      measured: `${x(k.ratio)} (${ms(k.ms)} vs ${ms(bare.ms)})`,
      ...(withFloor ? { floor: floorMs } : {}),
      met: k.ratio <= limit && k.failures === 0,
    });
  };
  against('status', '`namecard status` ≤ 2.5× `node -e 0`', 2.5, true);
  against('profile list', '`namecard profile list` ≤ 2.5× `node -e 0` (stored session)', 2.5, true);
  against('--version', '`namecard --version` ≤ 1.3× `node -e 0`', 1.3, false);
  return out;
}

/** The owner's pages' script before the first draw, against each page's budget. */
function siteGoals(site: SiteResult | undefined): Goal[] {
  return (site?.pages ?? []).map((p): Goal => ({
    goal: `${p.page} ≤ ${p.budgetKB} KB of gzipped script before the first draw`,
    db: 'both',
    measured: `${(p.gzipBytes / 1024).toFixed(1)} KB in ${p.scripts.length} ${p.scripts.length === 1 ? 'file' : 'files'}`,
    met: p.gzipBytes <= p.budgetKB * 1024,
  }));
}

/** No errors under load. */
function loadGoal(l: LoadResult): Goal {
  return {
    goal: `Lookup under load: 0 errors (${l.connections} connections, ${l.seconds} s, ${rows(l.rows)} rows)`,
    db: l.db,
    measured: `${l.errors} errors; ${Math.round(l.requestsPerSecond)} req/s, p99 ${l.p99} ms`,
    met: l.errors === 0,
  };
}

/** The visitor's lookups while anonymous clients flood the API with large bodies. */
function floodGoal(f: FloodResult): Goal {
  return {
    goal: `Visitor lookup p99 ≤ 500 ms while ${f.clients} anonymous clients post ${size(f.bodyBytes)} bodies (${f.seconds} s)`,
    db: f.db,
    measured: `p50 ${ms(f.flood.p50)}, p99 ${ms(f.flood.p99)} (quiet: ${ms(f.quiet.p50)}, ${ms(f.quiet.p99)}); ${f.flood.failures} failed`,
    met: f.flood.p99 <= 500 && f.flood.failures === 0,
  };
}

/** Every call anon may make, bounded by its arguments, within 50 ms with its extreme arguments. */
function anonCallGoal(a: AnonFloodResult): Goal {
  const slowest = a.calls[0];
  return {
    goal: `Every bounded anon call ≤ 50 ms at ${a.entries.toLocaleString('en-US')} entries and ${a.series.toLocaleString('en-US')} series (over HTTP, median of 5)`,
    db: a.db,
    measured: slowest
      ? `slowest ${ms(slowest.ms)} (${slowest.entry}, ${slowest.label})`
      : 'none measured',
    met: a.db === 'postgres' && slowest ? a.calls.every((c) => c.ms <= 50) : undefined,
  };
}

/**
 * The visitor's lookups (bare /go and /go/?c=main alike) while anon clients call the costliest
 * bounded call (round 5), and while a signed-in account floods its costliest call: through
 * PostgREST's one pool, with no lane of the visitors' own.
 */
function anonFloodGoals(a: AnonFloodResult): Goal[] {
  const worst = (f: AnonFloodResult['flood']) => ({
    p99: Math.max(f.go.p99, f.card.p99),
    failures: f.go.failures + f.card.failures,
  });
  const line = (f: AnonFloodResult['flood']) =>
    `/go p50 ${ms(f.go.p50)}, p99 ${ms(f.go.p99)}; /go/?c= p50 ${ms(f.card.p50)}, p99 ${ms(f.card.p99)}; ${f.go.failures + f.card.failures} failed`;
  // The bound is PostgreSQL's; PGlite runs one statement at a time.
  const met = (f: AnonFloodResult['flood']) =>
    a.db === 'postgres' ? worst(f).p99 <= 500 && worst(f).failures === 0 : undefined;
  return [
    {
      goal: `Visitor lookups p99 ≤ 500 ms while ${a.clients} anon clients call ${a.flooded.entry} (${a.flooded.label}, ${a.seconds} s)`,
      db: a.db,
      measured: `${line(a.flood)} (quiet: ${line(a.quiet)})`,
      met: met(a.flood),
    },
    {
      goal: `Visitor lookups p99 ≤ 500 ms while ${a.member.clients} clients of one signed-in account call ${a.member.call.label} (${a.member.call.ms} ms alone, ${a.member.seconds} s)`,
      db: a.db,
      measured: `${line(a.member.flood)} (quiet: ${line(a.member.quiet)})`,
      met: met(a.member.flood),
    },
  ];
}
