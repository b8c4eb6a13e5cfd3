import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildAndServeSite,
  closedPortUrl,
  launchBrowser,
  screenshot,
  type ServedSite,
} from './harness.js';
import { firstDrawScripts } from '../support/first-draw.js';

// The built site on a plain static file server (files only, 404.html for anything else, no
// rewrites), as on GitHub Pages or S3. No backend is needed for these checks.

const MAIN_URL = 'https://card.example/me/';

const ROUTES = [
  { path: '', title: 'Namecard' },
  { path: 'login/', title: 'Login | Namecard' },
  { path: 'manage/', title: 'Manage | Namecard' },
  { path: 'go/', title: 'Namecard' },
];

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe('the built site on a plain static file server', () => {
  let site: ServedSite;
  let browser: Browser;

  beforeAll(async () => {
    site = await buildAndServeSite({
      SUPABASE_URL: await closedPortUrl(),
      NAMECARD_MAIN_URL: MAIN_URL,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.stop();
  });

  test.each(ROUTES)('route /$path is a file of its own with the title "$title"', async (r) => {
    const response = await fetch(site.route(r.path));
    expect(response.status).toBe(200);
    expect(titleOf(await response.text())).toBe(r.title);
  });

  test('routes without the trailing slash are served too', async () => {
    for (const path of ['login', 'manage', 'go']) {
      const response = await fetch(site.route(path));
      expect(response.status, path).toBe(200);
    }
  });

  test.each(['nope', 'login/extra', 'deep/down/here/', 'assets/missing.js'])(
    'unknown path /%s gets the not-found page with a link home',
    async (path) => {
      const response = await fetch(site.route(path));
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain('Page not found');
      expect(html).toMatch(/<a [^>]*href="\/"[^>]*>Go to the home page<\/a>/);
    },
  );

  test('the not-found page renders with its styles at any depth, and its link goes home', async () => {
    const page = await browser.newPage();
    await page.goto(site.route('some/deep/unknown/path'));
    await expect(page.getByRole('heading', { name: 'Page not found' }).isVisible()).resolves.toBe(
      true,
    );
    // The stylesheet loads at any depth (asset URLs are absolute, under the base path).
    const radius = await page.evaluate(
      "getComputedStyle(document.querySelector('.card')).borderTopLeftRadius",
    );
    expect(radius).toBe('12px');
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL(site.route(''));
    await page.close();
  });

  test('the landing page says what the site is and links to /go, /login and /manage', async () => {
    const page = await browser.newPage();
    await page.goto(site.route(''));
    await expect(page.title()).resolves.toBe('Namecard');
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/redirect service behind the owner's name card/i);
    // The link printed on the card is /go/, not this page.
    expect(text).not.toMatch(/This is the link printed on a name card/i);
    await expect(
      page.getByRole('link', { name: 'Open the card link' }).getAttribute('href'),
    ).resolves.toBe('/go/');
    await expect(
      page.getByRole('link', { name: 'Owner login' }).getAttribute('href'),
    ).resolves.toBe('/login/');
    await expect(
      page.getByRole('link', { name: 'Manage the card' }).getAttribute('href'),
    ).resolves.toBe('/manage/');
    await screenshot(page, 'landing');
    await page.close();
  });

  test('the /go page has its heading and the main-site link in the static HTML', async () => {
    const html = await (await fetch(site.route('go/'))).text();
    expect(html).toMatch(/<h1>Redirecting\.\.<\/h1>/);
    expect(html).toMatch(/still not redirected/);
    expect(html).toContain(`<a id="target" href="${MAIN_URL}">`);
  });

  test("/go without script refreshes to the configured main URL (the spec's fallback)", async () => {
    const html = await (await fetch(site.route('go/'))).text();
    const noscript = [...html.matchAll(/<noscript>([\s\S]*?)<\/noscript>/g)].map((m) => m[1]);
    expect(noscript).toEqual([`<meta http-equiv="refresh" content="2;url=${MAIN_URL}" />`]);
    // In the head, where a refresh counts.
    expect(html.indexOf('<noscript>')).toBeLessThan(html.indexOf('</head>'));
  });

  test('/go is one inline script, under 10 KB gzipped, without React or supabase-js', async () => {
    const html = await readFile(join(site.dir, 'go/index.html'), 'utf8');
    // The build inlines /go's whole script (site/build/inline-go.ts): no script file to fetch.
    expect(html).not.toMatch(/<(?:script|link)[^>]+(?:src|href)="[^"]+\.js"/);
    const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const code = scripts[0]![1]!;
    expect(code).not.toMatch(/\bimport\b|react|GoTrueClient|PostgrestClient|Temporal/i);
    expect(gzipSync(code).length).toBeGreaterThan(0);
    expect(gzipSync(code).length).toBeLessThan(10 * 1024);
  });

  // The budgets of the owner's pages: the gzipped script a page loads before it can first draw
  // (its module scripts and what they import statically; chunks loaded with import() come
  // later). In KB of 1,024 bytes.
  test.each([
    { page: 'manage/index.html', budget: 110 },
    { page: 'login/index.html', budget: 130 },
  ])('$page loads at most $budget KB of gzipped script before it first draws', async (c) => {
    const { scripts, gzipBytes } = await firstDrawScripts(site.dir, c.page);
    expect(scripts.length).toBeGreaterThan(0);
    expect(
      gzipBytes,
      scripts.map((s) => `${s.file} ${s.gzipBytes}`).join(', '),
    ).toBeLessThanOrEqual(c.budget * 1024);
  });

  test('/manage and /login draw without realtime, storage, functions, Temporal or the QR code', async () => {
    // Strings of each part that minifying keeps: the auth client's password sign-in, the REST
    // client's insert preference; realtime's channel join, storage's object listing,
    // functions' region header; Temporal's calendar, the QR encoder's error, the chart's class.
    const drawn = ['grant_type=password', 'return=representation'];
    const notDrawn = ['phx_join', 'object/list', 'x-region'];
    const later = ['iso8601', 'Invalid QR Code version', 'visits-chart'];
    // The site holds the later ones, in chunks loaded after the first draw.
    const { readdir } = await import('node:fs/promises');
    const assets = (await readdir(join(site.dir, 'assets'))).filter((f) => f.endsWith('.js'));
    const all = (
      await Promise.all(assets.map((f) => readFile(join(site.dir, 'assets', f), 'utf8')))
    ).join('\n');
    expect(later.filter((marker) => !all.includes(marker))).toEqual([]);
    for (const page of ['manage/index.html', 'login/index.html']) {
      const { scripts } = await firstDrawScripts(site.dir, page);
      const code = (
        await Promise.all(scripts.map((s) => readFile(join(site.dir, s.file), 'utf8')))
      ).join('\n');
      const found = (markers: string[]) => markers.filter((marker) => code.includes(marker));
      expect(found(drawn), page).toEqual(drawn);
      expect(found([...notDrawn, ...later]), page).toEqual([]);
    }
  });

  test("one React is bundled: the Auth UI runs on the app's React 19, not its own 18", async () => {
    const { readdir } = await import('node:fs/promises');
    const assets = (await readdir(join(site.dir, 'assets'))).filter((f) => f.endsWith('.js'));
    const withReact: string[] = [];
    for (const file of assets) {
      const code = await readFile(join(site.dir, 'assets', file), 'utf8');
      // React 18 keeps its internals under this name; React 19 renamed them.
      expect(code, file).not.toContain('__SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED');
      if (code.includes('__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE')) {
        withReact.push(file);
      }
    }
    expect(withReact).toHaveLength(1);
  });
});

describe('a build for a sub-path (NAMECARD_BASE_PATH)', () => {
  let site: ServedSite;

  beforeAll(async () => {
    site = await buildAndServeSite({
      SUPABASE_URL: await closedPortUrl(),
      NAMECARD_MAIN_URL: MAIN_URL,
      NAMECARD_BASE_PATH: '/card/',
    });
  });
  afterAll(async () => {
    await site?.stop();
  });

  test('every route is served under the sub-path and links stay under it', async () => {
    for (const r of ROUTES) {
      const response = await fetch(site.route(r.path));
      expect(response.status, r.path).toBe(200);
      const html = await response.text();
      expect(titleOf(html)).toBe(r.title);
      for (const [, href] of html.matchAll(/(?:href|src)="(\/[^"]*)"/g)) {
        expect(href, `${r.path}: ${href}`).toMatch(/^\/card\//);
      }
    }
    const landing = await (await fetch(site.route(''))).text();
    expect(landing).toContain('href="/card/go/"');
    expect(landing).toContain('href="/card/login/"');
  });

  test('unknown paths under the sub-path get the not-found page linking to the sub-path', async () => {
    const response = await fetch(site.route('nope'));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('href="/card/"');
  });
});
