// Measurement 2: the visitor's page in headless Chromium. For each page load, under each
// network profile (NETWORKS: none; emulated with the DevTools protocol's
// `Network.emulateNetworkConditions` on that load's tab; or a delaying TCP proxy in front of
// the API and the page's server, bench/delay-proxy.ts): the time from navigation
// start to the redirect decision (the page's `data-lookup-done-at`, epoch ms, minus
// `performance.timeOrigin`), the time to the redirect (the next document's
// `performance.timeOrigin` minus this one's), and the requests the page sent to the API, CORS
// preflights (OPTIONS) included; once per page, the bytes of every script it loaded, gzipped.
// /go at several table sizes, the REFERENCE page and the BASELINE page run side by side in
// interleaved rounds, each load in a fresh browser context: a first-time visitor with an
// empty cache.
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { serveBaselinePage, serveGoPage, serveLimitPage, type ServedPage } from './builds.js';
import { startDelayProxy } from './delay-proxy.js';
import type { BenchEmulator, DbKind } from './emulator.js';
import type { Fleet } from './fleet.js';
import { median } from './stats.js';

/** A network profile a page load runs under; `none` is the loopback as it is. */
export interface NetworkProfile {
  name: string;
  /**
   * How the latency is added: DevTools' `Network.emulateNetworkConditions` on the tab, or a
   * delaying TCP proxy (bench/delay-proxy.ts) in front of the API and the page's server.
   */
  via: 'devtools' | 'proxy';
  /** Added to every request's round trip, ms (0: none). */
  latencyMs: number;
  /** Download and upload throughput, bytes per second (0: unlimited). */
  bytesPerSecond: number;
}

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

interface LoadResult {
  decisionMs: number;
  redirectMs: number;
  api: number;
  options: number;
  /** POSTs of the visit count (after the decision; a preflight of one would count in `options`). */
  visitCounts: number;
  phases: Phases;
  rowsRead?: number;
}

/** The visit count's path: /go's beacon after its decision. */
const VISIT_COUNT_PATH = '/rest/v1/rpc/namecard_count_visit';

/** The little of the DOM that `readDecision` uses (the benchmark's tsconfig has no DOM types). */
interface PageGlobals {
  document: { documentElement: { dataset: Record<string, string | undefined> } };
  performance: {
    timeOrigin: number;
    getEntriesByType(type: string): {
      name: string;
      startTime: number;
      responseEnd: number;
      domInteractive?: number;
    }[];
  };
}

/** Runs in the page: the text of every inline script. */
function inlineScripts(): string[] {
  const { document } = globalThis as unknown as {
    document: { querySelectorAll(selector: string): Iterable<{ textContent: string | null }> };
  };
  return [...document.querySelectorAll('script:not([src])')].map((s) => s.textContent ?? '');
}

/**
 * Runs in the page once it has marked its decision: the decision time and where the time
 * went. A function, not a string, because the site's Content-Security-Policy forbids eval.
 */
function readDecision() {
  const { document, performance } = globalThis as unknown as PageGlobals;
  const data = document.documentElement.dataset;
  const nav = performance.getEntriesByType('navigation')[0];
  const api = performance
    .getEntriesByType('resource')
    .filter((e) => e.name.includes('/rest/v1/'))
    .pop();
  return {
    timeOrigin: performance.timeOrigin,
    target: data.target ?? '',
    decisionMs: Number(data.lookupDoneAt) - performance.timeOrigin,
    rowsRead: data.rowsRead === undefined ? undefined : Number(data.rowsRead),
    phases: {
      htmlDone: nav ? nav.responseEnd : Number.NaN,
      domInteractive: nav?.domInteractive ?? Number.NaN,
      apiStart: api ? api.startTime : Number.NaN,
      apiEnd: api ? api.responseEnd : Number.NaN,
    },
  };
}

/** Where a page load's time went (ms from navigation start; medians over loads). */
export interface Phases {
  /** The HTML has arrived. */
  htmlDone: number;
  /** The HTML is parsed (module scripts are deferred, so they run after this). */
  domInteractive: number;
  /** The API request (its CORS preflight included) started and finished. */
  apiStart: number;
  apiEnd: number;
}

/** What one un-timed load of a page shows about it. */
interface Inspection {
  scripts: { url: string; bytes: number; gzipBytes: number }[];
  /** Requests to the API, by method (a CORS preflight is an OPTIONS request). */
  apiRequests: Record<string, number>;
  /** Bytes of the API's answers (bodies as received, uncompressed). */
  apiBytes: number;
}

/** Runs in the page the load redirected to: when its navigation started (epoch ms). */
function timeOrigin(): number {
  return (globalThis as unknown as PageGlobals).performance.timeOrigin;
}

/**
 * Loads the page once in a fresh context (a first-time visitor with an empty cache) under
 * `network`, and returns the decision time, the time to the redirect and the API requests
 * of that load. Every load has the same DevTools session (Network domain on), so the cost of
 * watching is the same for every page. With `inspect`, it also records every script's bytes
 * and the bytes the API answered (more CDP traffic: only in an untimed load).
 */
async function loadOnce(
  browser: Browser,
  page: ServedPage,
  apiUrl: string,
  network: NetworkProfile,
  inspect = false,
): Promise<LoadResult & { inspection?: Inspection }> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const scripts: Promise<{ url: string; bytes: number; gzipBytes: number }>[] = [];
    const apiRequests: Record<string, number> = {};
    let visitCounts = 0;
    const apiBodies: Promise<number>[] = [];
    if (inspect) {
      tab.on('response', (response) => {
        if (response.url().startsWith(apiUrl)) {
          apiBodies.push(response.body().then((body) => body.length));
        }
        if (response.request().resourceType() !== 'script') return;
        scripts.push(
          response.body().then((body) => ({
            url: response.url(),
            bytes: body.length,
            gzipBytes: gzipSync(body, { level: 9 }).length,
          })),
        );
      });
    }
    // CORS preflights are not Playwright 'request' events; the DevTools protocol shows them.
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    if (network.via === 'devtools' && (network.latencyMs > 0 || network.bytesPerSecond > 0)) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: network.latencyMs,
        downloadThroughput: network.bytesPerSecond || -1,
        uploadThroughput: network.bytesPerSecond || -1,
      });
    }
    cdp.on('Network.requestWillBeSent', (event) => {
      if (!event.request.url.startsWith(apiUrl)) return;
      const path = new URL(event.request.url).pathname;
      if (path === VISIT_COUNT_PATH && event.request.method === 'POST') visitCounts++;
      else apiRequests[event.request.method] = (apiRequests[event.request.method] ?? 0) + 1;
    });
    await tab.goto(page.url, { waitUntil: 'commit' });
    await tab.waitForSelector('html[data-lookup-done-at]', { state: 'attached', timeout: 30_000 });
    const decision = await tab.evaluate(readDecision);
    // Read what inspection needs before the page goes: bodies of a document left are lost.
    let inspection: Inspection | undefined;
    if (inspect) {
      // Inline scripts are part of the HTML, not responses of their own: count them too.
      for (const [i, text] of (await tab.evaluate(inlineScripts)).entries()) {
        const body = Buffer.from(text);
        scripts.push(
          Promise.resolve({
            url: `${page.url}#inline-script-${i + 1}`,
            bytes: body.length,
            gzipBytes: gzipSync(body, { level: 9 }).length,
          }),
        );
      }
      inspection = {
        scripts: await Promise.all(scripts),
        apiRequests,
        apiBytes: (await Promise.all(apiBodies)).reduce((sum, n) => sum + n, 0),
      };
    }
    // Every page redirects 1.5 s after deciding (the product's rule, copied by the others).
    await tab.waitForURL(decision.target, { waitUntil: 'commit', timeout: 30_000 });
    const redirectMs = (await tab.evaluate(timeOrigin)) - decision.timeOrigin;
    const counts = Object.values(apiRequests);
    const result: LoadResult = {
      decisionMs: decision.decisionMs,
      redirectMs,
      api: counts.reduce((sum, n) => sum + n, 0),
      options: apiRequests.OPTIONS ?? 0,
      visitCounts,
      phases: decision.phases,
      ...(decision.rowsRead === undefined ? {} : { rowsRead: decision.rowsRead }),
    };
    return inspection ? { ...result, inspection } : result;
  } finally {
    await context.close();
  }
}

const range = (values: number[]) => ({ min: Math.min(...values), max: Math.max(...values) });

/** The median over rounds of f(a's load, b's load), pairing the loads of the same round. */
function pairedMedian(a: LoadResult[], b: LoadResult[], f: (a: number, b: number) => number) {
  return median(a.map((load, i) => f(load.decisionMs, b[i]?.decisionMs ?? Number.NaN)));
}

export async function measurePage(
  fleet: Fleet,
  browser: Browser,
  settings: PageSettings,
  log: (line: string) => void,
  networks: NetworkProfile[] = NETWORKS,
): Promise<PageResult> {
  type Target = { page: PageKind; rows: number; served: ServedPage; apiUrl: string };
  // The pages, served directly or (for a proxy profile) built against a delaying proxy of
  // the API and served through another: the page and its API then both look far away.
  const buildTargets = async (rttMs: number | undefined): Promise<Target[]> => {
    const via = async (emulator: BenchEmulator): Promise<BenchEmulator> =>
      rttMs === undefined
        ? emulator
        : { ...emulator, url: (await startDelayProxy(emulator.url, rttMs)).url };
    const serve = async (page: PageKind, rows: number, emulator: BenchEmulator) => {
      const api = await via(emulator);
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
    };
    const list: Target[] = [];
    for (const rows of settings.goSizes) {
      list.push(await serve('go', rows, (await fleet.table(rows)).emulator));
    }
    const base = (await fleet.table(settings.baselineSize)).emulator;
    list.push(await serve('baseline', settings.baselineSize, base));
    list.push(await serve('limit', settings.baselineSize, base));
    if (!settings.goSizes.includes(settings.baselineSize)) {
      list.push(await serve('go', settings.baselineSize, base));
    }
    return list;
  };
  const targetSets = new Map<NetworkProfile, Target[]>();
  const direct = await buildTargets(undefined);
  for (const network of networks) {
    targetSets.set(
      network,
      network.via === 'proxy' ? await buildTargets(network.latencyMs) : direct,
    );
  }
  const targetsOf = (network: NetworkProfile) => targetSets.get(network) ?? direct;

  const key = (target: Target, network: NetworkProfile) =>
    `${target.page} ${target.rows} ${network.name}`;
  const loads = new Map<string, LoadResult[]>();
  const inspections = new Map<string, Inspection>();
  const [unthrottled] = networks;
  for (const target of direct) {
    const inspected = await loadOnce(browser, target.served, target.apiUrl, unthrottled!, true);
    if (inspected.inspection)
      inspections.set(`${target.page} ${target.rows}`, inspected.inspection);
  }
  for (const network of networks) {
    for (const target of targetsOf(network)) {
      loads.set(key(target, network), []);
      for (let i = 0; i < settings.warmup; i++) {
        await loadOnce(browser, target.served, target.apiUrl, network);
      }
    }
  }
  // Every round loads every page once under every profile, in rotated order, so each round's
  // loads are a pair (or more) taken at nearly the same time.
  for (let round = 0; round < settings.rounds; round++) {
    for (const network of networks) {
      const targets = targetsOf(network);
      for (let i = 0; i < targets.length; i++) {
        const target = targets[(i + round) % targets.length] as Target;
        const load = await loadOnce(browser, target.served, target.apiUrl, network);
        loads.get(key(target, network))?.push(load);
      }
    }
  }
  for (const targets of new Set(targetSets.values())) {
    for (const target of targets) await target.served.stop();
  }

  const order: PageKind[] = ['go', 'limit', 'baseline'];
  const sorted = (targets: Target[]) =>
    [...targets].sort((a, b) => order.indexOf(a.page) - order.indexOf(b.page) || a.rows - b.rows);
  const pages: PageFigures[] = [];
  const comparisons: NetworkComparison[] = [];
  for (const network of networks) {
    for (const target of sorted(targetsOf(network))) {
      const results = loads.get(key(target, network)) ?? [];
      const first = results[0];
      const inspection = inspections.get(`${target.page} ${target.rows}`);
      const scripts = inspection?.scripts ?? [];
      const figures: PageFigures = {
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
      log(
        `${fleet.db} page [${network.name}] ${target.page.padEnd(8)} ${target.rows.toLocaleString('en-US').padStart(9)} rows: decision ${figures.decisionMs.toFixed(1)} ms, redirect ${figures.redirectMs.toFixed(1)} ms, API ${figures.apiPerLoad.max} (OPTIONS ${figures.optionsPerLoad.max}), script ${figures.scripts.gzipBytes} B gzipped (${figures.scripts.count} files); html ${figures.phases.htmlDone.toFixed(1)}, api ${figures.phases.apiStart.toFixed(1)}–${figures.phases.apiEnd.toFixed(1)} ms`,
      );
      pages.push(figures);
    }
    const of = (page: PageKind, rows: number) => loads.get(`${page} ${rows} ${network.name}`) ?? [];
    const go = of('go', settings.baselineSize);
    const limit = of('limit', settings.baselineSize);
    const baseline = of('baseline', settings.baselineSize);
    const sizes = [...settings.goSizes].sort((a, b) => a - b);
    const decision = (runs: LoadResult[]) => median(runs.map((r) => r.decisionMs));
    comparisons.push({
      network: network.name,
      latencyMs: network.latencyMs,
      goVsReference: pairedMedian(go, limit, (a, b) => a / b),
      goMinusReferenceMs: pairedMedian(go, limit, (a, b) => a - b),
      speedup: decision(baseline) / decision(go),
      flatness: decision(of('go', sizes[sizes.length - 1]!)) / decision(of('go', sizes[0]!)),
      limitSpeedup: decision(baseline) / decision(limit),
    });
  }
  return { db: fleet.db, networks, pages, comparisons };
}
