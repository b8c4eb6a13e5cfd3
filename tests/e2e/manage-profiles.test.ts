import { expect, test } from 'vitest';
import { useE2eFixture } from './fixture.js';
import { followGo, screenshot, signIn } from './harness.js';
import { OWNER } from '../support/accounts.js';
import { insertEntry } from '../support/entries.js';

// The Profiles section of /manage in a real browser: the owner adds a profile, the set form
// offers it at once, and /go (built once) follows it; refusals are said in words before anything
// is sent (a destination on an origin /go does not follow) or in the server's words (in use).

const e2e = useE2eFixture({ clearRows: true });

const profileRows = () =>
  e2e.emulator.query<{ name: string; label: string; url: string | null; removed: boolean }>(
    `select name, label, url, removed_at is not null as removed from public.namecard_profile order by name`,
  );

// What the page shows after an action is read until it holds (a loaded machine renders late),
// never once right after the click.
const POLL = { timeout: 10_000 };

test('add a profile, set it from the form, and /go lands on its destination', async () => {
  const { page, site, cards } = e2e;
  await signIn(page, site, OWNER);
  const section = page.locator('section.profiles');
  await section.getByText('Main Profile', { exact: true }).waitFor();
  await expect
    .poll(() => section.getByText('Photographer', { exact: true }).isVisible(), POLL)
    .toBe(true);

  const add = page.getByRole('form', { name: 'Add a destination' });
  // A destination on an origin this site's /go does not follow is refused before sending.
  await add.getByLabel('Name').fill('shop');
  await add.getByLabel('Label').fill('Shop');
  const elsewhere = new URL(cards.url);
  elsewhere.hostname = 'localhost';
  await add.getByLabel('Destination').fill(`${elsewhere.href}shop`);
  await add.getByRole('button', { name: 'Add the profile' }).click();
  // Said under the add form's button: next to the control that was used.
  const outcome = add.getByRole('status');
  await expect
    .poll(() => outcome.innerText(), POLL)
    .toBe(
      `Not added: Destination must be on an origin the card's /go follows (${new URL(cards.url).origin}): add ${elsewhere.origin} to NAMECARD_ALLOWED_ORIGINS and rebuild the site first.`,
    );
  expect((await profileRows()).map((p) => p.name)).toEqual(['main', 'photo']);

  await add.getByLabel('Destination').fill(`${cards.url}shop`);
  await add.getByRole('button', { name: 'Add the profile' }).click();
  await outcome.getByText('Added Shop (shop)').waitFor();
  expect(await profileRows()).toContainEqual({
    name: 'shop',
    label: 'Shop',
    url: `${cards.url}shop`,
    removed: false,
  });
  await screenshot(page, 'manage-profiles');

  // The set form offers it now, by its label.
  const select = page.getByLabel('Profile');
  await expect
    .poll(() => select.locator('option').allTextContents(), POLL)
    .toEqual(['Selecting profile..', 'Main Profile', 'Photographer', 'Shop']);
  await select.selectOption('shop');
  await page.getByRole('button', { name: 'for 2 h' }).click();
  await page.getByRole('button', { name: 'Set the card!' }).click();
  await page.getByText(/Card set! #\d+ Shop until/).waitFor();
  // The timeline names it by its row's label, in words and in the picture's legend, in a colour
  // of its own.
  await page
    .getByTestId('now-line')
    .getByText(/visitors get Shop until/)
    .waitFor();
  await expect
    .poll(() => page.locator('.timeline-legend .profile-dot-own').first().innerText(), POLL)
    .toBe('Shop');
  const segment = page.locator('.timeline-segment.profile-own').first();
  // Runs in the page (the tests compile without the DOM library, hence the structural type).
  type Styles = { getComputedStyle(el: unknown): { backgroundColor: string } };
  await expect(
    segment.evaluate(
      (el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor,
    ),
  ).resolves.not.toBe('rgba(0, 0, 0, 0)');

  // In use: Remove asks first, then the server refuses the removal, said next to the
  // button with the entry in the way, and the profile stays.
  await section.getByRole('button', { name: 'Remove Shop' }).click();
  await page
    .getByRole('dialog', { name: 'Remove Shop?' })
    .getByRole('button', { name: 'Yes, remove it' })
    .click();
  await page
    .getByTestId('profile-shop')
    .getByRole('alert')
    .getByText(/Profile "shop" is in use: entry \d+ still names it/)
    .waitFor();
  expect((await profileRows()).find((p) => p.name === 'shop')?.removed).toBe(false);
  // Main is where visitors go when nothing else is set: it offers no Remove at all.
  await expect(section.getByRole('button', { name: 'Remove Main Profile' }).count()).resolves.toBe(
    0,
  );
  await expect(section.getByRole('button', { name: 'Edit Main Profile' }).count()).resolves.toBe(1);

  const visit = await followGo(await e2e.context.newPage(), site, cards);
  expect(visit.finalUrl).toBe(`${cards.url}shop`);
});

test("edit a profile's destination: /go follows the new one with no rebuild", async () => {
  const { page, site, cards } = e2e;
  await insertEntry(e2e.emulator, 'photo', null, Date.now() + 3_600_000);
  await signIn(page, site, OWNER);
  const section = page.locator('section.profiles');
  await section.getByRole('button', { name: 'Edit Photographer' }).click();
  await page
    .getByRole('form', { name: 'Edit Photographer' })
    .getByLabel('Destination')
    .fill(`${cards.url}gallery`);
  await section.getByRole('button', { name: 'Save Photographer' }).click();
  await section.getByText(`Changed Photographer (photo): ${cards.url}gallery.`).waitFor();
  const visit = await followGo(await e2e.context.newPage(), site, cards);
  expect(visit.finalUrl).toBe(`${cards.url}gallery`);
  // Emptied again, photo follows this site's setting (NAMECARD_PHOTO_PATH).
  await section.getByRole('button', { name: 'Edit Photographer' }).click();
  await page.getByRole('form', { name: 'Edit Photographer' }).getByLabel('Destination').fill('');
  await section.getByRole('button', { name: 'Save Photographer' }).click();
  await section
    .getByText(`Changed Photographer (photo): ${cards.url}photo (this site's setting).`)
    .waitFor();
  expect((await profileRows()).find((p) => p.name === 'photo')?.url).toBeNull();
});
