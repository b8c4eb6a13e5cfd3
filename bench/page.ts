// Measurement 2: the visitor's page in headless Chromium. For each page load, under each
// network profile (NETWORKS: none; emulated with the DevTools protocol's
// `Network.emulateNetworkConditions` on that load's tab; or a delaying TCP proxy in front of
// the API and the page's server, bench/delay-proxy.ts): the time from navigation
// start to the redirect decision (the page's `data-lookup-done-at`, epoch ms, minus
// `performance.timeOrigin`), the time to the redirect (the next document's
// `performance.timeOrigin` minus this one's), and the requests the page sent to the API, CORS
// preflights (OPTIONS) included; once per page, the bytes of every script it loaded, gzipped.
// /go at several table sizes, the REFERENCE page and the BASELINE page run side by side in
// interleaved rounds, each load in a fresh browser context (bench/page-load.ts): a first-time
// visitor with an empty cache.
import type { Browser } from 'playwright-core';
import { serveBaselinePage, serveGoPage, serveLimitPage, type ServedPage } from './builds.js';
import { startDelayProxy } from './delay-proxy.js';
import type { BenchEmulator, DbKind } from './emulator.js';
import type { Fleet } from './fleet.js';
import {
  loadOnce,
  type Inspection,
  type NetworkProfile,
  type PageLoad,
  type Phases,
} from './page-load.js';
import { median } from './stats.js';

/**
 * Unthrottled; a slow mobile-like link (100 ms of latency, 10 Mbit/s each way) as DevTools
 * emulates it, which delays neither CORS preflights nor connection set-up; and the same
 * 100 ms through a delaying proxy, which delays every round trip.
 */
export const NETWORKS: NetworkProfile[] = [
  { name: 'none', via: 'devtools', latencyMs: 0, bytesPerSecond: 0 },
  { name: '100 ms, 10 Mbit/s', via: 'devtools', latencyMs: 100, bytesPerSecond: 10e6 / 8 },
  { name: '100 ms round trip (TCP proxy)', via: 'proxy', latencyMs: 100, bytesPerSecond: 0 },
];

export interface PageSettings {
  /** Table sizes /go is loaded at (flatness: the largest against the smallest). */
  goSizes: number[];
  /** Table size of the side-by-side comparison with the baseline. */
  baselineSize: number;
  rounds: number;
  warmup: number;
}

/** /go, the BASELINE page, and the REFERENCE page for the physical limit (builds.ts). */
export type PageKind = 'go' | 'baseline' | 'limit';

/** One page at one table size under one network profile. */
export interface PageFigures {
  page: PageKind;
  rows: number;
  /** The network profile's name (NETWORKS). */
  network: string;
  /** Median time from navigation start to the redirect decision, ms. */
  decisionMs: number;
  /** Every load's decision time, ms, in round order. */
  samples: number[];
  /** Median time from navigation start to the start of the redirect's navigation, ms. */
  redirectMs: number;
  /**
   * Requests to the API per load for the decision (preflights included; not the visit
   * count), fewest and most over the loads.
   */
  apiPerLoad: { min: number; max: number };
  /**
   * Visit counts per load: /go's one POST of `namecard_count_visit`, a beacon sent after the
   * decision (it never delays the redirect), so it is not part of the decision's requests.
   */
  visitCountsPerLoad: { min: number; max: number };
  /** CORS preflights (OPTIONS) to the API per load, fewest and most over the loads. */
  optionsPerLoad: { min: number; max: number };
  phases: Phases;
  /** Scripts the page loaded: count, bytes as served, and gzipped (level 9) bytes. */
  scripts: { count: number; bytes: number; gzipBytes: number; urls: string[] };
  /** Requests to the API in the first (inspected, unthrottled) load, by method. */
  apiRequests: Record<string, number>;
  /** Bytes the API answered in one load (uncompressed). */
  apiBytes: number;
  /** Rows the page received (baseline: every row; /go: at most one). */
  rowsRead?: number;
}

/** The comparisons under one network profile; ratios of figures from the same rounds. */
export interface NetworkComparison {
  network: string;
  latencyMs: number;
  /** Median over rounds of (/go decision ÷ reference decision), at the baseline's size. */
  goVsReference: number;
  /** Median over rounds of (/go decision − reference decision), ms. */
  goMinusReferenceMs: number;
  /** Baseline decision ÷ /go decision, at the baseline's size. */
  speedup: number;
  /** /go decision at the largest size ÷ at the smallest. */
  flatness: number;
  /** Baseline decision ÷ the reference page's (what one HTML file + one GET would give). */
  limitSpeedup: number;
}

export interface PageResult {
  db: DbKind;
  networks: NetworkProfile[];
  pages: PageFigures[];
  comparisons: NetworkComparison[];
}

const range = (values: number[]) => ({ min: Math.min(...values), max: Math.max(...values) });

/** The median over rounds of f(a's load, b's load), pairing the loads of the same round. */
function pairedMedian(a: PageLoad[], b: PageLoad[], f: (a: number, b: number) => number) {
  return median(a.map((load, i) => f(load.decisionMs, b[i]?.decisionMs ?? Number.NaN)));
}

/** A page served for the measurement: what it is, at which size, and its API's URL. */
interface Target {
  page: PageKind;
  rows: number;
  served: ServedPage;
  apiUrl: string;
}

/** The key of one page's loads at one size under one profile. */
const loadKey = (page: PageKind, rows: number, network: string) => `${page} ${rows} ${network}`;

/**
 * Serves one page against `emulator`'s API: directly, or (with `rttMs`, for a proxy profile)
 * built against a delaying proxy of the API and served through another, so that the page
 * and its API both look far away.
 */
async function serveTarget(
  page: PageKind,
  rows: number,
  emulator: BenchEmulator,
  rttMs: number | undefined,
): Promise<Target> {
  const api =
    rttMs === undefined
      ? emulator
      : { ...emulator, url: (await startDelayProxy(emulator.url, rttMs)).url };
  const built =
    page === 'go'
      ? await serveGoPage(api)
      : page === 'baseline'
        ? await serveBaselinePage(api)
        : await serveLimitPage(api);
  const served =
    rttMs === undefined
      ? built
      : {
          url: new URL(
            new URL(built.url).pathname,
            (await startDelayProxy(new URL(built.url).origin, rttMs)).url,
          ).href,
          stop: built.stop,
        };
  return { page, rows, served, apiUrl: api.url };
}

/** The pages of one profile: /go at each size, the baseline and the reference (and /go) at the baseline's. */
async function buildTargets(
  fleet: Fleet,
  settings: PageSettings,
  rttMs: number | undefined,
): Promise<Target[]> {
  const list: Target[] = [];
  for (const rows of settings.goSizes) {
    list.push(await serveTarget('go', rows, (await fleet.table(rows)).emulator, rttMs));
  }
  const base = (await fleet.table(settings.baselineSize)).emulator;
  list.push(await serveTarget('baseline', settings.baselineSize, base, rttMs));
  list.push(await serveTarget('limit', settings.baselineSize, base, rttMs));
  if (!settings.goSizes.includes(settings.baselineSize)) {
    list.push(await serveTarget('go', settings.baselineSize, base, rttMs));
  }
  return list;
}

/**
 * Every load: one untimed, inspected load of each page (unthrottled), the warm-up, then the
 * rounds. Every round loads every page once under every profile, in rotated order, so each
 * round's loads are a pair (or more) taken at nearly the same time.
 */
async function runLoads(
  browser: Browser,
  settings: PageSettings,
  networks: NetworkProfile[],
  direct: Target[],
  targetsOf: (network: NetworkProfile) => Target[],
) {
  const loads = new Map<string, PageLoad[]>();
  const inspections = new Map<string, Inspection>();
  const [unthrottled] = networks;
  for (const target of direct) {
    const inspected = await loadOnce(browser, target.served, target.apiUrl, unthrottled!, true);
    if (inspected.inspection)
      inspections.set(`${target.page} ${target.rows}`, inspected.inspection);
  }
  for (const network of networks) {
    for (const target of targetsOf(network)) {
      loads.set(loadKey(target.page, target.rows, network.name), []);
      for (let i = 0; i < settings.warmup; i++) {
        await loadOnce(browser, target.served, target.apiUrl, network);
      }
    }
  }
  for (let round = 0; round < settings.rounds; round++) {
    for (const network of networks) {
      const targets = targetsOf(network);
      for (let i = 0; i < targets.length; i++) {
        const target = targets[(i + round) % targets.length] as Target;
        const load = await loadOnce(browser, target.served, target.apiUrl, network);
        loads.get(loadKey(target.page, target.rows, network.name))?.push(load);
      }
    }
  }
  return { loads, inspections };
}

/** One page's figures at one size under one profile, from its loads and its inspection. */
function pageFigures(
  target: Target,
  network: NetworkProfile,
  results: PageLoad[],
  inspection: Inspection | undefined,
): PageFigures {
  const first = results[0];
  const scripts = inspection?.scripts ?? [];
  return {
    page: target.page,
    rows: target.rows,
    network: network.name,
    decisionMs: median(results.map((r) => r.decisionMs)),
    samples: results.map((r) => r.decisionMs),
    redirectMs: median(results.map((r) => r.redirectMs)),
    apiPerLoad: range(results.map((r) => r.api)),
    optionsPerLoad: range(results.map((r) => r.options)),
    visitCountsPerLoad: range(results.map((r) => r.visitCounts)),
    phases: {
      htmlDone: median(results.map((r) => r.phases.htmlDone)),
      domInteractive: median(results.map((r) => r.phases.domInteractive)),
      apiStart: median(results.map((r) => r.phases.apiStart)),
      apiEnd: median(results.map((r) => r.phases.apiEnd)),
    },
    scripts: {
      count: scripts.length,
      bytes: scripts.reduce((sum, s) => sum + s.bytes, 0),
      gzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0),
      urls: scripts.map((s) => new URL(s.url).pathname),
    },
    apiRequests: inspection?.apiRequests ?? {},
    apiBytes: inspection?.apiBytes ?? Number.NaN,
    ...(first?.rowsRead === undefined ? {} : { rowsRead: first.rowsRead }),
  };
}

/** The comparisons under one profile, from the loads of its pages (`of`). */
function compare(
  network: NetworkProfile,
  settings: PageSettings,
  of: (page: PageKind, rows: number) => PageLoad[],
): NetworkComparison {
  const go = of('go', settings.baselineSize);
  const limit = of('limit', settings.baselineSize);
  const baseline = of('baseline', settings.baselineSize);
  const sizes = [...settings.goSizes].sort((a, b) => a - b);
  const decision = (runs: PageLoad[]) => median(runs.map((r) => r.decisionMs));
  return {
    network: network.name,
    latencyMs: network.latencyMs,
    goVsReference: pairedMedian(go, limit, (a, b) => a / b),
    goMinusReferenceMs: pairedMedian(go, limit, (a, b) => a - b),
    speedup: decision(baseline) / decision(go),
    flatness: decision(of('go', sizes[sizes.length - 1]!)) / decision(of('go', sizes[0]!)),
    limitSpeedup: decision(baseline) / decision(limit),
  };
}

const PAGE_ORDER: PageKind[] = ['go', 'limit', 'baseline'];

export async function measurePage(
  fleet: Fleet,
  browser: Browser,
  settings: PageSettings,
  log: (line: string) => void,
  networks: NetworkProfile[] = NETWORKS,
): Promise<PageResult> {
  const targetSets = new Map<NetworkProfile, Target[]>();
  const direct = await buildTargets(fleet, settings, undefined);
  for (const network of networks) {
    targetSets.set(
      network,
      network.via === 'proxy' ? await buildTargets(fleet, settings, network.latencyMs) : direct,
    );
  }
  const targetsOf = (network: NetworkProfile) => targetSets.get(network) ?? direct;
  const { loads, inspections } = await runLoads(browser, settings, networks, direct, targetsOf);
  for (const targets of new Set(targetSets.values())) {
    for (const target of targets) await target.served.stop();
  }

  const sorted = (targets: Target[]) =>
    [...targets].sort(
      (a, b) => PAGE_ORDER.indexOf(a.page) - PAGE_ORDER.indexOf(b.page) || a.rows - b.rows,
    );
  const pages: PageFigures[] = [];
  const comparisons: NetworkComparison[] = [];
  for (const network of networks) {
    const of = (page: PageKind, rows: number) => loads.get(loadKey(page, rows, network.name)) ?? [];
    for (const target of sorted(targetsOf(network))) {
      const inspection = inspections.get(`${target.page} ${target.rows}`);
      const figures = pageFigures(target, network, of(target.page, target.rows), inspection);
      log(
        `${fleet.db} page [${network.name}] ${target.page.padEnd(8)} ${target.rows.toLocaleString('en-US').padStart(9)} rows: decision ${figures.decisionMs.toFixed(1)} ms, redirect ${figures.redirectMs.toFixed(1)} ms, API ${figures.apiPerLoad.max} (OPTIONS ${figures.optionsPerLoad.max}), script ${figures.scripts.gzipBytes} B gzipped (${figures.scripts.count} files); html ${figures.phases.htmlDone.toFixed(1)}, api ${figures.phases.apiStart.toFixed(1)}–${figures.phases.apiEnd.toFixed(1)} ms`,
      );
      pages.push(figures);
    }
    comparisons.push(compare(network, settings, of));
  }
  return { db: fleet.db, networks, pages, comparisons };
}
