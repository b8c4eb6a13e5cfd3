import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import type { RunningServer } from '../../scripts/http-server.js';
import { startTestEmulator } from '../support/emulator.js';
import {
  OWNER,
  buildAndServeSite,
  closedPortUrl,
  launchBrowser,
  screenshot,
  signIn,
  startCards,
  startSilentBackend,
  type ServedSite,
  type Visit,
} from './harness.js';

// The visitor's side: the Redirecting.. page (/go) in a real browser, against an emulator with
// entries, a backend that is down, and one that never answers.

const REDIRECT_DELAY_MS = 1500;
const LOOKUP_TIMEOUT_MS = 4000;
const HOUR = 3_600_000;

interface VisitResult {
  /** When the lookup finished, in the page's clock (epoch ms). */
  lookupDoneAt: number;
  /** When the page started loading, epoch ms. */
  startedAt: number;
  /** The request that reached the card site. */
  landing: Visit;
  /** Heading of the page the visitor landed on. */
  heading: string;
  lookups: Request[];
  /** Gzipped bytes of every script the /go page loaded. */
  scriptBytes: number;
}

let browser: Browser;
let cards: RunningServer & { visits: Visit[] };

beforeAll(async () => {
  cards = await startCards();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await cards?.stop();
});

/** Opens /go as a visitor and follows it to the card site. */
async function visit(page: Page, site: ServedSite, shot?: string): Promise<VisitResult> {
  const lookups: Request[] = [];
  const scripts: Promise<number>[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/rest/v1/namecard')) lookups.push(r);
  });
  page.on('response', (r) => {
    // Only fresh downloads: a page that visited the site before may revalidate (304).
    if (r.request().resourceType() === 'script' && r.status() === 200) {
      scripts.push(r.body().then((b) => gzipSync(b).length));
    }
  });
  cards.visits.length = 0;
  const startedAt = performance.timeOrigin + performance.now();
  await page.goto(site.route('go/'));
  await page.waitForFunction('document.documentElement.dataset.lookupDoneAt', undefined, {
    timeout: LOOKUP_TIMEOUT_MS + 5000,
  });
  const lookupDoneAt = Number(await page.evaluate('document.documentElement.dataset.lookupDoneAt'));
  if (shot) await screenshot(page, shot);
  await page.waitForURL((url) => url.href.startsWith(cards.url), {
    timeout: REDIRECT_DELAY_MS + 5000,
  });
  const heading = await page.getByRole('heading').first().innerText();
  const landing = cards.visits[0];
  if (!landing) throw new Error('The card site saw no request');
  const scriptBytes = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
  return { lookupDoneAt, startedAt, landing, heading, lookups, scriptBytes };
}

describe('/go against a backend with entries', () => {
  let emulator: RunningEmulator;
  let site: ServedSite;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    emulator = await startTestEmulator('pglite', { owner: OWNER });
    site = await buildAndServeSite({
      SUPABASE_URL: emulator.url,
      SUPABASE_ANON_KEY: emulator.anonKey,
      NAMECARD_MAIN_URL: cards.url,
    });
  });
  afterAll(async () => {
    await site?.stop();
    await emulator?.stop();
  });
  beforeEach(async () => {
    await emulator.query('delete from public.namecard');
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  const addEntry = (type: string, stampEnd: number) =>
    emulator.query('insert into public.namecard (type, stamp_end) values ($1, $2)', [
      type,
      stampEnd,
    ]);

  test('without script, the heading and a link to the main site are on the page', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const p = await noScript.newPage();
    await p.goto(site.route('go/'));
    await expect(p.getByRole('heading', { name: 'Redirecting..' }).isVisible()).resolves.toBe(true);
    await expect(p.locator('main').innerText()).resolves.toMatch(
      /If you are still not redirected, click this link\./,
    );
    await expect(
      p.getByRole('link', { name: 'click this link' }).getAttribute('href'),
    ).resolves.toBe(cards.url);
    await screenshot(p, 'go-without-script');
    await p.waitForTimeout(REDIRECT_DELAY_MS + 300);
    expect(p.url()).toBe(site.route('go/'));
    await noScript.close();
  });

  test('an active photo entry lands on the photo page, no sooner than 1.5 s after one lookup', async () => {
    await addEntry('photo', Date.now() + HOUR);
    const result = await visit(page, site, 'go');
    expect(result.landing.path).toBe('/photo');
    expect(result.heading).toBe('Photo profile');
    expect(result.landing.at - result.lookupDoneAt).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS);
    expect(result.landing.at - result.lookupDoneAt).toBeLessThan(REDIRECT_DELAY_MS + 2000);
    // One request; filter, order and limit on the server.
    expect(result.lookups).toHaveLength(1);
    const query = new URL(result.lookups[0]!.url()).searchParams;
    expect(query.get('stamp_end')).toMatch(/^gt\.\d+$/);
    expect(query.get('order')).toBe('id.desc');
    expect(query.get('limit')).toBe('1');
    // A visitor has no session: the anon key is the bearer.
    const headers = await result.lookups[0]!.allHeaders();
    expect(headers.authorization).toBe(`Bearer ${emulator.anonKey}`);
    expect(result.scriptBytes).toBeGreaterThan(0);
    expect(result.scriptBytes).toBeLessThan(10 * 1024);
    await screenshot(page, 'photo-card');
  });

  test('a newer main entry wins over an older active photo entry: main page', async () => {
    await addEntry('photo', Date.now() + 2 * HOUR);
    await addEntry('main', Date.now() + HOUR);
    const result = await visit(page, site);
    expect(result.landing.path).toBe('/');
    expect(result.heading).toBe('Main profile');
  });

  test('with no active entry (only expired ones) it lands on the main page', async () => {
    await addEntry('photo', Date.now() - 1000);
    const result = await visit(page, site);
    expect(result.landing.path).toBe('/');
    expect(result.heading).toBe('Main profile');
    expect(result.landing.at - result.lookupDoneAt).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS);
    await screenshot(page, 'main-card');
  });

  test("a signed-in owner's stored session token is sent with the lookup", async () => {
    await addEntry('photo', Date.now() + HOUR);
    await signIn(page, site, OWNER);
    const result = await visit(page, site);
    expect(result.landing.path).toBe('/photo');
    const headers = await result.lookups[0]!.allHeaders();
    expect(headers.apikey).toBe(emulator.anonKey);
    expect(headers.authorization).toMatch(/^Bearer ey/);
    expect(headers.authorization).not.toBe(`Bearer ${emulator.anonKey}`);
  });

  test('an expired stored session is ignored: the lookup uses the anon key and still works', async () => {
    await addEntry('photo', Date.now() + HOUR);
    await page.goto(site.route(''));
    const key = `sb-${new URL(emulator.url).hostname.split('.')[0]}-auth-token`;
    const stale = JSON.stringify({
      access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c3RhbGU',
      expires_at: Math.floor(Date.now() / 1000) - 60,
    });
    await page.evaluate(`localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(stale)})`);
    const result = await visit(page, site);
    expect(result.landing.path).toBe('/photo');
    const headers = await result.lookups[0]!.allHeaders();
    expect(headers.authorization).toBe(`Bearer ${emulator.anonKey}`);
  });
});

describe('/go when the backend fails', () => {
  let silent: RunningServer;
  let downSite: ServedSite;
  let silentSite: ServedSite;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    silent = await startSilentBackend();
    downSite = await buildAndServeSite({
      SUPABASE_URL: await closedPortUrl(),
      NAMECARD_MAIN_URL: cards.url,
    });
    silentSite = await buildAndServeSite({
      SUPABASE_URL: silent.url,
      NAMECARD_MAIN_URL: cards.url,
    });
  });
  afterAll(async () => {
    await silentSite?.stop();
    await downSite?.stop();
    await silent?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  test('with the backend stopped it lands on the main page', async () => {
    const result = await visit(page, downSite);
    expect(result.landing.path).toBe('/');
    expect(result.heading).toBe('Main profile');
    expect(result.landing.at - result.lookupDoneAt).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS);
  });

  test('with a backend that never answers it gives up after the time-out and lands on the main page', async () => {
    const result = await visit(page, silentSite);
    expect(result.landing.path).toBe('/');
    expect(result.heading).toBe('Main profile');
    const total = result.landing.at - result.startedAt;
    expect(total).toBeGreaterThanOrEqual(LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS);
    expect(total).toBeLessThan(LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS + 3000);
  });
});
