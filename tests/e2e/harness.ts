// What the browser tests start: Debian's chromium, the built site on a plain static file
// server, the demo card pages, and backends that are down or never answer. Every helper
// returns something with `stop()`; each test file stops what it started.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { startDemoCards } from '../../scripts/demo-card/server.js';
import { listen, type RunningServer } from '../../scripts/http-server.js';
import { buildSite } from '../../scripts/site-build.js';
import { inlineCode } from '../../site/build/csp.js';
import { serveSite } from '../../scripts/site-server.js';

export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** Debian's chromium, headless, with nothing that calls home. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.NAMECARD_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A built site served like a static host, plus the folder it was built into. */
export interface ServedSite extends RunningServer {
  dir: string;
  /** The URL of a path under the site's base path, e.g. `route('login/')`. */
  route(path: string): string;
}

/**
 * Builds the site into a fresh temporary folder with these settings and serves it with the
 * plain static server `npm start` uses (files only, 404.html for the rest).
 * `options.antiFraming: false` drops its anti-framing headers, as GitHub Pages would.
 */
export async function buildAndServeSite(
  env: Record<string, string | undefined>,
  options: { antiFraming?: boolean } = {},
): Promise<ServedSite> {
  const dir = await mkdtemp(join(tmpdir(), 'namecard-site-'));
  try {
    await buildSite(env, dir);
    const basePath = env.NAMECARD_BASE_PATH ?? '/';
    const server = await serveSite(dir, { basePath, ...options });
    return {
      ...server,
      dir,
      route: (path) => new URL(`${basePath}${path}`, server.url).href,
      async stop() {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A request that reached the demo card pages: its path and when it arrived (epoch ms). */
export interface Visit {
  path: string;
  at: number;
}

/**
 * The demo card pages on a free port: `/` says "Main profile", `/photo` "Photo profile".
 * `visits` records every request as it arrives, in this machine's clock.
 */
export async function startCards(): Promise<RunningServer & { visits: Visit[] }> {
  const visits: Visit[] = [];
  const server = await startDemoCards({
    port: 0,
    onRequest: (path) => visits.push({ path, at: performance.timeOrigin + performance.now() }),
  });
  return { ...server, visits };
}

/** A backend that accepts connections and never answers a byte. */
export async function startSilentBackend(): Promise<RunningServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** How a {@link FakeBackend} answers a request that is not a CORS preflight. */
export type FakeAnswer = (req: IncomingMessage, res: ServerResponse) => void;

/** A stand-in for the API that answers whatever the test tells it to. */
export interface FakeBackend extends RunningServer {
  /** The answer to the next requests; CORS headers are already set on `res`. */
  answer: FakeAnswer;
  /** Path and query of every request after preflight, in order. */
  requests: string[];
}

/**
 * A backend on a free loopback port that answers CORS preflights like the real API and every
 * other request with `answer` (default: an empty list). Lets the browser tests serve what a
 * real Supabase never would: errors, garbage, rows that break the table's constraints.
 */
export async function startFakeBackend(answer?: FakeAnswer): Promise<FakeBackend> {
  const requests: string[] = [];
  const backend = {} as FakeBackend;
  backend.answer = answer ?? ((_req, res) => void sendJson(res, 200, []));
  backend.requests = requests;
  const server = await listen((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, HEAD, POST, PATCH, DELETE',
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '',
        'Access-Control-Max-Age': '0',
      });
      res.end();
      return;
    }
    requests.push(req.url ?? '/');
    backend.answer(req, res);
  });
  return Object.assign(backend, server);
}

/** Sends `body` as JSON with PostgREST's content type. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** The URL of a loopback port that nothing listens on (a backend that is down). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Saves a full-page screenshot under tests/e2e/screenshots/ (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Signs in through the login form (the Auth UI) and waits for /manage. */
export async function signIn(
  page: Page,
  site: ServedSite,
  user: { email: string; password: string },
): Promise<void> {
  await page.goto(site.route('login/'));
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Your Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(site.route('manage/'));
}

/** The redirect happens this long after the lookup finished (spec §9; site/src/go/main.ts). */
export const REDIRECT_DELAY_MS = 1500;
/** The /go lookup gives up after this long (site/src/go/main.ts). */
export const LOOKUP_TIMEOUT_MS = 4000;

/** What a visitor's trip through /go looked like. */
export interface GoVisit {
  /** When the page started loading, epoch ms. */
  startedAt: number;
  /** When the lookup finished, in the page's clock (epoch ms). */
  lookupDoneAt: number;
  /** The first request that reached the card site. */
  landing: Visit;
  /** Where the browser ended up. */
  finalUrl: string;
  /** Heading of the page the visitor landed on. */
  heading: string;
  /** The lookup requests the page sent. */
  lookups: Request[];
  /** Every request the browser sent up to the redirect, the /go document first. */
  requests: Request[];
  /** Gzipped bytes of every script the /go page ran: its inline script and any script files. */
  scriptBytes: number;
}

/**
 * Opens /go as a visitor and follows it to the card site; fails when the browser does not
 * reach the card site within the lookup time-out plus the redirect delay (plus slack).
 * `path` is the page's path under the site (default `go/`; a card's link: `go/?c=<slug>`).
 */
export async function followGo(
  page: Page,
  site: ServedSite,
  cards: RunningServer & { visits: Visit[] },
  shot?: string,
  path = 'go/',
): Promise<GoVisit> {
  const lookups: Request[] = [];
  const requests: Request[] = [];
  const scripts: Promise<number>[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(cards.url)) requests.push(r);
    // The card's lookup by its slug (rpc/namecard_go; a bare /go/ names main).
    if (/\/rest\/v1\/rpc\/namecard_go\?/.test(r.url())) lookups.push(r);
  });
  page.on('response', (r) => {
    // Only fresh downloads: a page that visited the site before may revalidate (304).
    if (r.request().resourceType() === 'script' && r.status() === 200) {
      scripts.push(r.body().then((b) => gzipSync(b).length));
    }
  });
  cards.visits.length = 0;
  const startedAt = performance.timeOrigin + performance.now();
  const document = await page.goto(site.route(path));
  // The page's own inline scripts (the build inlines /go's whole script into its HTML).
  const inlineScripts = inlineCode((await document?.text()) ?? '').scripts;
  scripts.push(...inlineScripts.map((code) => Promise.resolve(gzipSync(code).length)));
  // A locator, not waitForFunction: a string predicate is eval'd, which the site's CSP forbids.
  const root = page.locator('html[data-lookup-done-at]');
  await root.waitFor({ state: 'attached', timeout: LOOKUP_TIMEOUT_MS + 5000 });
  const lookupDoneAt = Number(await root.getAttribute('data-lookup-done-at'));
  if (shot) await screenshot(page, shot);
  await page.waitForURL((url) => url.href.startsWith(cards.url), {
    timeout: REDIRECT_DELAY_MS + 5000,
  });
  const heading = await page.getByRole('heading').first().innerText();
  const landing = cards.visits[0];
  if (!landing) throw new Error('The card site saw no request');
  const scriptBytes = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
  return {
    startedAt,
    lookupDoneAt,
    landing,
    finalUrl: page.url(),
    heading,
    lookups,
    requests,
    scriptBytes,
  };
}

/** What the browser's own form check did since {@link recordFormChecks} started. */
export interface FormChecks {
  /** The fields it refused, in order (`invalid` events; each field's name, or its id). */
  invalid: string[];
  /** How many times a form was submitted (`submit` events: what the page's handlers act on). */
  submitted: number;
}

/**
 * Starts recording, in the page, what the browser's own form check does: each refused field
 * (`invalid`) and each form that passed it and was submitted (`submit`). A test that says
 * "the browser refused the form, so nothing was sent" first waits for the refusal with this,
 * instead of waiting a fixed time for a request that should not come. Lasts until the page
 * navigates away.
 * @returns a function that reads what was recorded so far.
 */
export async function recordFormChecks(page: Page): Promise<() => Promise<FormChecks>> {
  // A string, run in the page through the DevTools protocol (which the site's CSP allows;
  // the tests compile without the DOM library).
  await page.evaluate(`(() => {
    const seen = (window.__formChecks = { invalid: [], submitted: 0 });
    // Capturing: 'invalid' does not bubble, and 'submit' is seen before the page's handlers.
    document.addEventListener('invalid', (e) => seen.invalid.push(e.target.name || e.target.id), true);
    document.addEventListener('submit', () => { seen.submitted += 1; }, true);
  })()`);
  return () => page.evaluate<FormChecks>('window.__formChecks');
}
