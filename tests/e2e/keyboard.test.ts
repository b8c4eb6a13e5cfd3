import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { formatWhen } from '../../shared/core/format.js';
import { DB_KINDS, dbNow } from '../support/emulator.js';
import { insertEntry } from '../support/entries.js';
import { useE2eFixture } from './fixture.js';
import { OWNER } from '../support/accounts.js';

// The owner's whole errand with the keyboard alone, as someone who cannot use a pointer does
// it: sign in, set the card, end it, cancel a scheduled entry. Only page.keyboard is used
// (Tab, Shift+Tab, Enter, Space, typing into the focused field, arrow keys in the native
// select; End now and Cancel ask first, in a dialog answered with Tab and Enter); each outcome
// is checked on the page and in the rows, and at every Tab stop the focused element must show
// that it has the focus.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Tab presses allowed to reach one control; more means it is not reachable in good order. */
const MAX_TABS = 40;
/** A desktop and a phone, as in accessibility.test.ts. */
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 320, height: 640 },
];

/** What the focused element is and whether it shows its focus, read in the page. */
interface Focused {
  /** Tag, then its accessible name as far as this test needs one (label, aria-label, text). */
  tag: string;
  name: string;
  /** Why the focus is not visible, or '' when it is. */
  invisible: string;
}

/**
 * The focused element and whether it has a visible focus indicator: it matches
 * `:focus-visible` (the browser shows keyboard focus; `:focus-within` for a date or time
 * field), has a size, and its computed outline is drawn by the site's own style: not `none`
 * nor the browser's default `auto`, of non-zero width, not transparent. (The site marks focus
 * with outlines only, site/src/styles.css.)
 */
async function focused(page: Page): Promise<Focused | null> {
  // Runs in the page, as a string: the tests are compiled without the DOM's types.
  return page.evaluate<Focused | null>(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    // A label's own words, without the text of the control inside it (a select's options).
    const label = el.labels && el.labels[0];
    const labelled = label
      ? [...label.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent)
          .join(' ')
      : '';
    const name = (
      el.getAttribute('aria-label') ??
      (labelled || el.textContent || el.getAttribute('name') || '')
    )
      .replace(/\\s+/g, ' ')
      .trim();
    const style = getComputedStyle(el);
    const problems = [];
    // A date or time field's focus is on a part inside it (day, month, year, its calendar
    // button), which :focus-visible on the field does not follow; :focus-within does.
    const inner = el instanceof HTMLInputElement && ['date', 'time'].includes(el.type);
    if (!el.matches(inner ? ':focus-within' : ':focus-visible')) {
      problems.push('it does not match :focus-visible');
    }
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) problems.push('it has no size');
    // 'auto' is the browser's default ring only: the site's own style must apply.
    const outline =
      !['none', 'auto'].includes(style.outlineStyle) &&
      parseFloat(style.outlineWidth) > 0 &&
      style.outlineColor !== 'rgba(0, 0, 0, 0)' &&
      style.outlineColor !== 'transparent';
    if (!outline) {
      problems.push(
        'no ring: outline ' + style.outlineStyle + ' ' + style.outlineWidth + ' ' + style.outlineColor,
      );
    }
    return { tag: el.tagName.toLowerCase(), name, invisible: problems.join('; ') };
  })()`);
}

describe.each(DB_KINDS)('keyboard only, on %s', (kind) => {
  const e2e = useE2eFixture({
    api: kind,
    context: { timezoneId: 'UTC', locale: 'en-US' },
    clearRows: true,
  });

  /** Every Tab stop so far, for the failure message. */
  const stops: string[] = [];

  /**
   * Presses Tab (or Shift+Tab) until the focused element is `tag` named `name`, checking at
   * every stop that the focus is visible.
   * @throws when a stop shows no focus or the control is not reached in {@link MAX_TABS} presses.
   */
  async function tabTo(tag: string, name: string | RegExp, backwards = false): Promise<void> {
    for (let i = 0; i < MAX_TABS; i += 1) {
      await e2e.page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
      const now = await focused(e2e.page);
      if (!now) {
        stops.push('(nothing)');
        continue;
      }
      stops.push(`${now.tag} "${now.name}"`);
      expect(now.invisible, `focus not visible on ${now.tag} "${now.name}"`).toBe('');
      const matches = typeof name === 'string' ? now.name === name : name.test(now.name);
      if (now.tag === tag && matches) return;
    }
    throw new Error(`${tag} "${String(name)}" not reached; stops: ${stops.join(' → ')}`);
  }

  const rows = async () =>
    (
      await e2e.emulator.query<{
        id: string;
        type: string;
        stamp_start: string | null;
        stamp_end: string;
        stop_kind: string | null;
      }>('select id, type, stamp_start, stamp_end, stop_kind from public.namecard order by id')
    ).map((row) => ({
      id: Number(row.id),
      type: row.type,
      stamp_start: row.stamp_start === null ? null : Number(row.stamp_start),
      stamp_end: Number(row.stamp_end),
      stop_kind: row.stop_kind,
    }));

  test.each(WIDTHS)(
    'at $width px: sign in, set the card, end it and cancel a scheduled entry with the keyboard alone',
    async (viewport) => {
      const { page, site, emulator } = e2e;
      await page.setViewportSize(viewport);
      stops.length = 0;
      // A scheduled entry to cancel: main from tomorrow 09:00 to 12:00 (UTC), by the DB's clock.
      const now = await dbNow(emulator);
      const tomorrow = Math.floor(now / DAY) * DAY + DAY;
      const scheduledId = await insertEntry(
        emulator,
        'main',
        tomorrow + 9 * HOUR,
        tomorrow + 12 * HOUR,
      );

      // Sign in.
      await page.goto(site.route('login/'));
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await tabTo('input', 'Email address');
      await page.keyboard.type(OWNER.email);
      await tabTo('input', 'Your Password');
      await page.keyboard.type(OWNER.password);
      await tabTo('button', 'Sign in');
      await page.keyboard.press('Enter');
      await page.waitForURL(site.route('manage/'));
      await page.getByText(`Signed in as ${OWNER.email}`).waitFor();
      await page.getByRole('button', { name: `Cancel entry #${scheduledId}` }).waitFor();

      // Set the card: Photographer until tomorrow 18:00, typed as Chromium's date and time fields
      // lay out US English (month, day, year; hours, minutes, AM/PM).
      const end = tomorrow + 18 * HOUR;
      const day = new Date(tomorrow);
      const pad = (n: number) => String(n).padStart(2, '0');
      await tabTo('select', 'Profile');
      // The placeholder is disabled: the first arrow gives Main Profile, the second Photographer.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect(page.getByLabel('Profile').inputValue()).resolves.toBe('photo');
      await tabTo('input', 'Date');
      await page.keyboard.type(
        `${pad(day.getUTCMonth() + 1)}${pad(day.getUTCDate())}${day.getUTCFullYear()}`,
      );
      await expect(page.getByLabel('Date', { exact: true }).inputValue()).resolves.toBe(
        day.toISOString().slice(0, 10),
      );
      await tabTo('input', 'Time');
      await page.keyboard.type('0600P');
      await expect(page.getByLabel('Time', { exact: true }).inputValue()).resolves.toBe('18:00');
      await tabTo('button', 'Set the card!');
      await page.keyboard.press('Space');
      const status = page.getByRole('status').filter({ hasText: 'Card set!' });
      await status.waitFor();
      let stored = await rows();
      const set = stored.find((row) => row.type === 'photo');
      expect(stored).toEqual([
        {
          id: scheduledId,
          type: 'main',
          stamp_start: tomorrow + 9 * HOUR,
          stamp_end: tomorrow + 12 * HOUR,
          stop_kind: null,
        },
        { id: set?.id, type: 'photo', stamp_start: null, stamp_end: end, stop_kind: null },
      ]);
      await expect(status.innerText()).resolves.toContain(
        `Card set! #${set!.id} Photographer until ${formatWhen(end, await dbNow(emulator), 'UTC')}.`,
      );
      const nowLine = page.getByTestId('now-line');
      await nowLine.getByText('visitors get Photographer until').waitFor();

      // End it: End now is above the form. It asks first, in a dialog that takes the focus
      // (on its safe answer): Tab to its Yes.
      await tabTo('button', 'End now', true);
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'End now?' }).waitFor();
      await tabTo('button', 'Yes, end it');
      await page.keyboard.press('Enter');
      const outcome = page.getByTestId('change-outcome');
      await outcome.getByText(`Ended now (#${set!.id} stopped).`).waitFor();
      await nowLine.getByText('visitors get the main site').waitFor();
      stored = await rows();
      expect(stored.map((row) => [row.id, row.stop_kind])).toEqual([
        [scheduledId, null],
        [set!.id, 'ended'],
      ]);
      await expect(page.getByRole('button', { name: 'End now' }).count()).resolves.toBe(0);

      // Cancel the scheduled entry: its button is above the outcome, which has the focus now.
      await tabTo('button', `Cancel entry #${scheduledId}`, true);
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: `Cancel #${scheduledId}?` }).waitFor();
      await tabTo('button', 'Yes, cancel it');
      await page.keyboard.press('Enter');
      await outcome.getByText(`Cancelled #${scheduledId} Main Profile from `).waitFor();
      stored = await rows();
      expect(stored.map((row) => [row.id, row.stop_kind])).toEqual([
        [scheduledId, 'cancelled'],
        [set!.id, 'ended'],
      ]);
      await expect(page.getByRole('button', { name: /^Cancel entry/ }).count()).resolves.toBe(0);
    },
  );
});
