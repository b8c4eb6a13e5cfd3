import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import type { RunningServer } from '../../scripts/http-server.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';
import {
  OWNER,
  buildAndServeSite,
  followGo,
  launchBrowser,
  screenshot,
  signIn,
  startCards,
  type ServedSite,
  type Visit,
} from './harness.js';

// The schedule in a real browser on both databases: /go follows the server's clock (entries
// that start later, a visitor whose own clock is off by hours), with exactly one request and
// no preflight; the manage page shows the state, the next change, what follows, End now and
// the history, at desktop and phone widths.

const HOUR = 3_600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DB_KINDS)('the schedule in the browser, on %s', (kind) => {
  let emulator: RunningEmulator;
  let cards: RunningServer & { visits: Visit[] };
  let site: ServedSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** What the emulator served, one line per request: `METHOD /path status ms`. */
  const served: string[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator(kind, { owner: OWNER, log: (line) => served.push(line) });
    cards = await startCards();
    site = await buildAndServeSite({
      SUPABASE_URL: emulator.url,
      SUPABASE_ANON_KEY: emulator.anonKey,
      NAMECARD_MAIN_URL: cards.url,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.stop();
    await cards?.stop();
    await emulator?.stop();
  });
  beforeEach(async () => {
    await emulator.query('delete from public.namecard');
    context = await browser.newContext({ timezoneId: 'UTC' });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  /** Inserts an entry starting and ending `startIn`/`endIn` ms from the database's clock. */
  const schedule = (type: string, startIn: number | null, endIn: number) =>
    emulator.query(
      `insert into public.namecard (type, stamp_start, stamp_end)
       values ($1,
               case when $2::bigint is null then null
                    else (extract(epoch from clock_timestamp()) * 1000)::bigint + $2::bigint end,
               (extract(epoch from clock_timestamp()) * 1000)::bigint + $3::bigint)`,
      [type, startIn, endIn],
    );
  const visit = async () => (await followGo(page, site, cards)).landing.path;

  test('an anonymous visit makes exactly one API request and no preflight', async () => {
    await schedule('photo', null, HOUR);
    served.length = 0;
    const result = await followGo(page, site, cards);
    expect(result.landing.path).toBe('/photo');
    expect(result.lookups).toHaveLength(1);
    const url = new URL(result.lookups[0]!.url());
    expect(url.pathname).toBe('/rest/v1/namecard_active');
    expect(url.searchParams.get('apikey')).toBe(emulator.anonKey);
    const headers = await result.lookups[0]!.allHeaders();
    expect(headers.authorization).toBeUndefined();
    expect(headers.apikey).toBeUndefined();
    expect(
      served.filter((line) => line.includes('/rest/v1/') || line.includes('/auth/v1/')),
    ).toEqual([expect.stringMatching(/^GET \/rest\/v1\/namecard_active 200 /)]);
  });

  test('an entry starting tomorrow does not change /go today', async () => {
    await schedule('photo', 24 * HOUR, 25 * HOUR);
    expect(await visit()).toBe('/');
  });

  test('/go switches to an entry at its start and back at its end', async () => {
    await schedule('photo', 3000, 7000);
    expect(await visit()).toBe('/');
    await sleep(3000);
    expect(await visit()).toBe('/photo');
    await sleep(4500);
    expect(await visit()).toBe('/');
  });

  test.each([
    ['3 hours ahead', 3 * HOUR],
    ['3 hours behind', -3 * HOUR],
  ])("a visitor whose clock is %s lands where the server's clock says", async (_name, skew) => {
    // Active on the server for the next two hours only: a clock 3 h off would get it wrong.
    await schedule('photo', null, 2 * HOUR);
    await page.clock.setSystemTime(Date.now() + skew);
    expect(await visit()).toBe('/photo');
    // The page really ran on the skewed clock.
    const pageNow = Number(await page.evaluate('Date.now()'));
    expect(Math.abs(pageNow - (Date.now() + skew))).toBeLessThan(60_000);
    await emulator.query('delete from public.namecard');
    await schedule('photo', 2 * HOUR, 4 * HOUR);
    expect(await visit()).toBe('/');
  });

  test('with a stored owner session /go still lands right', async () => {
    await schedule('photo', null, HOUR);
    await signIn(page, site, OWNER);
    // Leave /manage first, so that its lazily loaded chunks are not counted as /go's loads.
    await page.goto('about:blank');
    expect(await visit()).toBe('/photo');
  });

  test('the manage page shows state, next change, what follows, End now and history', async () => {
    const year = new Date().getUTCFullYear() + 1;
    await signIn(page, site, OWNER);
    const current = page.getByTestId('current-card');
    await current.getByText('No active entry').waitFor();
    await expect(page.getByRole('button', { name: 'End now' }).count()).resolves.toBe(0);

    // Photographer now, until next year.
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByLabel('Date', { exact: true }).fill(`${year}-06-01`);
    await page.getByLabel('Time', { exact: true }).fill('18:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    const status = page.getByRole('status');
    await status.getByText('Card set!').waitFor();
    await expect(status.innerText()).resolves.toBe(
      `Card set! Photographer until ${year}-06-01 18:00 UTC. Visitors now get Photographer until ${year}-06-01 18:00 UTC. Then the main site.`,
    );

    // A fair later that day, with a start: the next change, and the photo entry after it.
    await page.getByLabel('Profile').selectOption({ label: 'Main Profile' });
    await page.getByLabel('Date', { exact: true }).fill(`${year}-05-01`);
    await page.getByLabel('Time', { exact: true }).fill('18:00');
    await page.getByLabel('Start day').fill(`${year}-05-01`);
    await page.getByLabel('Start hour').fill('09:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await status.getByText(`Main Profile from ${year}-05-01 09:00`).waitFor();
    await current.getByText(`Next: the main site from ${year}-05-01 09:00`).waitFor();
    await expect(current.innerText()).resolves.toContain(
      `Then the main site from ${year}-05-01 09:00 UTC until ${year}-05-01 18:00`,
    );
    await expect(current.innerText()).resolves.toContain(
      `Then Photographer again until ${year}-06-01 18:00`,
    );
    const history = page.getByRole('region', { name: 'History' });
    await expect(history.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      `Main Profile from ${year}-05-01 09:00 UTC until ${year}-05-01 18:00 UTC scheduled (from ${year}-05-01 09:00 UTC)`,
      `Photographer until ${year}-06-01 18:00 UTC active`,
    ]);
    await screenshot(page, `manage-schedule-${kind}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `manage-schedule-phone-${kind}`);
    await page.setViewportSize({ width: 1280, height: 800 });

    // End now: visitors get the main site, and nothing is shown as current any longer.
    await page.getByRole('button', { name: 'End now' }).click();
    await current.getByText(`Visitors now get Main Profile until ${year}-06-01 18:00`).waitFor();
    await expect(page.getByRole('button', { name: 'End now' }).count()).resolves.toBe(0);
    const rows = await emulator.query<{ type: string; stamp_end: string }>(
      'select type, stamp_end from public.namecard order by id',
    );
    expect(rows.map((row) => row.type)).toEqual(['photo', 'main', 'main']);
    expect(rows[2]?.stamp_end).toEqual(rows[0]?.stamp_end);
    expect(await visit()).toBe('/');
  });

  test('the manage page never shows an ended entry as current: it reads again when it ends', async () => {
    await schedule('photo', null, 4000);
    await signIn(page, site, OWNER);
    const current = page.getByTestId('current-card');
    await current.getByText('Visitors now get Photographer').waitFor();
    // No reload: the page reads the state again at the entry's end.
    await current
      .getByText('No active entry: visitors get Main Profile.')
      .waitFor({ timeout: 10_000 });
    await expect(page.getByRole('button', { name: 'End now' }).count()).resolves.toBe(0);
    // And when the tab becomes visible again, it reads at once.
    await schedule('photo', null, HOUR);
    await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
    await current.getByText('Visitors now get Photographer').waitFor({ timeout: 5000 });
  });

  test('the manage page refuses a past end or a start after the end, and stores nothing', async () => {
    await signIn(page, site, OWNER);
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByLabel('Date', { exact: true }).fill('2020-01-01');
    await page.getByLabel('Time', { exact: true }).fill('10:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    const status = page.getByRole('status');
    await status.getByText('The card was not set').waitFor();
    await expect(status.innerText()).resolves.toBe(
      'The card was not set: Date and Time must be in the future, got "2020-01-01 10:00" in UTC',
    );
    const year = new Date().getUTCFullYear() + 1;
    await page.getByLabel('Date', { exact: true }).fill(`${year}-01-01`);
    await page.getByLabel('Start day').fill(`${year}-01-02`);
    await page.getByLabel('Start hour').fill('10:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await status.getByText('Start must be before the end').waitFor();
    // Plain words on the web: no markdown backticks.
    await expect(status.innerText()).resolves.not.toContain('`');
    expect(await emulator.query('select id from public.namecard')).toEqual([]);
  });
});
