// Measurement 2: the visitor's page in headless Chromium. For each page load: the time
// from navigation start to the redirect decision (the page's `data-lookup-done-at`, epoch
// ms, minus `performance.timeOrigin`), and the bytes of every script it loaded, gzipped.
// /go at several table sizes and the BASELINE page run side by side in interleaved rounds,
// each load in a fresh browser context: a first-time visitor with an empty cache.
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { serveBaselinePage, serveGoPage, serveLimitPage, type ServedPage } from './builds.js';
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
/** /go, the BASELINE page, and the REFERENCE page for the physical limit (builds.ts). */
export type PageKind = 'go' | 'baseline' | 'limit';

export interface PageFigures {
  page: PageKind;
  rows: number;
  /** Median time from navigation start to the redirect decision, ms. */
  decisionMs: number;
  /** Every load's decision time, ms. */
  samples: number[];
  phases: Phases;
  /** Scripts the page loaded: count, bytes as served, and gzipped (level 9) bytes. */
  scripts: { count: number; bytes: number; gzipBytes: number; urls: string[] };
  /** Requests to the API in one load, by method (OPTIONS: CORS preflight). */
  apiRequests: Record<string, number>;
  /** Bytes the API answered in one load (uncompressed). */
  apiBytes: number;
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
  /** Baseline decision ÷ the reference page's (what one HTML file + one GET would give). */
  limitSpeedup: number;
}

interface LoadResult {
  decisionMs: number;
  phases: Phases;
  rowsRead?: number;
}

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

/**
 * Loads the page once in a fresh context (a first-time visitor with an empty cache) and
 * returns the decision time. With `inspect`, it also records every script's bytes and the
 * requests sent to the API; that costs CDP traffic during the load, so timed loads skip it.
 */
async function loadOnce(
  browser: Browser,
  page: ServedPage,
  apiUrl: string,
  inspect = false,
): Promise<LoadResult & { inspection?: Inspection }> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const scripts: Promise<{ url: string; bytes: number; gzipBytes: number }>[] = [];
    const apiRequests: Record<string, number> = {};
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
      // CORS preflights are not Playwright 'request' events; the DevTools protocol shows them.
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Network.enable');
      cdp.on('Network.requestWillBeSent', (event) => {
        if (event.request.url.startsWith(apiUrl)) {
          apiRequests[event.request.method] = (apiRequests[event.request.method] ?? 0) + 1;
        }
      });
    }
    await tab.goto(page.url, { waitUntil: 'commit' });
    await tab.waitForSelector('html[data-lookup-done-at]', { state: 'attached', timeout: 30_000 });
    const { decisionMs, rowsRead, phases } = await tab.evaluate(readDecision);
    const result = { decisionMs, phases, ...(rowsRead === undefined ? {} : { rowsRead }) };
    if (!inspect) return result;
    // Preflights are logged when sent; give their events a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const apiBytes = (await Promise.all(apiBodies)).reduce((sum, n) => sum + n, 0);
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
    return {
      ...result,
      inspection: { scripts: await Promise.all(scripts), apiRequests, apiBytes },
    };
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
  type Target = { page: PageKind; rows: number; served: ServedPage; apiUrl: string };
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
  targets.push({
    page: 'limit',
    rows: settings.baselineSize,
    served: await serveLimitPage(base.emulator),
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
  const inspections = new Map<Target, Inspection>();
  for (const target of targets) {
    const inspected = await loadOnce(browser, target.served, target.apiUrl, true);
    if (inspected.inspection) inspections.set(target, inspected.inspection);
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
    const inspection = inspections.get(target);
    const scripts = inspection?.scripts ?? [];
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
      apiRequests: inspection?.apiRequests ?? {},
      apiBytes: inspection?.apiBytes ?? Number.NaN,
      ...(first?.rowsRead === undefined ? {} : { rowsRead: first.rowsRead }),
    };
    log(
      `${fleet.db} page ${target.page.padEnd(8)} ${target.rows.toLocaleString('en-US').padStart(9)} rows: decision ${figures.decisionMs.toFixed(1)} ms, script ${figures.scripts.gzipBytes} B gzipped (${figures.scripts.count} files); html ${figures.phases.htmlDone.toFixed(1)}, api ${figures.phases.apiStart.toFixed(1)}–${figures.phases.apiEnd.toFixed(1)} ms`,
    );
    return figures;
  });
  const order: PageKind[] = ['go', 'limit', 'baseline'];
  pages.sort((a, b) => order.indexOf(a.page) - order.indexOf(b.page) || a.rows - b.rows);

  const go = pages.filter((p) => p.page === 'go');
  const goAtBase = go.find((p) => p.rows === settings.baselineSize);
  const baseline = pages.find((p) => p.page === 'baseline');
  const limit = pages.find((p) => p.page === 'limit');
  const smallest = go[0];
  const largest = go[go.length - 1];
  return {
    db: fleet.db,
    pages,
    speedup: baseline && goAtBase ? baseline.decisionMs / goAtBase.decisionMs : Number.NaN,
    flatness: smallest && largest ? largest.decisionMs / smallest.decisionMs : Number.NaN,
    limitSpeedup: baseline && limit ? baseline.decisionMs / limit.decisionMs : Number.NaN,
  };
}
