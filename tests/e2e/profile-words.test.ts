import type { Locator } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { dbNow } from '../support/emulator.js';
import { cardRowId, insertEntry } from '../support/entries.js';
import { useE2eFixture } from './fixture.js';
import { OWNER } from '../support/accounts.js';
import { screenshot, signIn } from './harness.js';

// The Profiles section and the Visits box of /manage in Chromium, at a phone's and a desktop's
// width: Remove asks first; a profile in use is said next to its Remove button, with
// the ids in the way and a button to each one's Cancel; a name taken is said under the add
// form with what exists; the Visits box names each profile by its label.

const HOUR = 3_600_000;
// What the page shows after an action is read until it holds (a loaded machine renders late),
// never once right after the click.
const POLL = { timeout: 10_000 };
const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

/** An element's box; fails when it has none (not rendered). */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`no box for ${locator.toString()}`);
  return found;
}

describe.each(WIDTHS)('profiles on /manage at $width px', (viewport) => {
  const e2e = useE2eFixture({
    context: { timezoneId: 'UTC', locale: 'en-US', viewport },
    clearRows: true,
  });
  beforeEach(async () => {
    const { emulator } = e2e;
    await emulator.query('delete from public.namecard_series_stop');
    await emulator.query('delete from public.namecard_series');
    await emulator.query('truncate public.namecard_visit');
    await emulator.query('alter table public.namecard_profile disable trigger user');
    await emulator.query(`delete from public.namecard_profile where name not in ('main', 'photo')`);
    await emulator.query('alter table public.namecard_profile enable trigger user');
    await emulator.query(
      `insert into public.namecard_profile (card_id, name, label, url)
       values ($2, 'shop', 'Summer Sale', $1)`,
      [`${e2e.cards.url}shop`, await cardRowId(emulator)],
    );
  });
  const removed = async () =>
    (
      await e2e.emulator.query<{ removed: boolean }>(
        `select removed_at is not null as removed from public.namecard_profile where name = 'shop'`,
      )
    )[0]!.removed;

  test('Remove asks first; in use, it says so next to the button, with a way to each Cancel', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    const id = await insertEntry(emulator, 'shop', null, now + HOUR);
    await signIn(page, site, OWNER);
    const item = page.getByTestId('profile-shop');
    const remove = item.getByRole('button', { name: 'Remove Summer Sale' });
    await remove.click();
    const dialog = page.getByRole('dialog', { name: 'Remove Summer Sale?' });
    await expect
      .poll(() => dialog.innerText(), POLL)
      .toContain(
        'Summer Sale (shop) will no longer be offered: no new entry or series can name it.',
      );
    await dialog.getByRole('button', { name: 'No, keep it' }).click();
    expect(await removed()).toBe(false);

    await remove.click();
    await dialog.getByRole('button', { name: 'Yes, remove it' }).click();
    const refusal = item.getByRole('alert');
    await expect
      .poll(() => refusal.innerText(), POLL)
      .toMatch(
        new RegExp(
          `^Profile "shop" is in use: entry ${id} still names it\\. Cancel it first with its Cancel button, or wait until it ends; then remove Summer Sale\\.\\s+Show entry #${id}$`,
        ),
      );
    expect(await removed()).toBe(false);
    // Said next to the button that was used, not somewhere else on the page.
    const gap = (await box(refusal)).y - ((await box(remove)).y + (await box(remove)).height);
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThan(40);
    await screenshot(page, `manage-profile-in-use-${viewport.width}`);

    // The way forward: the entry's Cancel, in the timeline's list, takes the focus.
    await refusal.getByRole('button', { name: `Show entry #${id}` }).click();
    const cancel = page.getByRole('button', { name: `Cancel entry #${id}` });
    await expect
      .poll(() => cancel.evaluate((el) => el === el.ownerDocument.activeElement), POLL)
      .toBe(true);
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog', { name: `Cancel #${id}?` })
      .getByRole('button', { name: 'Yes, cancel it' })
      .click();
    // Named by its label there too, and in the history: one display name everywhere.
    await page
      .getByTestId('change-outcome')
      .getByText(`Cancelled #${id} Summer Sale until`)
      .waitFor();
    await page.getByText(/^History/).click();
    await page
      .getByRole('list', { name: 'History' })
      .getByText(`#${id} Summer Sale until`)
      .waitFor();

    await remove.click();
    await dialog.getByRole('button', { name: 'Yes, remove it' }).click();
    await page
      .getByTestId('profiles-outcome')
      .getByText('Removed Summer Sale (shop): no new entry can name it; past entries keep it.')
      .waitFor();
    expect(await removed()).toBe(true);
  });

  test('a name taken is said under the add form, with what exists and how to change it', async () => {
    const { page, site, cards } = e2e;
    await signIn(page, site, OWNER);
    const add = page.getByRole('form', { name: 'Add a destination' });
    await page.getByTestId('profile-shop').waitFor();
    await add.getByLabel('Name').fill('shop');
    await add.getByLabel('Destination').fill(`${cards.url}other`);
    await add.getByRole('button', { name: 'Add the profile' }).click();
    await expect(add.getByRole('status').innerText()).resolves.toBe(
      `Not added: Profile "shop" exists already: Summer Sale, ${cards.url}shop. Change it with its Edit button, or choose another name.`,
    );
  });

  test('the Visits box names each profile by its label', async () => {
    const { emulator, page, site } = e2e;
    const now = await dbNow(emulator);
    await emulator.query(
      `insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
       values ($2, $1, 'shop', 'qr', 4, 4), ($2, $1, 'main', 'link', 1, 1)`,
      [now - (now % 900_000), await cardRowId(emulator)],
    );
    await signIn(page, site, OWNER);
    const totals = page.getByTestId('visits-by-via');
    await totals.waitFor();
    await expect(totals.innerText()).resolves.toContain(
      'Main Profile: 1, Photographer: 0, Summer Sale: 4',
    );
  });
});
