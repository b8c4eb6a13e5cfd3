import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { startTestEmulator } from '../support/emulator.js';
import { cardRowId } from '../support/entries.js';
import { buildAndServeSite, launchBrowser, signIn, type ServedSite } from './harness.js';
import { OWNER } from '../support/accounts.js';

// axe-core on every page a visitor or the owner sees, at a desktop and two phone widths: no
// violation of any rule axe runs by default (WCAG 2.x A and AA and its best practices).
// @axe-core/playwright needs Node 22.12, so axe-core's own source is put into the page through
// DevTools (page.evaluate), which the site's CSP does not restrict, where a <script> tag would
// be refused. /manage is checked signed in as the owner, with a schedule (an entry on now, a
// scheduled one, a past one and a weekly series), its optional start, its history and its
// "Repeat weekly" opened.

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
    name: 'manage',
    path: 'manage/',
    before: (page, site) => signIn(page, site, OWNER),
    ready: async (page) => {
      await page.getByRole('button', { name: 'End now' }).waitFor();
      // All three entries are shown: two that still count, one in the history.
      await expect
        .poll(() => page.getByRole('button', { name: /^Cancel entry/ }).count(), { timeout: 5000 })
        .toBe(2);
      await page.getByRole('img', { name: /^QR code of / }).waitFor();
      // What the owner can open is checked open too.
      await page.locator('details.optional summary').click();
      await page.getByLabel('Start day').waitFor();
      await page.locator('details.history summary').click();
      await page.getByRole('list', { name: 'History' }).getByRole('listitem').first().waitFor();
    },
  },
  {
    name: 'manage, Repeat weekly open',
    path: 'manage/',
    before: (page, site) => signIn(page, site, OWNER),
    ready: async (page) => {
      // A weekly series is listed (with its Cancel and the .ics link), and the form's weekly part
      // is open with a day chosen.
      await page.getByTestId('series-line').waitFor();
      await page.getByRole('link', { name: 'Download calendar (.ics)' }).waitFor();
      await page.getByText('Repeat weekly').click();
      await page.getByRole('checkbox', { name: 'Saturday' }).check();
    },
  },
  {
    name: 'manage, End now asked',
    path: 'manage/',
    before: (page, site) => signIn(page, site, OWNER),
    ready: async (page) => {
      await page.getByRole('button', { name: 'End now' }).click();
      await page.getByRole('dialog', { name: 'End now?' }).getByTestId('confirm-instead').waitFor();
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
  { width: 375, height: 812 },
  { width: 320, height: 640 },
];

const HOUR = 3_600_000;

let axeSource: string;
let emulator: RunningEmulator;
let browser: Browser;
let site: ServedSite;

beforeAll(async () => {
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  emulator = await startTestEmulator('pglite', { owner: OWNER });
  // The schedule /manage shows, relative to the database's clock (epoch ms): photo on now for
  // an hour, main scheduled tomorrow, and photo that ended an hour ago (the history).
  const main = await cardRowId(emulator);
  await emulator.query(
    `with now as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as at)
     insert into public.namecard (card_id, type, stamp_start, stamp_end)
     select $2::bigint, 'photo', at - 2 * $1::bigint, at - $1::bigint from now
     union all select $2::bigint, 'photo', null, at + $1::bigint from now
     union all select $2::bigint, 'main', at + 24 * $1::bigint, at + 26 * $1::bigint from now`,
    [HOUR, main],
  );
  await emulator.query(
    `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
     values ($1, 'photo', '{6}', '10:00', '18:00', 'UTC')`,
    [main],
  );
  site = await buildAndServeSite({
    SUPABASE_URL: emulator.url,
    SUPABASE_ANON_KEY: emulator.anonKey,
    NAMECARD_MAIN_URL: MAIN_URL,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await emulator?.stop();
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
