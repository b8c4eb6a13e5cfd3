import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { beforeEach, describe, expect, test } from 'vitest';
import { useE2eFixture } from './fixture.js';
import { screenshot, signIn } from './harness.js';
import { OWNER } from '../support/accounts.js';
import { cardRowId } from '../support/entries.js';

// Weekly series on /manage, in Chromium at a phone's width in Berlin: "Repeat weekly" in the
// set form stores a series (checked in public.namecard_series) and the page lists it in one
// line; a form with no day is refused naming the field, nothing stored; Cancel asks first and
// ends the series for good; the .ics link's file (read by ical.js) repeats on the chosen days.

const ZONE = 'Europe/Berlin';

describe('weekly series on /manage at 375 px', () => {
  const e2e = useE2eFixture({
    context: { timezoneId: ZONE, locale: 'en-US', viewport: { width: 375, height: 812 } },
    clearRows: true,
  });
  beforeEach(async () => {
    await e2e.emulator.query('delete from public.namecard_series_stop');
    await e2e.emulator.query('delete from public.namecard_series');
  });

  /** The stored series, oldest first. */
  const stored = () =>
    e2e.emulator.query<{
      id: string;
      type: string;
      weekdays: number[];
      start_time: string;
      end_time: string;
      time_zone: string;
      first_date: string | null;
      last_date: string | null;
      stopped_at: string | null;
    }>(
      `select id, type, weekdays, start_time::text, end_time::text, time_zone,
              first_date::text, last_date::text, stopped_at
       from public.namecard_series order by id`,
    );
  /** Stores a series directly, as another device would have; answers its id. */
  const insertSeries = async (weekdays: string, start: string, end: string) =>
    Number(
      (
        await e2e.emulator.query<{ id: string }>(
          `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
           values ($5, 'photo', $1::smallint[], $2, $3, $4) returning id`,
          [weekdays, start, end, ZONE, await cardRowId(e2e.emulator)],
        )
      )[0]!.id,
    );

  test('Repeat weekly stores the series shown, and the page lists it in one line', async () => {
    const { page, site } = e2e;
    await signIn(page, site, OWNER);
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByText('Repeat weekly').click();
    // The one-off fields are not shown while it is open, so they are not applied.
    await page.getByRole('group', { name: 'Days' }).waitFor();
    await expect(page.getByLabel('Date', { exact: true }).count()).resolves.toBe(0);
    await page.getByRole('checkbox', { name: 'Saturday' }).check();
    await page.getByRole('checkbox', { name: 'Sunday' }).check();
    await page.getByLabel('From', { exact: true }).fill('10:00');
    await page.getByLabel('Until', { exact: true }).fill('18:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    const outcome = page.getByRole('status').filter({ hasText: 'Series set!' });
    await outcome.waitFor();
    const rows = await stored();
    expect(rows).toEqual([
      {
        id: rows[0]!.id,
        type: 'photo',
        weekdays: [6, 7],
        start_time: '10:00:00',
        end_time: '18:00:00',
        time_zone: ZONE,
        first_date: null,
        last_date: null,
        stopped_at: null,
      },
    ]);
    await expect(outcome.innerText()).resolves.toMatch(
      new RegExp(
        `^Series set! #${rows[0]!.id} Photographer every Sat, Sun 10:00–18:00, next (Sat|Sun) \\d{1,2} [A-Z][a-z]{2}, 10:00\\. Visitors now get `,
      ),
    );
    await expect(page.getByTestId('series-line').innerText()).resolves.toMatch(
      /^Photographer every Sat, Sun 10:00–18:00, next (Sat|Sun) \d{1,2} [A-Z][a-z]{2}, 10:00\s*Cancel$/,
    );
    // The timeline says the series in one line, not each occurrence as a change.
    await page
      .getByRole('list', { name: 'What follows' })
      .getByText(/^Photographer every Sat, Sun 10:00–18:00, next /)
      .waitFor();
    await screenshot(page, 'manage-series-set-375');
    // Closed again, the form is the one-off form, and the days are not kept.
    await page.getByText('Repeat weekly').click();
    await page.getByLabel('Date', { exact: true }).waitFor();
    await expect(page.getByRole('group', { name: 'Days' }).count()).resolves.toBe(0);
  });

  test('the timeline keeps the occurrences ahead as "now" moves on between reads', async () => {
    const { page, site } = e2e;
    // Every day, an hour starting six hours from now (Berlin time): none is on now.
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', {
        hour: '2-digit',
        hourCycle: 'h23',
        timeZone: ZONE,
      }).format(Date.now()),
    );
    const start = `${String((hour + 6) % 24).padStart(2, '0')}:00`;
    await insertSeries('{1,2,3,4,5,6,7}', start, start.replace(':00', ':30'));
    await page.clock.install();
    await signIn(page, site, OWNER);
    const follows = page.getByRole('list', { name: 'What follows' });
    // The series in one line, and the picture with its occurrences.
    const line = follows.getByText(/^Photographer every day /);
    const occurrences = page.locator('.timeline-segment.profile-photo');
    await line.waitFor();
    await expect(occurrences.count()).resolves.toBeGreaterThan(0);
    // Past the page's 15-second tick, before its next read (at most a minute away).
    await page.clock.fastForward(20_000);
    await page.waitForTimeout(200);
    await expect(line.count()).resolves.toBe(1);
    await expect(occurrences.count()).resolves.toBeGreaterThan(0);
  });

  test('a series with no day is refused, naming the field; nothing is stored', async () => {
    const { page, site } = e2e;
    await signIn(page, site, OWNER);
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByText('Repeat weekly').click();
    await page.getByLabel('From', { exact: true }).fill('10:00');
    await page.getByLabel('Until', { exact: true }).fill('18:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await page
      .getByRole('status')
      .getByText('The series was not set: Days: choose at least one day (Mon … Sun)')
      .waitFor();
    expect(await stored()).toEqual([]);
  });

  test('Cancel asks first and ends the series for good', async () => {
    const { page, site } = e2e;
    const id = await insertSeries('{6}', '10:00', '18:00');
    await signIn(page, site, OWNER);
    const cancel = page.getByRole('button', { name: `Cancel series #${id}` });
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: `Cancel series #${id}?` });
    await expect(dialog.innerText()).resolves.toMatch(
      /Photographer every Sat 10:00–18:00, next Sat \d{1,2} [A-Z][a-z]{2}, 10:00: the series ends for good/,
    );
    await dialog.getByRole('button', { name: 'No, keep it' }).click();
    expect((await stored()).map((row) => row.stopped_at)).toEqual([null]);
    await cancel.click();
    await dialog.getByRole('button', { name: 'Yes, end the series' }).click();
    await page.getByText(`Cancelled series #${id}: it ends for good.`).waitFor();
    expect((await stored())[0]!.stopped_at).not.toBeNull();
    await page.getByText('No weekly series.').waitFor();
    await expect(page.getByTestId('series-line').count()).resolves.toBe(0);
  });

  test('Download calendar (.ics) gives an iCalendar file that repeats on the chosen days', async () => {
    const { page, site } = e2e;
    const id = await insertSeries('{1,3}', '09:00', '17:00');
    await signIn(page, site, OWNER);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download calendar (.ics)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('namecard.ics');
    const text = await readFile(await download.path(), 'utf8');
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents('vevent');
    expect(events.map((e) => e.getFirstPropertyValue('uid'))).toEqual([`series-${id}@namecard`]);
    const rule = events[0]!.getFirstPropertyValue('rrule') as ICAL.Recur;
    expect(rule.freq).toBe('WEEKLY');
    expect(rule.getComponent('byday')).toEqual(['MO', 'WE']);
    expect(events[0]!.getFirstProperty('dtstart')!.getParameter('tzid')).toBe(ZONE);
    expect(events[0]!.getFirstPropertyValue('summary')).toBe('Photographer (photo)');
  });
});
