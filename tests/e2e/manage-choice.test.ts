import { describe, expect, test } from 'vitest';
import { DEFAULT_SITE_URL, cardLink } from '../../shared/core/card-link.js';
import { chooseCard, type CardSummary } from '../../shared/core/cards.js';
import { join, makeCard, person, rpc, type Person } from '../support/cards.js';
import { useE2eFixture } from './fixture.js';
import { screenshot, signIn } from './harness.js';

// Which card /manage opens, in Chromium: the card `?c=` names, else the one card choice the CLI
// makes too (chooseCard over the caller's cards: the only card, then main where a member, then
// the first by slug). The page's heading names the card; its link and its writes are that card's.

const e2e = useE2eFixture({ context: { timezoneId: 'UTC' } });

/** What a page shows after an action is read until it holds, never once right after a click. */
const POLL = { timeout: 10_000 };

/** The card link the site is built with (NAMECARD_SITE_URL's default): the card main's. */
const LINK = cardLink(DEFAULT_SITE_URL);

/** The password `person()` gives an account. */
const account = (who: Person) => ({ email: who.email, password: `${who.email}-password` });

/** The entries of each card, by slug: `studio: photo`. */
const entriesByCard = () =>
  e2e.emulator.query<{ slug: string; type: string }>(
    `select c.slug, n.type from public.namecard as n
       join public.namecard_card as c on c.id = n.card_id order by n.id`,
  );

/** The card the CLI acts on for `who` when no card is named: chooseCard over their cards. */
async function cliChoice(who: Person): Promise<string> {
  const cards = await rpc(e2e.emulator, who, 'namecard_cards');
  expect(cards.status).toBe(200);
  return chooseCard({ cards: cards.body as CardSummary[] }).slug;
}

/** Sets the shown card to Photographer for 2 h from the form, and waits for the outcome. */
async function setPhotoFromForm() {
  const { page } = e2e;
  await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
  await page.getByRole('button', { name: 'for 2 h' }).click();
  await page.getByRole('button', { name: 'Set the card!' }).click();
  await page.getByRole('status').getByText('Card set!').waitFor();
}

describe('the card /manage opens', () => {
  let owner: Person;
  let member: Person;

  test('an editor of studio alone gets studio at the bare /manage/, the card the CLI chooses', async () => {
    const { emulator, page, site } = e2e;
    owner = await person(emulator, 'owner@choice.test');
    await makeCard(emulator, owner, 'studio', 'Studio');
    await makeCard(emulator, owner, 'alpha', 'Alpha');
    const editor = await person(emulator, 'studio-editor@choice.test');
    await join(emulator, owner, editor, 'studio', 'editor');
    expect(await cliChoice(editor)).toBe('studio');

    await signIn(page, site, account(editor));
    expect(page.url()).toBe(site.route('manage/'));
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.innerText(), POLL).toBe('Studio (studio, editor)');
    await expect
      .poll(() => page.getByTestId('card-link').innerText(), POLL)
      .toBe(`${LINK}?c=studio`);
    // One card, named by the heading: nothing to switch to.
    await expect(page.getByRole('navigation', { name: 'Your cards' }).count()).resolves.toBe(0);
    await setPhotoFromForm();
    expect(await entriesByCard()).toEqual([{ slug: 'studio', type: 'photo' }]);
    await screenshot(page, 'manage-choice-only-card');
  });

  test('a member of several cards gets the one ?c= names, and without it the first by slug', async () => {
    const { emulator, page, site } = e2e;
    await emulator.query('delete from public.namecard');
    member = await person(emulator, 'several@choice.test');
    await join(emulator, owner, member, 'studio', 'editor');
    await join(emulator, owner, member, 'alpha', 'viewer');
    expect(await cliChoice(member)).toBe('alpha');

    await signIn(page, site, account(member));
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.innerText(), POLL).toBe('Alpha (alpha, viewer)');
    await page.getByTestId('read-only').waitFor();

    // ?c= names the card, whatever its case; the switcher marks it and the form sets it.
    await page.goto(site.route('manage/?c=Studio'));
    await expect.poll(() => heading.innerText(), POLL).toBe('Studio (studio, editor)');
    const switcher = page.getByRole('navigation', { name: 'Your cards' });
    await expect
      .poll(() => switcher.getByRole('link', { name: 'Studio' }).getAttribute('aria-current'), POLL)
      .toBe('page');
    await expect(switcher.getByRole('link', { name: 'Alpha' }).getAttribute('href')).resolves.toBe(
      '/manage/?c=alpha',
    );
    await expect
      .poll(() => page.getByTestId('card-link').innerText(), POLL)
      .toBe(`${LINK}?c=studio`);
    await setPhotoFromForm();
    expect(await entriesByCard()).toEqual([{ slug: 'studio', type: 'photo' }]);
    await screenshot(page, 'manage-choice-named-card');
  });

  test('a ?c= that names none of the user cards shows no card and no card link', async () => {
    const { page, site } = e2e;
    await signIn(page, site, account(member));
    await page.goto(site.route('manage/?c=nowhere'));
    await page.getByText('None of your cards is called nowhere').waitFor();
    // What loads after the first draw is drawn (the switcher, Accept), and no card with it.
    await page.getByTestId('accept').waitFor();
    await expect(page.getByTestId('current-card').count()).resolves.toBe(0);
    await expect(page.getByTestId('card-link').count()).resolves.toBe(0);
    // The user's cards are offered instead.
    await page
      .getByRole('navigation', { name: 'Your cards' })
      .getByRole('link', { name: 'Studio' })
      .click();
    await page.waitForURL(site.route('manage/?c=studio'));
    await page.getByTestId('current-card').waitFor();
  });

  test('a member of no card is shown no card and no card link', async () => {
    const { emulator, page, site } = e2e;
    const stranger = await person(emulator, 'no-card@choice.test');
    await signIn(page, site, account(stranger));
    await page.getByText('This account may not change any card').waitFor();
    await page.getByTestId('accept').waitFor();
    await expect(page.getByTestId('card-link').count()).resolves.toBe(0);
    await expect(page.getByRole('img', { name: /^QR code of / }).count()).resolves.toBe(0);
    await expect(page.getByTestId('current-card').count()).resolves.toBe(0);
  });
});
