import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildAndServeSite, closedPortUrl, launchBrowser, type ServedSite } from './harness.js';

// axe-core on every page a visitor or the owner sees, at a desktop and a phone width: no
// violation of any rule axe runs by default (WCAG 2.x A and AA and its best practices).
// @axe-core/playwright needs Node 22.12, so axe-core's own source is put into the page through
// DevTools (page.evaluate), which the site's CSP does not restrict, where a <script> tag would
// be refused.

/** Where visitors are sent; never reached: the test holds every request to it. */
const MAIN_URL = 'https://card.example/me/';

/** One page to check: where it is, and what shows that it has rendered. */
interface PageCase {
  name: string;
  /** Path under the site's base path. */
  path: string;
  /** Resolves once the page shows what a user would check. */
  ready(page: Page): Promise<void>;
  /** What must happen first (e.g. signing in), in the same browser context. */
  before?(page: Page, site: ServedSite): Promise<void>;
}

const PAGES: PageCase[] = [
  {
    name: 'home',
    path: '',
    ready: (page) => page.getByRole('link', { name: 'Owner login' }).waitFor(),
  },
  {
    name: 'login',
    path: 'login/',
    // The Auth UI's button fades to its colour when it appears: wait for the end of that.
    ready: async (page) => {
      const button = page.getByRole('button', { name: 'Sign in' });
      await button.waitFor();
      await expect
        .poll(() => button.evaluate((el) => el.getAnimations().length), { timeout: 5000 })
        .toBe(0);
    },
  },
  {
    name: 'go',
    path: 'go/',
    ready: (page) => page.getByRole('link', { name: 'click this link' }).waitFor(),
  },
  {
    name: 'not found',
    path: 'no/such/page',
    ready: (page) => page.getByRole('link', { name: 'Go to the home page' }).waitFor(),
  },
];

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 320, height: 640 },
];

let axeSource: string;
let browser: Browser;
let site: ServedSite;

beforeAll(async () => {
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
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

/** Runs axe-core on the page as it is now; returns its violations, one line each. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results = (await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run(),
  )) as AxeResults;
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'no impact'}): ${v.help}, at ${v.nodes
        .map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`)
        .join('; ')}`,
  );
}

describe.each(WIDTHS)('axe-core at $width px', (viewport) => {
  test.each(PAGES)('$name has no violations', async (pageCase) => {
    const context: BrowserContext = await browser.newContext({ viewport });
    try {
      const page = await context.newPage();
      // /go sends the visitor on after its lookup: held, so that the page stays to be checked.
      await page.route(`${MAIN_URL}**`, () => {});
      await pageCase.before?.(page, site);
      await page.goto(site.route(pageCase.path));
      await pageCase.ready(page);
      expect(await violations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
