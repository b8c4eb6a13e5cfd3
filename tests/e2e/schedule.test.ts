import { describe, expect, test } from 'vitest';
import { DB_KINDS, untilDbTime, dbNow as databaseNow } from '../support/emulator.js';
import { useE2eFixture } from './fixture.js';
import { followGo, screenshot, signIn } from './harness.js';
import { formatRelative, formatWhen } from '../../shared/core/format.js';
import { OWNER } from '../support/accounts.js';
import { cardRowId, insertEntry } from '../support/entries.js';

// The schedule in a real browser on both databases: /go follows the server's clock (entries
// that start later, a visitor whose own clock is off by hours), with exactly one request and
// no preflight; the manage page shows the timeline (the owner's scenarios: what visitors get
// now, the picture, what follows, End now, Cancel, the history) at 1280 and 320 px.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A string matched literally inside a RegExp. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.each(DB_KINDS)('the schedule in the browser, on %s', (kind) => {
  /** What the emulator served, one line per request: `METHOD /path status ms`. */
  const served: string[] = [];
  const e2e = useE2eFixture({
    api: kind,
    emulator: { log: (line) => served.push(line) },
    context: { timezoneId: 'UTC' },
    clearRows: true,
  });

  /** Inserts an entry starting and ending `startIn`/`endIn` ms from the database's clock. */
  const schedule = async (type: string, startIn: number | null, endIn: number) => {
    const [row] = await e2e.emulator.query<{ stamp_start: string | null; stamp_end: string }>(
      `insert into public.namecard (card_id, type, stamp_start, stamp_end)
       values ($4,
               $1,
               case when $2::bigint is null then null
                    else (extract(epoch from clock_timestamp()) * 1000)::bigint + $2::bigint end,
               (extract(epoch from clock_timestamp()) * 1000)::bigint + $3::bigint)
       returning stamp_start, stamp_end`,
      [type, startIn, endIn, await cardRowId(e2e.emulator)],
    );
    return { start: Number(row!.stamp_start), end: Number(row!.stamp_end) };
  };
  const visit = async () => (await followGo(e2e.page, e2e.site, e2e.cards)).landing.path;

  test('an anonymous visit makes exactly one API request and no preflight', async () => {
    const { emulator, cards, site, page } = e2e;
    await schedule('photo', null, HOUR);
    served.length = 0;
    const result = await followGo(page, site, cards);
    expect(result.landing.path).toBe('/photo');
    expect(result.lookups).toHaveLength(1);
    const url = new URL(result.lookups[0]!.url());
    expect(url.pathname).toBe('/rest/v1/rpc/namecard_go');
    expect(url.searchParams.get('apikey')).toBe(emulator.anonKey);
    const headers = await result.lookups[0]!.allHeaders();
    expect(headers.authorization).toBeUndefined();
    expect(headers.apikey).toBeUndefined();
    const api = served.filter((line) => line.includes('/rest/v1/') || line.includes('/auth/v1/'));
    // The decision is one GET; the visit count is one more CORS-simple POST, sent
    // once the decision is known, and never an OPTIONS.
    expect(
      api.filter((line) => !line.startsWith('POST /rest/v1/rpc/namecard_count_visit ')),
    ).toEqual([expect.stringMatching(/^GET \/rest\/v1\/rpc\/namecard_go 200 /)]);
    expect(api.filter((line) => line.startsWith('OPTIONS'))).toEqual([]);
  });

  test('an entry starting tomorrow does not change /go today', async () => {
    await schedule('photo', 24 * HOUR, 25 * HOUR);
    expect(await visit()).toBe('/');
  });

  test('/go switches to an entry at its start and back at its end', async () => {
    const entry = await schedule('photo', 3000, 7000);
    expect(await visit()).toBe('/');
    await untilDbTime(e2e.emulator, entry.start);
    expect(await visit()).toBe('/photo');
    await untilDbTime(e2e.emulator, entry.end);
    expect(await visit()).toBe('/');
  });

  test.each([
    ['3 hours ahead', 3 * HOUR],
    ['3 hours behind', -3 * HOUR],
  ])("a visitor whose clock is %s lands where the server's clock says", async (_name, skew) => {
    const { emulator, page } = e2e;
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
    const { site, page } = e2e;
    await schedule('photo', null, HOUR);
    await signIn(page, site, OWNER);
    // Leave /manage first, so that its lazily loaded chunks are not counted as /go's loads.
    await page.goto('about:blank');
    expect(await visit()).toBe('/photo');
  });

  /** The database's clock, epoch ms. */
  const dbNow = () => databaseNow(e2e.emulator);
  /** Inserts an entry with exact stamps (epoch ms) and answers its id. */
  const insert = (type: string, start: number | null, end: number) =>
    insertEntry(e2e.emulator, type, start, end);
  /** Every row, oldest first, with its stop marks: nothing is ever deleted. */
  const stored = async () =>
    (
      await e2e.emulator.query<{ id: string; type: string; stop_kind: string | null }>(
        'select id, type, stop_kind from public.namecard order by id',
      )
    ).map((row) => ({ id: Number(row.id), type: row.type, stop_kind: row.stop_kind }));
  /** The timeline the server answers now (`namecard_status` of main), as the page reads it. */
  const serverTimeline = async () =>
    (
      await e2e.emulator.query<{ timeline: { type: string; from: number; to: number | null }[] }>(
        `select timeline from public.namecard_status('main')`,
      )
    )[0]!.timeline;
  /** A stamp as the page shows it (the context's zone is UTC, named once at the top). */
  const when = (at: number, now: number) => formatWhen(at, now, 'UTC');
  const dayStart = (at: number) => Math.floor(at / DAY) * DAY;
  const picture = () => e2e.page.getByRole('img', { name: /^Visitors get, from now: / });
  /**
   * Screenshots of /manage at 1280 and 320 px (tests/e2e/screenshots/, git-ignored); at 320 px
   * nothing scrolls sideways and the page stays far shorter than the old ~2,570 px.
   */
  const shoot = async (name: string) => {
    await screenshot(e2e.page, `${name}-1280`);
    await e2e.page.setViewportSize({ width: 320, height: 640 });
    await screenshot(e2e.page, `${name}-320`);
    const size = (await e2e.page.evaluate(
      '({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight })',
    )) as { width: number; height: number };
    console.log(`${name} at 320 px: ${size.width} x ${size.height}`);
    expect(size.width).toBeLessThanOrEqual(320);
    await e2e.page.setViewportSize({ width: 1280, height: 720 });
  };
  /** Opens the form's optional start ("Start later") unless it is open. */
  const startFields = async () => {
    const details = e2e.page.locator('details.optional');
    if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  };
  const following = () =>
    e2e.page.getByRole('list', { name: 'What follows' }).getByRole('listitem');

  test('scenario 1: photo until a far date, a photo event in 2 days, then main for 30 min: main, then photo again until the far date', async () => {
    const { site, page } = e2e;
    const now = await dbNow();
    const far = dayStart(now) + 400 * DAY + 18 * HOUR;
    const eventStart = dayStart(now) + 2 * DAY + 9 * HOUR;
    const eventEnd = eventStart + 9 * HOUR;
    const photo = await insert('photo', null, far);
    const event = await insert('photo', eventStart, eventEnd);
    const breakEnd = now + 30 * 60_000;
    const main = await insert('main', null, breakEnd);
    // The server's timeline: main for 30 min, then photo until the far date (the event
    // merges into it), then main for good.
    expect(await serverTimeline()).toEqual([
      { type: 'main', from: expect.any(Number), to: breakEnd },
      { type: 'photo', from: breakEnd, to: far },
      { type: 'main', from: far, to: null },
    ]);

    await signIn(page, site, OWNER);
    await page.getByTestId('zone-header').getByText('Times in UTC').waitFor();
    const current = page.getByTestId('now-line');
    await current
      .getByText(`visitors get the main site until ${when(breakEnd, now)} (in `)
      .waitFor();
    await expect(picture().getAttribute('aria-label')).resolves.toBe(
      `Visitors get, from now: the main site until ${when(breakEnd, now)}, Photographer until ${when(far, now)}, then the main site from then on.`,
    );
    await expect(following().allInnerTexts()).resolves.toEqual([
      `Then Photographer from ${when(breakEnd, now)} until ${when(far, now)}`,
      `Then the main site from ${when(far, now)} (${formatRelative(far, now)})`,
    ]);
    // The entries that still count, each with its state and a Cancel button.
    await expect(page.getByTestId(`entry-${main}`).innerText()).resolves.toMatch(
      new RegExp(
        `^#${main} Main Profile until ${escape(when(breakEnd, now))} · on now, until ${escape(when(breakEnd, now))}\\s*Cancel$`,
      ),
    );
    await expect(page.getByTestId(`entry-${photo}`).innerText()).resolves.toMatch(
      new RegExp(
        `^#${photo} Photographer until ${escape(when(far, now))} · comes back at ${escape(when(breakEnd, now))} \\(in (29|30) min\\)\\s*Cancel$`,
      ),
    );
    await expect(page.getByTestId(`entry-${event}`).innerText()).resolves.toContain(
      `#${event} Photographer from ${when(eventStart, now)} until ${when(eventEnd, now)} · scheduled from ${when(eventStart, now)}`,
    );
    await expect(page.getByRole('button', { name: /^Cancel entry/ }).count()).resolves.toBe(3);
    await shoot(`manage-scenario1-${kind}`);

    // End now during the break stops the photo entry that would come back, keeps the event.
    await page.getByRole('button', { name: 'End now' }).click();
    // It asks first, naming what visitors get instead: still main, but now until the event.
    const ask = page.getByRole('dialog', { name: 'End now?' });
    await expect(ask.getByTestId('confirm-instead').innerText()).resolves.toContain(
      `Visitors still get the main site until ${when(eventStart, now)} (`,
    );
    await ask.getByRole('button', { name: 'Yes, end it' }).click();
    const outcome = page.getByTestId('change-outcome');
    await outcome.getByText('Ended now').waitFor();
    await expect(outcome.innerText()).resolves.toContain(
      `Visitors now get the main site until ${when(eventStart, now)}`,
    );
    await expect(following().allInnerTexts()).resolves.toEqual([
      `Then Photographer from ${when(eventStart, now)} until ${when(eventEnd, now)}`,
      `Then the main site from ${when(eventEnd, now)} (${formatRelative(eventEnd, await dbNow())})`,
    ]);
    expect(await serverTimeline()).toEqual([
      { type: 'main', from: expect.any(Number), to: eventStart },
      { type: 'photo', from: eventStart, to: eventEnd },
      { type: 'main', from: eventEnd, to: null },
    ]);
    expect(await stored()).toEqual([
      { id: photo, type: 'photo', stop_kind: 'ended' },
      { id: event, type: 'photo', stop_kind: null },
      { id: main, type: 'main', stop_kind: 'ended' },
    ]);
    // The stopped entries are history now, in plain words.
    const history = page.locator('details.history');
    await history.locator('summary').click();
    await expect(history.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(new RegExp(`^#${main} Main Profile until .* · ended early at today `)),
      expect.stringMatching(new RegExp(`^#${photo} Photographer until .* · ended early at today `)),
    ]);
    await expect(page.getByRole('button', { name: 'End now' }).count()).resolves.toBe(0);
    await shoot(`manage-scenario1-ended-${kind}`);
    await page.goto('about:blank');
    expect(await visit()).toBe('/');
  });

  test('scenario 2: photo until Dec 31, a photo event on Dec 10 with a start, End now: the Dec 10 event stays scheduled', async () => {
    const { site, page } = e2e;
    // "Dec 31" and "Dec 10" as days from the database's clock, so the test runs any day.
    const now = await dbNow();
    const dec31 = dayStart(now) + 38 * DAY + 18 * HOUR;
    const dec10Start = dayStart(now) + 17 * DAY + 9 * HOUR;
    const dec10End = dec10Start + 9 * HOUR;
    const photo = await insert('photo', null, dec31);
    const event = await insert('photo', dec10Start, dec10End);
    expect(await serverTimeline()).toEqual([
      { type: 'photo', from: expect.any(Number), to: dec31 },
      { type: 'main', from: dec31, to: null },
    ]);
    await signIn(page, site, OWNER);
    const current = page.getByTestId('now-line');
    await current.getByText(`visitors get Photographer until ${when(dec31, now)}`).waitFor();
    await shoot(`manage-scenario2-${kind}`);

    await page.getByRole('button', { name: 'End now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, end it' }).click();
    await page.getByTestId('change-outcome').getByText(`Ended now (#${photo} stopped).`).waitFor();
    await page
      .getByTestId('now-line')
      .getByText(`visitors get the main site until ${when(dec10Start, now)}`)
      .waitFor();
    await expect(picture().getAttribute('aria-label')).resolves.toBe(
      `Visitors get, from now: the main site until ${when(dec10Start, now)}, Photographer until ${when(dec10End, now)}, then the main site from then on.`,
    );
    await expect(page.getByTestId(`entry-${event}`).innerText()).resolves.toContain(
      `· scheduled from ${when(dec10Start, now)}`,
    );
    expect(await serverTimeline()).toEqual([
      { type: 'main', from: expect.any(Number), to: dec10Start },
      { type: 'photo', from: dec10Start, to: dec10End },
      { type: 'main', from: dec10End, to: null },
    ]);
    expect(await stored()).toEqual([
      { id: photo, type: 'photo', stop_kind: 'ended' },
      { id: event, type: 'photo', stop_kind: null },
    ]);
    await page.goto('about:blank');
    expect(await visit()).toBe('/');
  });

  test('scenario 3: Cancel a scheduled entry (keyboard only) removes it from the timeline and keeps the row', async () => {
    const { site, page } = e2e;
    const now = await dbNow();
    const start = now + HOUR;
    const end = now + 2 * HOUR;
    const keep = await insert('photo', null, now + 3 * HOUR);
    const event = await insert('main', start, end);
    await signIn(page, site, OWNER);
    await expect(picture().getAttribute('aria-label')).resolves.toBe(
      `Visitors get, from now: Photographer until ${when(start, now)}, the main site until ${when(end, now)}, Photographer until ${when(now + 3 * HOUR, now)}, then the main site from then on.`,
    );
    await expect(page.getByTestId(`entry-${event}`).innerText()).resolves.toContain(
      `#${event} Main Profile from ${when(start, now)} until ${when(end, now)} · scheduled from ${when(start, now)} (in `,
    );
    await shoot(`manage-scenario3-${kind}`);

    // Tab to the event's Cancel button and press Enter: a dialog asks first, its safe answer
    // focused; Tab to its Yes and press Enter.
    const cancel = page.getByRole('button', { name: `Cancel entry #${event}` });
    await cancel.focus();
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog', { name: `Cancel #${event}?` });
    await ask.waitFor();
    await page.keyboard.press('Tab');
    await expect(
      ask
        .getByRole('button', { name: 'Yes, cancel it' })
        .evaluate((el) => el === el.ownerDocument.activeElement),
    ).resolves.toBe(true);
    await page.keyboard.press('Enter');
    const outcome = page.getByTestId('change-outcome');
    await outcome.getByText(`Cancelled #${event} Main Profile`).waitFor();
    await expect(picture().getAttribute('aria-label')).resolves.toBe(
      `Visitors get, from now: Photographer until ${when(now + 3 * HOUR, now)}, then the main site from then on.`,
    );
    await expect(cancel.count()).resolves.toBe(0);
    expect(await serverTimeline()).toEqual([
      { type: 'photo', from: expect.any(Number), to: now + 3 * HOUR },
      { type: 'main', from: now + 3 * HOUR, to: null },
    ]);
    expect(await stored()).toEqual([
      { id: keep, type: 'photo', stop_kind: null },
      { id: event, type: 'main', stop_kind: 'cancelled' },
    ]);
    await page.locator('details.history summary').click();
    await expect(
      page.locator('details.history').getByRole('listitem').allInnerTexts(),
    ).resolves.toEqual([
      expect.stringMatching(
        new RegExp(
          `^#${event} Main Profile from ${escape(when(start, now))} until ${escape(when(end, now))} · cancelled at today `,
        ),
      ),
    ]);
    await page.goto('about:blank');
    expect(await visit()).toBe('/photo');

    // Cancel with the keyboard's Space works too, on the running entry: visitors get main.
    await page.goto(site.route('manage/'));
    await page.getByRole('button', { name: `Cancel entry #${keep}` }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('dialog', { name: `Cancel #${keep}?` }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.getByTestId('change-outcome').getByText(`Cancelled #${keep} Photographer`).waitFor();
    await page.getByTestId('now-line').getByText('visitors get the main site.').waitFor();
    await page.goto('about:blank');
    expect(await visit()).toBe('/');
  });

  test('a refused Cancel (already cancelled elsewhere) is shown in the danger box, and the page reads again', async () => {
    const { emulator, site, page } = e2e;
    const now = await dbNow();
    const event = await insert('photo', now + HOUR, now + 2 * HOUR);
    await signIn(page, site, OWNER);
    const cancel = page.getByRole('button', { name: `Cancel entry #${event}` });
    await cancel.waitFor();
    // Meanwhile, another face cancels it.
    await emulator.query(
      `update public.namecard set stopped_at = $2, stop_kind = 'cancelled',
         planned_end = stamp_end, stamp_end = stamp_start where id = $1`,
      [event, now],
    );
    await cancel.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel it' }).click();
    const alert = page.getByTestId('change-outcome').getByRole('alert');
    await alert
      .getByText(`Could not cancel #${event}: Entry ${event} was already cancelled`)
      .waitFor();
    await expect(alert.getAttribute('class')).resolves.toBe('status error');
    // Read again: the entry is no longer offered.
    await expect.poll(() => cancel.count(), { timeout: 5000 }).toBe(0);
  });

  test('End now with only a main entry that hides nothing says so in words and stores nothing', async () => {
    const { site, page } = e2e;
    const now = await dbNow();
    await insert('main', null, now + HOUR);
    await signIn(page, site, OWNER);
    await page.getByRole('button', { name: 'End now' }).click();
    await page
      .getByTestId('change-outcome')
      .getByText('Nothing to end: visitors already go to the main site.')
      .waitFor();
    expect((await stored()).map((row) => row.stop_kind)).toEqual([null]);
  });

  test('the form sets the card, with and without a start, and a quick duration fills date and time', async () => {
    const { emulator, site, page } = e2e;
    const year = new Date().getUTCFullYear() + 1;
    await signIn(page, site, OWNER);
    const current = page.getByTestId('now-line');
    await current.getByText('visitors get the main site.').waitFor();
    await expect(page.getByRole('button', { name: 'End now' }).count()).resolves.toBe(0);

    // Photographer now, until next year.
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByLabel('Date', { exact: true }).fill(`${year}-06-01`);
    await page.getByLabel('Time', { exact: true }).fill('18:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    const status = page.getByRole('status');
    await status.getByText('Card set!').waitFor();
    const june = Date.UTC(year, 5, 1, 18);
    const [first] = await stored();
    await expect(status.innerText()).resolves.toBe(
      `Card set! #${first!.id} Photographer until ${when(june, Date.now())}. Visitors now get Photographer until ${when(june, Date.now())} (${formatRelative(june, await dbNow())}). Then the main site from ${when(june, Date.now())}.`,
    );

    // A fair later that day, with a start: main in between, then photo again.
    await page.getByLabel('Profile').selectOption({ label: 'Main Profile' });
    await page.getByLabel('Date', { exact: true }).fill(`${year}-05-01`);
    await page.getByLabel('Time', { exact: true }).fill('18:00');
    await startFields();
    await page.getByLabel('Start day').fill(`${year}-05-01`);
    await page.getByLabel('Start hour').fill('09:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    const mayStart = Date.UTC(year, 4, 1, 9);
    const mayEnd = Date.UTC(year, 4, 1, 18);
    await status.getByText(`Main Profile from ${when(mayStart, Date.now())}`).waitFor();
    await expect(picture().getAttribute('aria-label')).resolves.toBe(
      `Visitors get, from now: Photographer until ${when(mayStart, Date.now())}, the main site until ${when(mayEnd, Date.now())}, Photographer until ${when(june, Date.now())}, then the main site from then on.`,
    );
    await expect(following().allInnerTexts()).resolves.toEqual([
      expect.stringMatching(
        new RegExp(
          `^Then the main site from ${escape(when(mayStart, Date.now()))} until ${escape(when(mayEnd, Date.now()))}$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^Then Photographer again from ${escape(when(mayEnd, Date.now()))} \\(in \\d+ days\\) until ${escape(when(june, Date.now()))}$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^Then the main site from ${escape(when(june, Date.now()))} \\(in \\d+ days\\)$`,
        ),
      ),
    ]);
    expect((await stored()).map((row) => row.type)).toEqual(['photo', 'main']);

    // A quick duration fills the end with the browser's local time in 1 h.
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await startFields();
    await page.getByLabel('Start day').fill('');
    await page.getByLabel('Start hour').fill('');
    const before = Date.now() + HOUR;
    await page.getByRole('button', { name: 'for 1 h' }).click();
    const after = Date.now() + HOUR;
    const filled = `${await page.getByLabel('Date', { exact: true }).inputValue()}T${await page.getByLabel('Time', { exact: true }).inputValue()}Z`;
    expect(Date.parse(filled)).toBeGreaterThanOrEqual(Math.floor(before / 60_000) * 60_000);
    expect(Date.parse(filled)).toBeLessThanOrEqual(after);
    await page.getByRole('button', { name: 'until 23:59' }).click();
    await expect(page.getByLabel('Time', { exact: true }).inputValue()).resolves.toBe('23:59');
    await page.getByRole('button', { name: 'for 2 h' }).click();
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await status.getByText(/^Card set! #\d+ Photographer until today|tomorrow /).waitFor();
    const rows = await emulator.query<{ stamp_end: string }>(
      'select stamp_end from public.namecard order by id desc limit 1',
    );
    const twoHours = Number(rows[0]!.stamp_end) - (await dbNow());
    expect(twoHours).toBeGreaterThan(2 * HOUR - 2 * 60_000);
    expect(twoHours).toBeLessThanOrEqual(2 * HOUR);
  });

  test('a start that has passed says the entry starts now, and stores no start', async () => {
    const { emulator, site, page } = e2e;
    const year = new Date().getUTCFullYear() + 1;
    const yesterday = new Date(dayStart(Date.now()) - DAY).toISOString().slice(0, 10);
    await signIn(page, site, OWNER);
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByLabel('Date', { exact: true }).fill(`${year}-06-01`);
    await page.getByLabel('Time', { exact: true }).fill('18:00');
    await startFields();
    await page.getByLabel('Start day').fill(yesterday);
    await page.getByLabel('Start hour').fill('09:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    const status = page.getByRole('status');
    await status.getByText('Card set!').waitFor();
    const june = Date.UTC(year, 5, 1, 18);
    const [row] = await stored();
    await expect(status.innerText()).resolves.toBe(
      `Card set! #${row!.id} Photographer until ${when(june, Date.now())}. Start ${yesterday} 09:00 has passed: the entry starts now. Visitors now get Photographer until ${when(june, Date.now())} (${formatRelative(june, await dbNow())}). Then the main site from ${when(june, Date.now())}.`,
    );
    expect(
      await emulator.query('select type, stamp_start, stamp_end::text from public.namecard'),
    ).toEqual([{ type: 'photo', stamp_start: null, stamp_end: String(june) }]);
    await page.goto('about:blank');
    expect(await visit()).toBe('/photo');
  });

  test('between reads the page moves "now" along the timeline it has, by the shared rule', async () => {
    const { site, page } = e2e;
    const now = await dbNow();
    const end = now + 10 * 60_000;
    const back = now + 20 * 60_000;
    const last = now + 30 * 60_000;
    await insert('photo', null, end);
    await insert('photo', back, last);
    await page.clock.install();
    await signIn(page, site, OWNER);
    const current = page.getByTestId('now-line');
    await current.getByText(`visitors get Photographer until ${when(end, now)} (in `).waitFor();
    // From here no read answers: whatever changes on the page comes from the rows it has.
    let held = 0;
    await page.route('**/rest/v1/rpc/namecard_status*', () => {
      held += 1;
    });
    await page.clock.fastForward('12:00');
    await current
      .getByText(`visitors get the main site until ${when(back, now)} (in `)
      .waitFor({ timeout: 5000 });
    await expect(picture().getAttribute('aria-label')).resolves.toBe(
      `Visitors get, from now: the main site until ${when(back, now)}, Photographer until ${when(last, now)}, then the main site from then on.`,
    );
    // It did try to read again at the entry's end; that read is still held.
    expect(held).toBeGreaterThan(0);
  });

  test('the manage page never shows an ended entry as current: it reads again when it ends', async () => {
    const { site, page } = e2e;
    await schedule('photo', null, 4000);
    await signIn(page, site, OWNER);
    const current = page.getByTestId('now-line');
    await current.getByText('visitors get Photographer').waitFor();
    // No reload: the page reads the state again at the entry's end.
    await current.getByText('visitors get the main site.').waitFor({ timeout: 10_000 });
    await expect(page.getByRole('button', { name: 'End now' }).count()).resolves.toBe(0);
    // And when the tab becomes visible again, it reads at once.
    await schedule('photo', null, HOUR);
    await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
    await current.getByText('visitors get Photographer').waitFor({ timeout: 5000 });
  });

  test('the manage page refuses a past end or a start after the end, and stores nothing', async () => {
    const { emulator, site, page } = e2e;
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
    await startFields();
    await page.getByLabel('Start day').fill(`${year}-01-02`);
    await page.getByLabel('Start hour').fill('10:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await status.getByText('Start must be before the end').waitFor();
    // Plain words on the web: no markdown backticks.
    await expect(status.innerText()).resolves.not.toContain('`');
    expect(await emulator.query('select id from public.namecard')).toEqual([]);
  });
});
