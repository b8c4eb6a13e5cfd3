import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { formatWhen } from '../../shared/core/format.js';
import { dbNow } from '../support/emulator.js';
import { cardRowId, insertEntry } from '../support/entries.js';
import { useE2eFixture } from './fixture.js';
import { OWNER } from '../support/accounts.js';
import { screenshot, signIn } from './harness.js';

// /manage with a weekly series, in Chromium at a phone's and a desktop's width:
// End now's and Cancel's questions say what the page shows once the change is made (the
// series' next occurrence included); the list under the timeline says a series in one line
// while the picture keeps drawing its occurrences, so the set form stays near the top; the
// legend names each profile as the list does, with swatches that do not look like checkboxes;
// the profile menu's first option reads as a prompt.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];
/** A stamp as the page shows it (the context's zone is UTC, named once at the top). */
const when = (at: number, now: number) => formatWhen(at, now, 'UTC');

/** The next occurrence of a series on the UTC weekday two days from `now`, 10:00–18:00 UTC. */
function occurrenceOf(now: number) {
  const day = new Date(now + 2 * DAY);
  const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 10);
  // ISO weekday: Monday 1 … Sunday 7.
  return { weekday: ((day.getUTCDay() + 6) % 7) + 1, start, end: start + 8 * HOUR };
}

/** An element's box; fails when it has none (not rendered). */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`no box for ${locator.toString()}`);
  return found;
}

/** The now line's text, once the page shows the card. */
const nowLine = (page: Page) => page.getByTestId('now-line').innerText();

describe.each(WIDTHS)('/manage with a weekly series at $width px', (viewport) => {
  const e2e = useE2eFixture({
    context: { timezoneId: 'UTC', locale: 'en-US', viewport },
    clearRows: true,
  });
  beforeEach(async () => {
    await e2e.emulator.query('delete from public.namecard_series_stop');
    await e2e.emulator.query('delete from public.namecard_series');
  });

  const insert = (type: string, start: number | null, end: number) =>
    insertEntry(e2e.emulator, type, start, end);
  /** A weekly photo series, 10:00–18:00 UTC on one weekday; answers its id. */
  const insertSeries = async (weekday: number) =>
    Number(
      (
        await e2e.emulator.query<{ id: string }>(
          `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
           values ($2, 'photo', $1::smallint[], '10:00', '18:00', 'UTC') returning id`,
          [`{${weekday}}`, await cardRowId(e2e.emulator)],
        )
      )[0]!.id,
    );

  test('End now asks what the page then shows: the main site until the series takes over', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    const occurrence = occurrenceOf(now);
    await insertSeries(occurrence.weekday);
    const later = now + 5 * DAY;
    await insert('photo', later, later + 8 * HOUR);
    const running = await insert('photo', null, now + HOUR);
    await signIn(page, site, OWNER);
    await page.getByRole('button', { name: 'End now' }).click();
    const dialog = page.getByRole('dialog', { name: 'End now?' });
    const promise = new RegExp(
      `^Visitors will get the main site until ${when(occurrence.start, now)} \\(in [^)]+\\) instead\\. Then Photographer from ${when(occurrence.start, now)} until ${when(occurrence.end, now)}\\.$`,
    );
    await expect(dialog.getByTestId('confirm-instead').innerText()).resolves.toMatch(promise);
    await screenshot(page, `manage-series-end-now-${viewport.width}`);
    await dialog.getByRole('button', { name: 'Yes, end it' }).click();
    await page
      .getByTestId('change-outcome')
      .getByText(`Ended now (#${running} stopped).`)
      .waitFor();
    // The page after the change says what the question said.
    await expect(nowLine(page)).resolves.toMatch(
      new RegExp(`^Now visitors get the main site until ${when(occurrence.start, now)} \\(`),
    );
  });

  test('Cancel asks what the page then shows, with the series around the entry', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    const occurrence = occurrenceOf(now);
    await insertSeries(occurrence.weekday);
    const later = now + 5 * DAY;
    const scheduled = await insert('photo', later, later + 8 * HOUR);
    await signIn(page, site, OWNER);
    await page.getByRole('button', { name: `Cancel entry #${scheduled}` }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel #${scheduled}?` });
    await expect(dialog.getByTestId('confirm-instead').innerText()).resolves.toMatch(
      new RegExp(
        `^Visitors still get the main site until ${when(occurrence.start, now)} \\(in [^)]+\\)\\. Then Photographer from ${when(occurrence.start, now)} until ${when(occurrence.end, now)}\\.$`,
      ),
    );
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByTestId('change-outcome').getByText(`Cancelled #${scheduled}`).waitFor();
    await expect(nowLine(page)).resolves.toMatch(
      new RegExp(`^Now visitors get the main site until ${when(occurrence.start, now)} \\(`),
    );

    // An entry in force that covers the occurrence: cancelled, the series takes over on its day.
    const covering = await insert('photo', null, now + 4 * DAY);
    await page.reload();
    await page.getByRole('button', { name: `Cancel entry #${covering}` }).click();
    const ask = page.getByRole('dialog', { name: `Cancel #${covering}?` });
    await expect(ask.getByTestId('confirm-instead').innerText()).resolves.toMatch(
      new RegExp(
        `^Visitors will get the main site until ${when(occurrence.start, now)} \\(in [^)]+\\) instead\\. Then Photographer from ${when(occurrence.start, now)} until ${when(occurrence.end, now)}\\.$`,
      ),
    );
  });

  test('a weekly series is one line under the timeline; the picture keeps its occurrences', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    const occurrence = occurrenceOf(now);
    await insert('photo', null, now + HOUR);
    await signIn(page, site, OWNER);
    const form = page.getByLabel('Profile');
    const card = page.getByTestId('current-card');
    await page.getByTestId('now-line').waitFor();
    const without = { form: (await box(form)).y, card: (await box(card)).height };

    await insertSeries(occurrence.weekday);
    await page.reload();
    // The picture draws every occurrence the server's timeline has (weeks of them).
    await page.locator('.timeline-segment.profile-photo').nth(5).waitFor();
    await screenshot(page, `manage-series-timeline-${viewport.width}`);
    // One series adds a line or two, not a page: the set form (below the timeline on a phone)
    // moves little, and so does the height of the timeline's box.
    const withSeries = { form: (await box(form)).y, card: (await box(card)).height };
    expect(withSeries.card - without.card).toBeLessThan(120);
    if (viewport.width < 900) expect(withSeries.form - without.form).toBeLessThan(120);
    const lines = await page
      .getByRole('list', { name: 'What follows' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(lines).toEqual([
      `Then the main site from ${when(now + HOUR, now)} until ${when(occurrence.start, now)}`,
      `Photographer every ${new Date(occurrence.start).toUTCString().slice(0, 3)} 10:00–18:00, next ${when(occurrence.start, now)}`,
      'And more changes after that',
    ]);
  });

  test('an entry that ends past the window of occurrences the page reads keeps its own end', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    // The page reads occurrences 400 days ahead at most; with no series, nothing it does not
    // know lies past that, so the picture ends where the entry does, not where the window does.
    const end = now + 401 * DAY;
    await insert('photo', null, end);
    await signIn(page, site, OWNER);
    const picture = page.getByRole('img', { name: /^Visitors get, from now: / });
    await picture.waitFor();
    await expect(picture.getAttribute('aria-label')).resolves.toBe(
      `Visitors get, from now: Photographer until ${when(end, now)}, then the main site from then on.`,
    );
  });

  test('the legend names each profile as the list does; its swatches are bars, not boxes', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    await emulator.query(
      `insert into public.namecard_profile (card_id, name, label, url)
       values ($2, 'shop', 'Summer Sale', $1)
       on conflict (card_id, name) do update set label = excluded.label, removed_at = null`,
      [`${e2e.cards.url}shop`, await cardRowId(emulator)],
    );
    await insert('shop', null, now + HOUR);
    await insert('photo', now + 2 * HOUR, now + 3 * HOUR);
    await signIn(page, site, OWNER);
    const legend = page.locator('.timeline-legend li');
    await legend.first().waitFor();
    await expect(legend.allInnerTexts()).resolves.toEqual([
      'Summer Sale',
      'the main site',
      'Photographer',
    ]);
    const lines = await page
      .getByRole('list', { name: 'What follows' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(lines[0]).toBe(
      `Then the main site from ${when(now + HOUR, now)} until ${when(now + 2 * HOUR, now)}`,
    );
    expect(lines[1]).toMatch(new RegExp(`^Then Photographer from ${when(now + 2 * HOUR, now)} `));
    // Each swatch is a bar at least twice as wide as it is high, with round ends: a small
    // square with a border is what a checkbox looks like.
    type Styles = {
      getComputedStyle(
        el: unknown,
        pseudo: string,
      ): { width: string; height: string; borderTopLeftRadius: string };
    };
    for (const item of await legend.all()) {
      const swatch = await item.evaluate((el) => {
        const style = (globalThis as unknown as Styles).getComputedStyle(el, '::before');
        return {
          width: parseFloat(style.width),
          height: parseFloat(style.height),
          radius: parseFloat(style.borderTopLeftRadius),
        };
      });
      expect(swatch.width).toBeGreaterThanOrEqual(2 * swatch.height);
      expect(swatch.radius).toBeGreaterThanOrEqual(swatch.height / 2);
    }
  });
});

describe('the profile menu before a choice', () => {
  const e2e = useE2eFixture({ context: { timezoneId: 'UTC', locale: 'en-US' }, clearRows: true });

  test("its first option (the spec's `Selecting profile..`) is a prompt: muted, with a hint", async () => {
    const { page, site } = e2e;
    await signIn(page, site, OWNER);
    const select = page.getByLabel('Profile');
    await expect(select.locator('option').first().innerText()).resolves.toBe('Selecting profile..');
    const hint = await select.getAttribute('aria-describedby');
    expect(hint).not.toBeNull();
    await expect(page.locator(`[id="${hint}"]`).innerText()).resolves.toBe(
      'Choose where the card sends visitors: one of your profiles.',
    );
    type Styles = { getComputedStyle(el: unknown): { color: string; fontStyle: string } };
    const look = () =>
      select.evaluate((el) => {
        const style = (globalThis as unknown as Styles).getComputedStyle(el);
        return { color: style.color, fontStyle: style.fontStyle };
      });
    const prompt = await look();
    await select.selectOption('photo');
    const chosen = await look();
    // A placeholder's look before the choice, the text's own after it.
    expect(prompt.fontStyle).toBe('italic');
    expect(chosen.fontStyle).toBe('normal');
    expect(prompt.color).not.toBe(chosen.color);
  });
});
