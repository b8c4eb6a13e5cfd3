import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatWhen } from '../../shared/core/format.js';
import { dbNow } from '../support/emulator.js';
import { useE2eFixture } from './fixture.js';
import { screenshot, signIn } from './harness.js';
import { OWNER } from '../support/accounts.js';
import { insertEntry } from '../support/entries.js';

// The owner's everyday paths on /login and /manage, in Chromium at a phone's and a desktop's
// width: End now and Cancel ask first, naming what visitors will get instead; the set form
// applies only what it shows; a server that does not answer is named in the owner's words;
// the QR code is big enough to scan on a phone; the timeline picture is to scale; and /manage
// stands in two columns on a wide screen.

const HOUR = 3_600_000;
const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];
/** A stamp as the page shows it (the context's zone is UTC, named once at the top). */
const when = (at: number, now: number) => formatWhen(at, now, 'UTC');

/** An element's box; fails when it has none (not rendered). */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`no box for ${locator.toString()}`);
  return found;
}

describe.each(WIDTHS)('/manage at $width px', (viewport) => {
  const e2e = useE2eFixture({
    context: { timezoneId: 'UTC', locale: 'en-US', viewport },
    clearRows: true,
  });

  /** Inserts an entry with exact stamps (epoch ms) and answers its id. */
  const insert = (type: string, start: number | null, end: number) =>
    insertEntry(e2e.emulator, type, start, end);
  const stored = async () =>
    (
      await e2e.emulator.query<{
        id: string;
        stamp_start: string | null;
        stop_kind: string | null;
      }>('select id, stamp_start, stop_kind from public.namecard order by id')
    ).map((row) => ({
      id: Number(row.id),
      start: row.stamp_start === null ? null : Number(row.stamp_start),
      stop_kind: row.stop_kind,
    }));

  test('End now asks first, naming what visitors will get instead; No and Escape change nothing', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    const running = await insert('photo', null, now + 5 * HOUR);
    const later = await insert('photo', now + 2 * HOUR, now + 3 * HOUR);
    await signIn(page, site, OWNER);
    const endNow = page.getByRole('button', { name: 'End now' });
    await endNow.click();
    const dialog = page.getByRole('dialog', { name: 'End now?' });
    await dialog.waitFor();
    // What stops, and what visitors get instead: the main site until the later entry starts.
    await expect(dialog.innerText()).resolves.toContain(
      `#${running} Photographer until ${when(now + 5 * HOUR, now)} will stop now, for good.`,
    );
    await expect(dialog.getByTestId('confirm-instead').innerText()).resolves.toMatch(
      new RegExp(
        `^Visitors will get the main site until ${when(now + 2 * HOUR, now)} \\(in (1 h 59 min|2 h)\\) instead\\. Then Photographer from ${when(now + 2 * HOUR, now)} until ${when(now + 3 * HOUR, now)}\\.$`,
      ),
    );
    // The dialog fits the screen, and its buttons are in it.
    for (const name of ['No, keep it', 'Yes, end it']) {
      const button = await box(dialog.getByRole('button', { name }));
      expect(button.x).toBeGreaterThanOrEqual(0);
      expect(button.x + button.width).toBeLessThanOrEqual(viewport.width);
    }
    await screenshot(page, `manage-end-now-asked-${viewport.width}`);
    await dialog.getByRole('button', { name: 'No, keep it' }).click();
    await expect(dialog.count()).resolves.toBe(0);
    // Escape closes it the same way.
    await endNow.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
    expect((await stored()).map((row) => row.stop_kind)).toEqual([null, null]);
    // Yes ends it.
    await endNow.click();
    await dialog.getByRole('button', { name: 'Yes, end it' }).click();
    await page
      .getByTestId('change-outcome')
      .getByText(`Ended now (#${running} stopped).`)
      .waitFor();
    expect(await stored()).toEqual([
      { id: running, start: null, stop_kind: 'ended' },
      { id: later, start: now + 2 * HOUR, stop_kind: null },
    ]);
  });

  test('Cancel asks first, naming what visitors will get instead', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    const running = await insert('photo', null, now + 4 * HOUR);
    const pause = await insert('main', now + HOUR, now + 2 * HOUR);
    await signIn(page, site, OWNER);
    const cancel = page.getByRole('button', { name: `Cancel entry #${pause}` });
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: `Cancel #${pause}?` });
    await expect(dialog.innerText()).resolves.toContain(
      `#${pause} Main Profile from ${when(now + HOUR, now)} until ${when(now + 2 * HOUR, now)} will be cancelled for good.`,
    );
    await expect(dialog.getByTestId('confirm-instead').innerText()).resolves.toMatch(
      new RegExp(
        `^Visitors still get Photographer until ${when(now + 4 * HOUR, now)} \\(in (3 h 59 min|4 h)\\)\\. Then the main site from ${when(now + 4 * HOUR, now)}\\.$`,
      ),
    );
    await dialog.getByRole('button', { name: 'No, keep it' }).click();
    expect((await stored()).map((row) => row.stop_kind)).toEqual([null, null]);
    await cancel.click();
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page
      .getByTestId('change-outcome')
      .getByText(`Cancelled #${pause} Main Profile`)
      .waitFor();
    expect((await stored()).map((row) => [row.id, row.stop_kind])).toEqual([
      [running, null],
      [pause, 'cancelled'],
    ]);
  });

  test('the set form applies only what it shows: a closed "Start later" applies nothing, a set clears it', async () => {
    const { page, site } = e2e;
    const year = new Date().getUTCFullYear() + 1;
    await signIn(page, site, OWNER);
    const later = page.locator('details.optional');
    const status = page.getByRole('status').filter({ hasText: 'Card set!' });
    // A set with a start: afterwards "Start later" is closed and empty.
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByLabel('Date', { exact: true }).fill(`${year}-05-01`);
    await page.getByLabel('Time', { exact: true }).fill('18:00');
    await later.locator('summary').click();
    await page.getByLabel('Start day').fill(`${year}-05-01`);
    await page.getByLabel('Start hour').fill('09:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await status.waitFor();
    await expect(later.getAttribute('open')).resolves.toBeNull();
    await later.locator('summary').click();
    await expect(page.getByLabel('Start day').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Start hour').inputValue()).resolves.toBe('');
    // A start typed and then closed away is not applied: main for 1 h starts now.
    await page.getByLabel('Start day').fill(`${year}-07-01`);
    await page.getByLabel('Start hour').fill('09:00');
    await later.locator('summary').click();
    await expect(later.getAttribute('open')).resolves.toBeNull();
    await page.getByLabel('Profile').selectOption({ label: 'Main Profile' });
    await page.getByRole('button', { name: 'for 1 h' }).click();
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await page
      .getByRole('status')
      .getByText(/^Card set! #\d+ Main Profile until /)
      .waitFor();
    const rows = await stored();
    expect(rows).toHaveLength(2);
    expect(rows[0]!.start).toBe(Date.UTC(year, 4, 1, 9));
    expect(rows[1]!.start).toBeNull();
  });

  test('the QR code is at least 200 px wide, its downloads on the screen and reachable', async () => {
    const { page, site } = e2e;
    await signIn(page, site, OWNER);
    const image = page.getByRole('img', { name: /^QR code of / });
    await image.scrollIntoViewIfNeeded();
    const code = await box(image);
    expect(code.width).toBeGreaterThanOrEqual(200);
    expect(code.x + code.width).toBeLessThanOrEqual(viewport.width);
    for (const name of ['Download SVG', 'Download PNG']) {
      const link = page.getByRole('link', { name });
      await link.scrollIntoViewIfNeeded();
      const shown = await box(link);
      expect(shown.x).toBeGreaterThanOrEqual(0);
      expect(shown.x + shown.width).toBeLessThanOrEqual(viewport.width);
      // Reachable: the link itself answers a click at its centre (nothing covers it). Sections
      // below it load after the first draw and may move it while it is measured, so it is
      // scrolled to and measured again until the page has settled.
      await expect
        .poll(
          async () => {
            await link.scrollIntoViewIfNeeded();
            const at = await box(link);
            return page.evaluate<string>(
              `document.elementFromPoint(${at.x + at.width / 2}, ${at.y + at.height / 2})?.textContent ?? ''`,
            );
          },
          { timeout: 10_000 },
        )
        .toBe(name);
    }
  });

  test('the timeline picture is to scale, labelled at both ends, and cuts no label; no visits is said in a sentence', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    // Photographer for 1 h, the main site for 2 h, Photographer for 1 h: shares 1/4, 1/2, 1/4.
    await insert('photo', null, now + HOUR);
    await insert('photo', now + 3 * HOUR, now + 4 * HOUR);
    await signIn(page, site, OWNER);
    const window = page.getByTestId('timeline-window');
    await window.waitFor();
    const bar = await box(window);
    const segments = window.locator('.timeline-segment');
    await expect(segments.count()).resolves.toBe(3);
    const widths = await Promise.all(
      [0, 1, 2].map(async (i) => (await box(segments.nth(i))).width),
    );
    // The bar's left edge is its "now" mark (3 px); the rest is shared by duration.
    const inner = widths.reduce((a, b) => a + b, 0);
    expect(inner).toBeGreaterThan(bar.width - 5);
    [0.25, 0.5, 0.25].forEach((share, i) => {
      expect(Math.abs(widths[i]! - share * inner), `segment ${i}`).toBeLessThanOrEqual(3);
    });
    // The window labelled at both ends: now, and the last change.
    await expect(page.locator('.timeline-axis span').allInnerTexts()).resolves.toEqual([
      'now',
      when(now + 4 * HOUR, now),
    ]);
    // No text in the picture is cut (wider than its box).
    const cut = await page.evaluate<string[]>(`[...document.querySelectorAll('.timeline *')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && el.textContent.trim())
      .map((el) => el.className + ': ' + el.textContent)`);
    expect(cut).toEqual([]);
    // No visits yet: a sentence, no chart of zeros.
    const visits = page.getByTestId('visits');
    await visits.getByTestId('visits-none').waitFor();
    await expect(visits.getByTestId('visits-none').innerText()).resolves.toMatch(
      /^No visits yet in the last 30 days \(\d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, UTC\)\./,
    );
    await expect(visits.getByTestId('visits-chart').count()).resolves.toBe(0);
  });
});

describe('/manage uses the width it has', () => {
  const e2e = useE2eFixture({ context: { timezoneId: 'UTC', locale: 'en-US' }, clearRows: true });
  let shots: string;
  beforeAll(async () => {
    // Screenshots to look at, in a temporary folder (never in the repository).
    shots = await mkdtemp(join(tmpdir(), 'namecard-manage-layout-'));
    console.log(`/manage screenshots: ${shots}`);
  });

  /** The boxes of the page's parts, in the page's order. */
  const parts = async (page: Page) => ({
    card: await box(page.getByTestId('your-card')),
    now: await box(page.getByTestId('current-card')),
    form: await box(page.getByTestId('your-card').locator('form.card-form')),
    profiles: await box(page.locator('section.profiles')),
    visits: await box(page.getByTestId('visits')),
    link: await box(page.locator('section.card-link')),
  });

  test('two columns above 900 px (timeline beside the form), one below in the page order', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    await insertEntry(emulator, 'photo', null, now + 2 * HOUR);
    await insertEntry(emulator, 'main', now + 26 * HOUR, now + 28 * HOUR);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, site, OWNER);
    await page.getByRole('img', { name: /^QR code of / }).waitFor();
    await page.getByTestId('visits').getByRole('heading', { name: 'Visits' }).waitFor();
    for (const width of [375, 768, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(shots, `manage-${width}.png`), fullPage: true });
      const at = await parts(page);
      if (width >= 900) {
        // Side by side: the form starts right of the timeline, and their tops are level.
        expect(at.form.x).toBeGreaterThanOrEqual(at.now.x + at.now.width);
        expect(Math.abs(at.form.y - at.now.y)).toBeLessThan(40);
        // The page is wider than the old 26rem (416 px) column.
        expect(at.card.width).toBeGreaterThan(800);
        // Visits and the card link below the card, beside each other.
        expect(at.visits.y).toBeGreaterThanOrEqual(at.card.y + at.card.height);
        expect(at.link.y).toBeGreaterThanOrEqual(at.card.y + at.card.height);
        expect(at.link.x).toBeGreaterThanOrEqual(at.visits.x + at.visits.width);
        expect(Math.abs(at.link.y - at.visits.y)).toBeLessThan(2);
      } else {
        // One column: the timeline, then the form, then profiles, visits and the link.
        expect(at.form.y).toBeGreaterThanOrEqual(at.now.y + at.now.height);
        const tops = [at.card, at.profiles, at.visits, at.link].map((b) => b.y);
        expect(tops).toEqual([...tops].sort((a, b) => a - b));
        expect(at.visits.x).toBeCloseTo(at.link.x, 0);
      }
    }
  });
});

describe('a server that does not answer is named in the owner words', () => {
  describe('sign-in with the API down', () => {
    const e2e = useE2eFixture({ api: 'down', cards: false });

    test.each(WIDTHS)(
      'at $width px: "Cannot reach the server at …; try again"',
      async (viewport) => {
        const { page, site, apiUrl } = e2e;
        await page.setViewportSize(viewport);
        await page.goto(site.route('login/'));
        await page.getByLabel('Email address').fill(OWNER.email);
        await page.getByLabel('Your Password').fill(OWNER.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText(`Cannot reach the server at ${apiUrl}; try again.`).waitFor();
        await expect(page.getByText('Failed to fetch').count()).resolves.toBe(0);
        expect(new URL(page.url()).pathname).toBe('/login/');
      },
    );
  });

  describe('every call on /manage with the API gone', () => {
    const e2e = useE2eFixture({ context: { timezoneId: 'UTC' }, clearRows: true });
    const words = () => `Cannot reach the server at ${e2e.apiUrl.replace(/\/$/, '')}; try again.`;
    /** From now on, every request to the API fails as when the server is down. */
    const apiDown = (page: Page) =>
      page.route(`${e2e.apiUrl.replace(/\/$/, '')}/**`, (route) =>
        route.abort('connectionrefused'),
      );

    test.each(WIDTHS)('at $width px: set, End now, Cancel and loading say so', async (viewport) => {
      const { emulator, page, site } = e2e;
      await page.setViewportSize(viewport);
      const now = await dbNow(emulator);
      await insertEntry(emulator, 'photo', null, now + HOUR);
      await signIn(page, site, OWNER);
      await page.getByRole('button', { name: 'End now' }).waitFor();
      await apiDown(page);

      await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
      await page.getByRole('button', { name: 'for 2 h' }).click();
      await page.getByRole('button', { name: 'Set the card!' }).click();
      await page.getByRole('status').getByText(`The card was not set: ${words()}`).waitFor();

      await page.getByRole('button', { name: 'End now' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes, end it' }).click();
      await page.getByRole('alert').getByText(`Could not end it: ${words()}`).waitFor();
      // It reads the card again after a failed change, which fails the same way.
      await page.getByText(`Could not read the current card: ${words()}`).waitFor();

      // Back up for a fresh page, then gone again before Cancel.
      await page.unrouteAll();
      await page.reload();
      await page.getByRole('button', { name: /^Cancel entry/ }).waitFor();
      await apiDown(page);

      await page.getByRole('button', { name: /^Cancel entry/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel it' }).click();
      await page.getByRole('alert').getByText(new RegExp(`^Could not cancel #\\d+: `)).waitFor();
      await expect(
        page.getByRole('alert').filter({ hasText: 'Could not cancel' }).innerText(),
      ).resolves.toContain(words());

      // Loading /manage again with the server gone: the account check says so too.
      await page.reload();
      await page.getByText(`Could not check this account: ${words()}`).waitFor();
      await expect(page.getByText('Failed to fetch').count()).resolves.toBe(0);
    });
  });
});
