import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../scripts/http-server.js';
import { useE2eFixture, type E2eFixture } from './fixture.js';
import {
  LOOKUP_TIMEOUT_MS,
  REDIRECT_DELAY_MS,
  buildAndServeSite,
  followGo,
  screenshot,
  signIn,
  sendJson,
  startSilentBackend,
  type FakeAnswer,
  type GoVisit,
  type ServedSite,
} from './harness.js';
import { OWNER } from '../support/accounts.js';
import { insertEntry } from '../support/entries.js';

// The visitor's side: the Redirecting.. page (/go) in a real browser, against an emulator with
// entries, a backend that is down, one that never answers, and one that answers garbage.

const HOUR = 3_600_000;

/** Opens /go as a visitor and follows it to the fixture's card site. */
const visitor =
  (e2e: E2eFixture) =>
  (page: Page, site: ServedSite, shot?: string): Promise<GoVisit> =>
    followGo(page, site, e2e.cards, shot);

describe('/go against a backend with entries', () => {
  const e2e = useE2eFixture({ clearRows: true });
  const visit = visitor(e2e);

  const addEntry = (type: string, stampEnd: number) =>
    insertEntry(e2e.emulator, type, null, stampEnd);

  test('without script, the heading and a link to the main site are on the page', async () => {
    const { emulator, cards, site, browser, page } = e2e;
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const p = await noScript.newPage();
    // The <noscript> refresh (next test) is held back, so that this page stays while it is read.
    await p.route(`${cards.url}**`, () => {});
    await p.goto(site.route('go/'));
    await expect(p.getByRole('heading', { name: 'Redirecting..' }).isVisible()).resolves.toBe(true);
    await expect(p.locator('main').innerText()).resolves.toMatch(
      /If you are still not redirected, click this link\./,
    );
    await expect(
      p.getByRole('link', { name: 'click this link' }).getAttribute('href'),
    ).resolves.toBe(cards.url);
    // The connection to the API opens while the page parses.
    await expect(p.locator('link[rel=preconnect][crossorigin]').getAttribute('href')).resolves.toBe(
      new URL(emulator.url).origin,
    );
    await screenshot(p, 'go-without-script');
    // First a redirect that does happen: a visitor with script who opens /go after this page
    // loaded is sent on to the card site (1.5 s after the lookup). Any redirect of this page,
    // which loaded earlier, would have happened by then.
    await page.goto(site.route('go/'));
    await page.waitForURL((url) => url.href.startsWith(cards.url), {
      timeout: LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS + 5000,
    });
    expect(p.url()).toBe(site.route('go/'));
    await noScript.close();
  });

  test('without script, the page lands on the main site (its <noscript> refresh)', async () => {
    const { cards, site, browser } = e2e;
    await addEntry('photo', Date.now() + HOUR);
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const p = await noScript.newPage();
    cards.visits.length = 0;
    await p.goto(site.route('go/'));
    // The refresh waits 2 s (about the script's 1.5 s; a refresh counts whole seconds).
    await p.waitForURL(cards.url, { timeout: REDIRECT_DELAY_MS + 5000 });
    await expect(p.getByRole('heading').first().innerText()).resolves.toBe('Main profile');
    // Without the lookup, the fallback is always the main site, even with photo active.
    expect(cards.visits.map((v) => v.path)).toEqual(['/']);
    await noScript.close();
  });

  test('an active photo entry lands on the photo page, no sooner than 1.5 s after one lookup', async () => {
    const { emulator, site, page } = e2e;
    await addEntry('photo', Date.now() + HOUR);
    const result = await visit(page, site, 'go');
    expect(result.landing.path).toBe('/photo');
    expect(result.heading).toBe('Photo profile');
    expect(result.landing.at - result.lookupDoneAt).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS);
    expect(result.landing.at - result.lookupDoneAt).toBeLessThan(REDIRECT_DELAY_MS + 2000);
    // One request on the card's lookup (a bare /go/ is the card main), which decides with the
    // server's clock.
    expect(result.lookups).toHaveLength(1);
    const url = new URL(result.lookups[0]!.url());
    expect(url.pathname).toBe('/rest/v1/rpc/namecard_go');
    expect(url.searchParams.get('card')).toBe('main');
    // The entry and its profile's destination (null for photo: the build's NAMECARD_PHOTO_PATH).
    expect(url.searchParams.get('select')).toBe('id,type,stamp_start,stamp_end,url');
    // A visitor has no session: the anon key rides in the query, with no header to preflight.
    expect(url.searchParams.get('apikey')).toBe(emulator.anonKey);
    const headers = await result.lookups[0]!.allHeaders();
    expect(headers.authorization).toBeUndefined();
    expect(headers.apikey).toBeUndefined();
    // Self-contained: the script and style are inline, so the browser asks for nothing but the
    // page, the lookup and, once the decision is known, the visit count, a
    // CORS-simple POST with the anon key in the query (the CORS preflight is not a page request).
    expect(result.requests.map((r) => `${r.method()} ${r.url()}`)).toEqual([
      `GET ${site.route('go/')}`,
      `GET ${result.lookups[0]!.url()}`,
      `POST ${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
    ]);
    // The inline script, gzipped: the whole of /go's code.
    expect(result.scriptBytes).toBeGreaterThan(0);
    expect(result.scriptBytes).toBeLessThan(10 * 1024);
    await screenshot(page, 'photo-card');
  });

  test('a newer main entry wins over an older active photo entry: main page', async () => {
    const { site, page } = e2e;
    await addEntry('photo', Date.now() + 2 * HOUR);
    await addEntry('main', Date.now() + HOUR);
    const result = await visit(page, site);
    expect(result.landing.path).toBe('/');
    expect(result.heading).toBe('Main profile');
  });

  test('with no active entry (only expired ones) it lands on the main page', async () => {
    const { site, page } = e2e;
    await addEntry('photo', Date.now() - 1000);
    const result = await visit(page, site);
    expect(result.landing.path).toBe('/');
    expect(result.heading).toBe('Main profile');
    expect(result.landing.at - result.lookupDoneAt).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS);
    await screenshot(page, 'main-card');
  });

  test("a signed-in owner's stored session token is sent with the lookup", async () => {
    const { emulator, site, page } = e2e;
    await addEntry('photo', Date.now() + HOUR);
    await signIn(page, site, OWNER);
    // Leave /manage first, so that its lazily loaded chunks are not counted as /go's loads.
    await page.goto('about:blank');
    const result = await visit(page, site);
    expect(result.landing.path).toBe('/photo');
    // The visitor's lookup leaves before storage is read; the owner's then carries the token.
    const withToken = await Promise.all(result.lookups.map((r) => r.allHeaders()));
    const owner = withToken.filter((headers) => headers.authorization !== undefined);
    expect(owner).toHaveLength(1);
    expect(owner[0]!.authorization).toMatch(/^Bearer ey/);
    expect(owner[0]!.authorization).not.toBe(`Bearer ${emulator.anonKey}`);
  });

  test('an expired stored session is ignored: the lookup uses the anon key and still works', async () => {
    const { emulator, site, page } = e2e;
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
    expect(result.lookups).toHaveLength(1);
    const headers = await result.lookups[0]!.allHeaders();
    expect(headers.authorization).toBeUndefined();
  });
});

describe('/go when the backend fails', () => {
  // The fixture's site is built against an API that is down; a second one against an API
  // that never answers.
  const e2e = useE2eFixture({ api: 'down' });
  const visit = visitor(e2e);
  let silent: RunningServer;
  let silentSite: ServedSite;

  beforeAll(async () => {
    silent = await startSilentBackend();
    silentSite = await buildAndServeSite({
      SUPABASE_URL: silent.url,
      NAMECARD_MAIN_URL: e2e.cards.url,
    });
  });
  afterAll(async () => {
    await silentSite?.stop();
    await silent?.stop();
  });

  test('with the backend stopped it lands on the main page', async () => {
    const { page, site: downSite } = e2e;
    const result = await visit(page, downSite);
    expect(result.landing.path).toBe('/');
    expect(result.heading).toBe('Main profile');
    expect(result.landing.at - result.lookupDoneAt).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS);
  });

  test('with a backend that never answers it gives up after the time-out and lands on the main page', async () => {
    const { page } = e2e;
    const result = await visit(page, silentSite);
    expect(result.landing.path).toBe('/');
    expect(result.heading).toBe('Main profile');
    const total = result.landing.at - result.startedAt;
    expect(total).toBeGreaterThanOrEqual(LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS);
    expect(total).toBeLessThan(LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS + 3000);
  });
});

/** A failing lookup that ends at once: the redirect must not wait for the time-out. */
const FAST_FAILURES: { name: string; answer: FakeAnswer; requests?: number }[] = [
  {
    name: '500 with a PostgREST error body',
    answer: (_req, res) =>
      sendJson(res, 500, { code: 'XX000', message: 'internal error', details: null, hint: null }),
  },
  {
    name: '500 with an HTML page',
    answer: (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>Internal Server Error</h1></body></html>');
    },
  },
  {
    name: '503 from a proxy with no body',
    answer: (_req, res) => void res.writeHead(503).end(),
  },
  {
    name: '200 with an HTML page instead of JSON',
    answer: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>Captive portal</title><p>Please sign in to the Wi-Fi</p>');
    },
  },
  {
    name: '200 with truncated JSON',
    answer: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('[{"id":7,"stamp_end":99999999999999,"type":"pho');
    },
  },
  {
    name: '200 with an object instead of a list ({})',
    answer: (_req, res) => sendJson(res, 200, {}),
  },
  {
    name: '200 with null',
    answer: (_req, res) => sendJson(res, 200, null),
  },
  {
    name: '200 with an empty body',
    answer: (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(),
  },
  {
    name: 'the connection cut before any answer',
    answer: (req) => req.socket.destroy(),
    // Chromium itself resends a GET once when a reused keep-alive connection is reset.
    requests: 2,
  },
];

describe('/go when the backend answers badly', () => {
  const e2e = useE2eFixture({ api: 'fake' });
  const visit = visitor(e2e);
  beforeEach(() => {
    e2e.backend.requests.length = 0;
  });

  test.each(FAST_FAILURES)(
    'a backend answering $name: main page, 1.5 s after the lookup, without waiting for the time-out',
    async ({ answer, requests = 1 }) => {
      const { backend, cards, site, page } = e2e;
      backend.answer = answer;
      const result = await visit(page, site);
      // The lookups only: the visit count (a POST to /rpc) follows the decision.
      const lookups = backend.requests.filter((url) => url.startsWith('/rest/v1/rpc/namecard_go'));
      expect(lookups.length).toBeGreaterThanOrEqual(1);
      expect(lookups.length).toBeLessThanOrEqual(requests);
      expect(result.finalUrl).toBe(cards.url);
      expect(result.heading).toBe('Main profile');
      expect(result.landing.at - result.lookupDoneAt).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS);
      expect(result.landing.at - result.startedAt).toBeLessThan(REDIRECT_DELAY_MS + 2500);
    },
  );

  test('a backend that sends the headers and then hangs mid-body: main page within the time-out plus 1.5 s', async () => {
    const { backend, cards, site, page } = e2e;
    backend.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[{"id":1,');
    };
    const result = await visit(page, site);
    expect(result.finalUrl).toBe(cards.url);
    expect(result.heading).toBe('Main profile');
    const total = result.landing.at - result.startedAt;
    expect(total).toBeGreaterThanOrEqual(LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS);
    expect(total).toBeLessThan(LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS + 2000);
  });

  test('a backend that answers only after the time-out: main page within the time-out plus 1.5 s', async () => {
    const { backend, site, page } = e2e;
    backend.answer = (_req, res) => {
      const late = setTimeout(
        () => sendJson(res, 200, [{ id: 1, stamp_end: Date.now() + HOUR, type: 'photo' }]),
        LOOKUP_TIMEOUT_MS + 1000,
      );
      res.on('close', () => clearTimeout(late));
    };
    const result = await visit(page, site);
    expect(result.landing.path).toBe('/');
    const total = result.landing.at - result.startedAt;
    expect(total).toBeGreaterThanOrEqual(LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS);
    expect(total).toBeLessThan(LOOKUP_TIMEOUT_MS + REDIRECT_DELAY_MS + 2000);
  });
});
