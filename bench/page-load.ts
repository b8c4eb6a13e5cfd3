// One load of a page in headless Chromium, in a fresh browser context (a first-time visitor
// with an empty cache), under one network profile: the decision time, the time to the
// redirect and the requests the page sent to the API (CORS preflights included, as the
// DevTools protocol shows them); in an untimed load, also the bytes of every script and of
// the API's answers. bench/page.ts runs the loads and turns them into figures.
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ServedPage } from './builds.js';

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

/** What one load of a page measured. */
export interface PageLoad {
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
export interface Inspection {
  scripts: ScriptBytes[];
  /** Requests to the API, by method (a CORS preflight is an OPTIONS request). */
  apiRequests: Record<string, number>;
  /** Bytes of the API's answers (bodies as received, uncompressed). */
  apiBytes: number;
}

/** Runs in the page the load redirected to: when its navigation started (epoch ms). */
function timeOrigin(): number {
  return (globalThis as unknown as PageGlobals).performance.timeOrigin;
}

/** One script the page loaded: its bytes as served and gzipped (level 9). */
interface ScriptBytes {
  url: string;
  bytes: number;
  gzipBytes: number;
}

const scriptBytes = (url: string, body: Buffer): ScriptBytes => ({
  url,
  bytes: body.length,
  gzipBytes: gzipSync(body, { level: 9 }).length,
});

/** What a load's listeners collect while the page runs. */
interface Seen {
  /** Requests to the API by method, the visit count left out. */
  apiRequests: Record<string, number>;
  visitCounts: number;
  /** With inspection: the scripts' and the API answers' bytes, as they arrive. */
  scripts: Promise<ScriptBytes>[];
  apiBodies: Promise<number>[];
}

/**
 * Starts watching a tab before it loads: with `inspect`, every response's bytes (more CDP
 * traffic: only in an untimed load); always, through a DevTools session with the Network
 * domain on (so the cost of watching is the same for every page), the requests to the API,
 * CORS preflights included, which are not Playwright 'request' events. Applies `network`'s
 * emulated conditions when it is a DevTools profile.
 */
async function watch(
  context: BrowserContext,
  tab: Page,
  apiUrl: string,
  network: NetworkProfile,
  inspect: boolean,
): Promise<Seen> {
  const seen: Seen = { apiRequests: {}, visitCounts: 0, scripts: [], apiBodies: [] };
  if (inspect) {
    tab.on('response', (response) => {
      if (response.url().startsWith(apiUrl)) {
        seen.apiBodies.push(response.body().then((body) => body.length));
      }
      if (response.request().resourceType() !== 'script') return;
      seen.scripts.push(response.body().then((body) => scriptBytes(response.url(), body)));
    });
  }
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
    if (path === VISIT_COUNT_PATH && event.request.method === 'POST') seen.visitCounts++;
    else seen.apiRequests[event.request.method] = (seen.apiRequests[event.request.method] ?? 0) + 1;
  });
  return seen;
}

/**
 * What the page loaded, read before it goes (bodies of a document left are lost): the
 * scripts, inline ones included (part of the HTML, not responses of their own), and the API.
 */
async function inspectPage(tab: Page, pageUrl: string, seen: Seen): Promise<Inspection> {
  for (const [i, text] of (await tab.evaluate(inlineScripts)).entries()) {
    seen.scripts.push(
      Promise.resolve(scriptBytes(`${pageUrl}#inline-script-${i + 1}`, Buffer.from(text))),
    );
  }
  return {
    scripts: await Promise.all(seen.scripts),
    apiRequests: seen.apiRequests,
    apiBytes: (await Promise.all(seen.apiBodies)).reduce((sum, n) => sum + n, 0),
  };
}

/**
 * Loads the page once in a fresh context (a first-time visitor with an empty cache) under
 * `network`, and returns the decision time, the time to the redirect and the API requests
 * of that load. With `inspect`, it also records every script's bytes and the bytes the API
 * answered (more CDP traffic: only in an untimed load).
 */
export async function loadOnce(
  browser: Browser,
  page: ServedPage,
  apiUrl: string,
  network: NetworkProfile,
  inspect = false,
): Promise<PageLoad & { inspection?: Inspection }> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const seen = await watch(context, tab, apiUrl, network, inspect);
    await tab.goto(page.url, { waitUntil: 'commit' });
    await tab.waitForSelector('html[data-lookup-done-at]', { state: 'attached', timeout: 30_000 });
    const decision = await tab.evaluate(readDecision);
    const inspection = inspect ? await inspectPage(tab, page.url, seen) : undefined;
    // Every page redirects 1.5 s after deciding (the product's rule, copied by the others).
    await tab.waitForURL(decision.target, { waitUntil: 'commit', timeout: 30_000 });
    const redirectMs = (await tab.evaluate(timeOrigin)) - decision.timeOrigin;
    const counts = Object.values(seen.apiRequests);
    const result: PageLoad = {
      decisionMs: decision.decisionMs,
      redirectMs,
      api: counts.reduce((sum, n) => sum + n, 0),
      options: seen.apiRequests.OPTIONS ?? 0,
      visitCounts: seen.visitCounts,
      phases: decision.phases,
      ...(decision.rowsRead === undefined ? {} : { rowsRead: decision.rowsRead }),
    };
    return inspection ? { ...result, inspection } : result;
  } finally {
    await context.close();
  }
}
