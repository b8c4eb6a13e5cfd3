// Measurement 2: the visitor's page in headless Chromium. For each page load: the time
// from navigation start to the redirect decision (the page's `data-lookup-done-at`, epoch
// ms, minus `performance.timeOrigin`), and the bytes of every script it loaded, gzipped.
// /go at several table sizes and the BASELINE page run side by side in interleaved rounds,
// each load in a fresh browser context: a first-time visitor with an empty cache.
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { serveBaselinePage, serveGoPage, type ServedPage } from './builds.js';
import type { DbKind } from './emulator.js';
import type { Fleet } from './fleet.js';
import { median } from './stats.js';

export interface PageSettings {
  /** Table sizes /go is loaded at (flatness: the largest against the smallest). */
  goSizes: number[];
  /** Table size of the side-by-side comparison with the baseline. */
  baselineSize: number;
  rounds: number;
  warmup: number;
}

/** One page at one table size. */
export interface PageFigures {
  page: 'go' | 'baseline';
  rows: number;
  /** Median time from navigation start to the redirect decision, ms. */
  decisionMs: number;
  /** Every load's decision time, ms. */
  samples: number[];
  phases: Phases;
  /** Scripts the page loaded: count, bytes as served, and gzipped (level 9) bytes. */
  scripts: { count: number; bytes: number; gzipBytes: number; urls: string[] };
  /** Requests to the API per load (CORS preflights included). */
  apiRequests: number;
  /** Rows the page received (baseline: every row; /go: at most one). */
  rowsRead?: number;
}

export interface PageResult {
  db: DbKind;
  pages: PageFigures[];
  /** Baseline decision ÷ /go decision, at the baseline's size. */
  speedup: number;
  /** /go decision at the largest size ÷ at the smallest. */
  flatness: number;
}

interface LoadResult {
  decisionMs: number;
  phases: Phases;
  scripts: { url: string; bytes: number; gzipBytes: number }[];
  apiRequests: number;
  rowsRead?: number;
}

/** Evaluated in the page: the decision time once the page has marked it, else false. */
const DECISION = `(() => {
  const data = document.documentElement.dataset;
  if (!data.lookupDoneAt) return false;
  const nav = performance.getEntriesByType('navigation')[0];
  const api = performance
    .getEntriesByType('resource')
    .filter((e) => e.name.includes('/rest/v1/'))
    .pop();
  return {
    decisionMs: Number(data.lookupDoneAt) - performance.timeOrigin,
    rowsRead: data.rowsRead === undefined ? undefined : Number(data.rowsRead),
    phases: {
      htmlDone: nav ? nav.responseEnd : NaN,
      domInteractive: nav ? nav.domInteractive : NaN,
      apiStart: api ? api.startTime : NaN,
      apiEnd: api ? api.responseEnd : NaN,
    },
  };
})()`;

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

async function loadOnce(browser: Browser, page: ServedPage, apiUrl: string): Promise<LoadResult> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const scripts: Promise<{ url: string; bytes: number; gzipBytes: number }>[] = [];
    let apiRequests = 0;
    tab.on('request', (request) => {
      if (request.url().startsWith(apiUrl)) apiRequests++;
    });
    tab.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.push(
        response.body().then((body) => ({
          url: response.url(),
          bytes: body.length,
          gzipBytes: gzipSync(body, { level: 9 }).length,
        })),
      );
    });
    await tab.goto(page.url, { waitUntil: 'commit' });
    // A string, because this runs in the page (no DOM types in the benchmark's tsconfig).
    const decided = await tab.waitForFunction(DECISION, undefined, {
      timeout: 30_000,
      polling: 'raf',
    });
    const { decisionMs, rowsRead, phases } = (await decided.jsonValue()) as {
      decisionMs: number;
      rowsRead?: number;
      phases: Phases;
    };
    // CORS preflights are not 'request' events, so this counts what the page itself sent.
    return { decisionMs, phases, scripts: await Promise.all(scripts), apiRequests, rowsRead };
  } finally {
    await context.close();
  }
}

export async function measurePage(
  fleet: Fleet,
  browser: Browser,
  settings: PageSettings,
  log: (line: string) => void,
): Promise<PageResult> {
  type Target = { page: 'go' | 'baseline'; rows: number; served: ServedPage; apiUrl: string };
  const targets: Target[] = [];
  for (const rows of settings.goSizes) {
    const table = await fleet.table(rows);
    targets.push({
      page: 'go',
      rows,
      served: await serveGoPage(table.emulator),
      apiUrl: table.emulator.url,
    });
  }
  const base = await fleet.table(settings.baselineSize);
  targets.push({
    page: 'baseline',
    rows: settings.baselineSize,
    served: await serveBaselinePage(base.emulator),
    apiUrl: base.emulator.url,
  });
  const baselineGo = targets.find((t) => t.page === 'go' && t.rows === settings.baselineSize);
  if (!baselineGo) {
    targets.push({
      page: 'go',
      rows: settings.baselineSize,
      served: await serveGoPage(base.emulator),
      apiUrl: base.emulator.url,
    });
  }

  const loads = new Map<Target, LoadResult[]>(targets.map((t) => [t, []]));
  for (const target of targets) {
    for (let i = 0; i < settings.warmup; i++) await loadOnce(browser, target.served, target.apiUrl);
  }
  for (let round = 0; round < settings.rounds; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length] as Target;
      loads.get(target)?.push(await loadOnce(browser, target.served, target.apiUrl));
    }
  }
  for (const target of targets) await target.served.stop();

  const pages: PageFigures[] = targets.map((target) => {
    const results = loads.get(target) ?? [];
    const first = results[0];
    const scripts = first?.scripts ?? [];
    const figures: PageFigures = {
      page: target.page,
      rows: target.rows,
      decisionMs: median(results.map((r) => r.decisionMs)),
      samples: results.map((r) => r.decisionMs),
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
      apiRequests: median(results.map((r) => r.apiRequests)),
      ...(first?.rowsRead === undefined ? {} : { rowsRead: first.rowsRead }),
    };
    log(
      `${fleet.db} page ${target.page.padEnd(8)} ${target.rows.toLocaleString('en-US').padStart(9)} rows: decision ${figures.decisionMs.toFixed(1)} ms, script ${figures.scripts.gzipBytes} B gzipped (${figures.scripts.count} files); html ${figures.phases.htmlDone.toFixed(1)}, api ${figures.phases.apiStart.toFixed(1)}–${figures.phases.apiEnd.toFixed(1)} ms`,
    );
    return figures;
  });
  pages.sort((a, b) => (a.page === b.page ? a.rows - b.rows : a.page === 'go' ? -1 : 1));

  const go = pages.filter((p) => p.page === 'go');
  const goAtBase = go.find((p) => p.rows === settings.baselineSize);
  const baseline = pages.find((p) => p.page === 'baseline');
  const smallest = go[0];
  const largest = go[go.length - 1];
  return {
    db: fleet.db,
    pages,
    speedup: baseline && goAtBase ? baseline.decisionMs / goAtBase.decisionMs : Number.NaN,
    flatness: smallest && largest ? largest.decisionMs / smallest.decisionMs : Number.NaN,
  };
}
