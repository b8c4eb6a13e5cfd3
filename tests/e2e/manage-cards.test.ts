import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DEFAULT_SITE_URL, cardLink } from '../../shared/core/card-link.js';
import { OWNER } from '../support/accounts.js';
import { makeCard, nowMs, person, rpc, type Person } from '../support/cards.js';
import { createTestClient } from '../support/supabase.js';
import { useE2eFixture } from './fixture.js';
import { followGo, screenshot, signIn } from './harness.js';

// /manage for several cards in Chromium: the owner of the card main makes a second one, switches
// to it, invites an editor and a viewer on the page (the code shown once); each accepts on their
// own page; the editor sets the card from the web; the viewer sees it and is offered nothing to
// change; visitors of /go/?c=<slug> land on that card's destination while /go/ keeps main's. Then
// the refusals: a used code, a role too low, the last owner.

const e2e = useE2eFixture({ context: { timezoneId: 'UTC' } });

/** What a page shows after an action is read until it holds, never once right after a click. */
const POLL = { timeout: 10_000 };

/** The card link the site is built with (NAMECARD_SITE_URL's default): the card main's. */
const LINK = cardLink(DEFAULT_SITE_URL);

const EDITOR = { email: 'editor@cards.test', password: 'editor-password-1' };
const VIEWER = { email: 'viewer@cards.test', password: 'viewer-password-1' };

/** The entries of each card, by slug: `main: photo`. */
const entriesByCard = () =>
  e2e.emulator.query<{ slug: string; type: string }>(
    `select c.slug, n.type from public.namecard as n
       join public.namecard_card as c on c.id = n.card_id order by n.id`,
  );

/** The studio card's members, as the database holds them. */
const studioMembers = () =>
  e2e.emulator.query<{ email: string; role: string }>(
    `select u.email, m.role::text as role from private.namecard_member as m
       join auth.users as u on u.id = m.user_id
       join public.namecard_card as c on c.id = m.card_id
     where c.slug = 'studio' order by u.email`,
  );

/** Signs `account` in on a client of its own (the owner's password is not `person()`'s). */
async function signedIn(account: { email: string; password: string }): Promise<Person> {
  const client = createTestClient(e2e.emulator.url, e2e.emulator.anonKey);
  const { data, error } = await client.auth.signInWithPassword(account);
  expect(error).toBeNull();
  return { ...account, client, id: data.user!.id, token: data.session!.access_token };
}

/** Makes an invitation code on the shown card's Members section, and reads it off the page. */
async function inviteOnPage(page: Page, role: 'editor' | 'viewer'): Promise<string> {
  const members = page.getByTestId('members');
  await members.getByLabel('Invite as').selectOption(role);
  await members.getByRole('button', { name: 'Make an invitation code' }).click();
  const made = page.getByTestId('invitation');
  await expect
    .poll(() => made.innerText(), POLL)
    .toContain(`Code for a${role === 'editor' ? 'n' : ''} ${role}:`);
  await expect(made.innerText()).resolves.toContain(
    'This code will not be shown again: copy it now and give it to the person you invite.',
  );
  await expect(made.getByRole('button', { name: 'Copy code' }).count()).resolves.toBe(1);
  return made.getByTestId('invitation-code').innerText();
}

/** Enters a code in "Accept an invitation" and presses Accept. */
async function acceptOnPage(page: Page, code: string): Promise<void> {
  const accept = page.getByTestId('accept');
  await accept.getByLabel('Invitation code').fill(code);
  await accept.getByRole('button', { name: 'Accept', exact: true }).click();
}

/** axe-core's violations on the page as it is now, one line each (as accessibility.test.ts). */
async function axeViolations(page: Page): Promise<string[]> {
  const source = await readFile(
    createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    'utf8',
  );
  await page.evaluate(source);
  const results = (await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run(),
  )) as AxeResults;
  return results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`,
  );
}

/** The page's scroll width and every element poking out of a `.card` (as layout.test.ts). */
function overflow(page: Page) {
  // A string, run in the page (the tests compile without the DOM library).
  return page.evaluate<{ scrollWidth: number; innerWidth: number; sticking: string[] }>(`(() => {
    const sticking = [];
    for (const card of document.querySelectorAll('.card')) {
      const edge = card.getBoundingClientRect();
      for (const element of card.querySelectorAll('*')) {
        const box = element.getBoundingClientRect();
        if (box.width > 0 && (box.left < edge.left - 0.5 || box.right > edge.right + 0.5)) {
          sticking.push(element.tagName.toLowerCase() + '.' + element.className);
        }
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, sticking };
  })()`);
}

const codes = { editor: '', viewer: '' };

describe('/manage with several cards', () => {
  test('the owner makes a second card, switches to it, and invites an editor and a viewer on the page', async () => {
    const { emulator, page, site } = e2e;
    await makeCard(emulator, await signedIn(OWNER), 'studio', 'Studio');
    await signIn(page, site, OWNER);
    const switcher = page.getByRole('navigation', { name: 'Your cards' });
    await switcher.getByRole('link', { name: 'Studio' }).click();
    await page.waitForURL(site.route('manage/?c=studio'));
    await expect
      .poll(() => switcher.getByRole('link', { name: 'Studio' }).getAttribute('aria-current'), POLL)
      .toBe('page');
    // The card's own link and QR code: /go/?c=studio (main's is the bare /go/).
    await expect
      .poll(() => page.getByTestId('card-link').innerText(), POLL)
      .toBe(`${LINK}?c=studio`);
    await page.getByRole('img', { name: `QR code of ${LINK}?c=studio` }).waitFor();
    const members = page.getByTestId('members');
    await expect
      .poll(() => members.getByRole('listitem').first().innerText(), POLL)
      .toContain(`${OWNER.email} (you) · owner`);
    codes.editor = await inviteOnPage(page, 'editor');
    codes.viewer = await inviteOnPage(page, 'viewer');
    expect(codes.editor).toMatch(/^nci_/);
    expect(codes.viewer).not.toBe(codes.editor);
    await screenshot(page, 'manage-cards-owner');
    // The card main is still there, at /manage/?c=main, with the bare /go/ as its link.
    await switcher.getByRole('link', { name: 'Main card' }).click();
    await page.waitForURL(site.route('manage/?c=main'));
    await expect.poll(() => page.getByTestId('card-link').innerText(), POLL).toBe(LINK);
  });

  test('the studio page with its switcher, members and a code shown is axe clean and fits 320 and 1280 px', async () => {
    const { page, site } = e2e;
    await page.setViewportSize({ width: 320, height: 640 });
    await signIn(page, site, OWNER);
    await page.goto(site.route('manage/?c=studio'));
    await page.getByRole('navigation', { name: 'Your cards' }).waitFor();
    await inviteOnPage(page, 'viewer');
    await page.getByRole('img', { name: /^QR code of / }).waitFor();
    await page.getByTestId('accept').waitFor();
    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const measured = await overflow(page);
      expect(measured.scrollWidth, `scrollWidth at ${width} px`).toBeLessThanOrEqual(
        measured.innerWidth,
      );
      expect(measured.sticking, `outside a card at ${width} px`).toEqual([]);
      expect(await axeViolations(page), `axe at ${width} px`).toEqual([]);
      await screenshot(page, `manage-cards-${width}`);
    }
  });

  test('the owner sees the open codes, never a code, and revokes the newest after saying yes: it is refused then', async () => {
    const { emulator, page, site } = e2e;
    await signIn(page, site, OWNER);
    await page.goto(site.route('manage/?c=studio'));
    const code = await inviteOnPage(page, 'viewer');
    const invites = page.getByTestId('invites');
    const newest = invites.getByRole('listitem').first();
    await expect
      .poll(() => newest.innerText(), POLL)
      .toContain(`A code for a viewer, made by ${OWNER.email}`);
    await expect(invites.innerText()).resolves.not.toContain(code.slice(4));
    await newest.getByRole('button', { name: /^Revoke the code for a viewer/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this invitation code?' });
    await dialog.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect
      .poll(() => invites.getByRole('status').innerText(), POLL)
      .toBe('Revoked the code for a viewer: it works no more.');
    const [latest] = await emulator.query<{ revoked: boolean }>(
      'select revoked_at is not null as revoked from private.namecard_invitation order by id desc limit 1',
    );
    expect(latest?.revoked).toBe(true);
    const taker = await person(emulator, 'revoked-taker@cards.test');
    const tried = await rpc(emulator, taker, 'namecard_member_accept', { code });
    expect(tried.status).toBe(404);
  });

  test('the editor accepts on the web, gets the studio card at /manage/ and sets it; the viewer sees it and may change nothing; /go follows each card', async () => {
    const { emulator, page, site, cards } = e2e;
    await emulator.createUser(EDITOR.email, EDITOR.password);
    await emulator.createUser(VIEWER.email, VIEWER.password);
    await emulator.query('delete from public.namecard');

    // The editor, a member of no card yet, accepts the code on /manage.
    await signIn(page, site, EDITOR);
    await acceptOnPage(page, codes.editor);
    const accepted = page.getByTestId('accept').getByRole('status');
    await expect
      .poll(() => accepted.innerText(), POLL)
      .toBe('Accepted: you are now an editor of Studio (studio). Open Studio');
    // The bare /manage/ of a user who is a member of the studio card alone shows that card.
    await page.goto(site.route('manage/'));
    await page
      .getByTestId('current-card')
      .getByText(/visitors get/)
      .waitFor();
    await expect(page.getByTestId('card-link').innerText()).resolves.toBe(`${LINK}?c=studio`);
    await expect(page.getByText('This account may not change any card').count()).resolves.toBe(0);
    // An editor sets; profiles and members are the owners'.
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByRole('button', { name: 'for 2 h' }).click();
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await page.getByRole('status').getByText('Card set!').waitFor();
    expect(await entriesByCard()).toEqual([{ slug: 'studio', type: 'photo' }]);
    await expect(page.getByTestId('members').count()).resolves.toBe(0);
    await expect(page.locator('section.profiles').count()).resolves.toBe(0);
    await screenshot(page, 'manage-cards-editor');

    // The viewer accepts and sees the card as the editor left it, with nothing to change.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(site.route('login/'));
    await signIn(page, site, VIEWER);
    await acceptOnPage(page, codes.viewer);
    await page.getByTestId('accept').getByRole('link', { name: 'Open Studio' }).click();
    await page.waitForURL(site.route('manage/?c=studio'));
    await expect
      .poll(() => page.getByTestId('now-line').innerText(), POLL)
      .toMatch(/^Now visitors get Photographer until /);
    await expect(page.getByTestId('read-only').innerText()).resolves.toBe(
      'You are a viewer of this card: you see it, and change nothing.',
    );
    for (const name of ['Set the card!', 'End now', 'Make an invitation code']) {
      await expect(page.getByRole('button', { name }).count(), name).resolves.toBe(0);
    }
    await screenshot(page, 'manage-cards-viewer');

    // Visitors: the studio's link lands on its photo destination, the bare /go/ on the main site.
    expect((await followGo(page, site, cards, undefined, 'go/?c=studio')).landing.path).toBe(
      '/photo',
    );
    expect((await followGo(page, site, cards)).landing.path).toBe('/');
    expect(await studioMembers()).toEqual([
      { email: EDITOR.email, role: 'editor' },
      { email: OWNER.email, role: 'owner' },
      { email: VIEWER.email, role: 'viewer' },
    ]);
  });

  test("a used code in the accept field shows the server's refusal, and makes no member", async () => {
    const { emulator, page, site } = e2e;
    const latecomer = { email: 'latecomer@cards.test', password: 'latecomer-password-1' };
    await emulator.createUser(latecomer.email, latecomer.password);
    await signIn(page, site, latecomer);
    await acceptOnPage(page, codes.editor);
    const accept = page.getByTestId('accept');
    await expect
      .poll(() => accept.getByRole('alert').innerText(), POLL)
      .toMatch(
        /^Not accepted: This invitation code is not valid: it may have expired, been used or been revoked/,
      );
    expect((await studioMembers()).map((m) => m.email)).not.toContain(latecomer.email);
  });

  test("a viewer's page offers no write: no form, no End now, no Cancel, no Members, no Profiles", async () => {
    const { emulator, page, site } = e2e;
    // Something to end and something to cancel on the studio card, as an editor would leave it.
    const now = await nowMs(emulator);
    await emulator.query(
      `insert into public.namecard (card_id, type, stamp_start, stamp_end)
       select id, 'photo', $1::bigint, $2::bigint from public.namecard_card where slug = 'studio'`,
      [now + 3_600_000, now + 7_200_000],
    );
    await signIn(page, site, VIEWER);
    await page.goto(site.route('manage/?c=studio'));
    await page.getByTestId('read-only').waitFor();
    await expect
      .poll(() => page.getByTestId('current-card').innerText(), POLL)
      .toContain('Entries that still count');
    await expect(page.getByRole('button', { name: /^Cancel/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'End now' }).count()).resolves.toBe(0);
    await expect(
      page.locator('form.card-form').filter({ hasText: 'Profile' }).count(),
    ).resolves.toBe(0);
    await expect(page.getByTestId('members').count()).resolves.toBe(0);
    await expect(page.locator('section.profiles').count()).resolves.toBe(0);
  });

  test('the last owner is asked before giving themselves a lower role, and the server refuses it', async () => {
    const { page, site } = e2e;
    await signIn(page, site, OWNER);
    await page.goto(site.route('manage/?c=studio'));
    const mine = page.getByTestId(`member-${OWNER.email}`);
    await mine.getByLabel(`Role of ${OWNER.email}`).selectOption('editor');
    await mine.getByRole('button', { name: 'Change role' }).click();
    const dialog = page.getByRole('dialog', { name: 'Become an editor of Studio?' });
    await dialog.getByRole('button', { name: 'Yes, change my role' }).click();
    await expect
      .poll(() => page.getByTestId('members').getByRole('alert').innerText(), POLL)
      .toMatch(/^Not changed: A card keeps at least one owner: make another member an owner first/);
    expect(await studioMembers()).toContainEqual({ email: OWNER.email, role: 'owner' });
  });

  test('the owner removes the viewer after saying yes, and the viewer is then shown no studio card', async () => {
    const { page, site } = e2e;
    await signIn(page, site, OWNER);
    await page.goto(site.route('manage/?c=studio'));
    await page.getByRole('button', { name: `Remove ${VIEWER.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${VIEWER.email}?` });
    await dialog.getByRole('button', { name: 'Yes, remove', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('members').getByRole('status').innerText(), POLL)
      .toBe(`Removed ${VIEWER.email}.`);
    expect((await studioMembers()).map((m) => m.email)).toEqual([EDITOR.email, OWNER.email]);
    // The viewer's page now holds no card: no studio card, no form.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(site.route('login/'));
    await signIn(page, site, VIEWER);
    await page.goto(site.route('manage/?c=studio'));
    await page.getByText('This account may not change any card').waitFor();
    await expect(page.getByTestId('current-card').count()).resolves.toBe(0);
  });
});
