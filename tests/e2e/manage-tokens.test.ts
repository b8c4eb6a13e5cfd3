import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER } from '../support/accounts.js';
import { join, makeCard, person, type Person } from '../support/cards.js';
import { createTestClient } from '../support/supabase.js';
import { removeDir, run, tempConfigDir } from '../cli/helpers.js';
import { useE2eFixture } from './fixture.js';
import { screenshot, signIn } from './harness.js';

// /manage's Tokens section in Chromium: the owner of a card makes a token on the page,
// sees its secret once, with Copy and the sentence that it will not be shown again; the list
// then shows the token's role, creator, last use and expiry and never the secret; a script with
// only NAMECARD_TOKEN (the built CLI, no config folder) sets the card with it; Revoke asks first,
// and after it the script is refused. An editor and a viewer of the card are offered no Tokens
// section. The tests run in order, on one emulator.

const e2e = useE2eFixture({ context: { timezoneId: 'UTC' } });

/** What a page shows after an action is read until it holds, never once right after a click. */
const POLL = { timeout: 10_000 };

const TOKEN_FORM = /^nct_[A-Za-z0-9_-]{32}$/;

let owner: Person;
let scriptHome: string;
let secret = '';

beforeAll(async () => {
  const signedIn = createTestClient(e2e.emulator.url, e2e.emulator.anonKey);
  const { data, error } = await signedIn.auth.signInWithPassword(OWNER);
  expect(error).toBeNull();
  owner = { ...OWNER, client: signedIn, id: data.user!.id, token: data.session!.access_token };
  await makeCard(e2e.emulator, owner, 'studio', 'Studio');
  scriptHome = await tempConfigDir();
});

afterAll(async () => {
  await removeDir(scriptHome);
});

/** `namecard <args>` as a CI script: NAMECARD_TOKEN only, a config folder that is never made. */
function script(token: string, args: string[]) {
  return run(path.join(scriptHome, 'never-made'), args, {
    env: {
      SUPABASE_URL: e2e.emulator.url,
      SUPABASE_ANON_KEY: e2e.emulator.anonKey,
      NAMECARD_TOKEN: token,
    },
  });
}

/** The studio card's entries, as the database holds them. */
const studioEntries = () =>
  e2e.emulator.query<{ type: string }>(
    `select n.type from public.namecard as n
       join public.namecard_card as c on c.id = n.card_id where c.slug = 'studio' order by n.id`,
  );

/** Opens the studio card's /manage as the owner, with its Tokens section drawn. */
async function openStudio(page: Page) {
  await signIn(page, e2e.site, OWNER);
  await page.goto(e2e.site.route('manage/?c=studio'));
  await page.getByTestId('tokens').getByRole('button', { name: 'Create token' }).waitFor();
  return page.getByTestId('tokens');
}

/** Fills and sends the Create a token form; answers the secret read off the page. */
async function createOnPage(
  page: Page,
  name: string,
  role: 'editor' | 'viewer',
  valid: string,
): Promise<string> {
  const tokens = page.getByTestId('tokens');
  await tokens.getByLabel('Token name').fill(name);
  await tokens.getByLabel('Token role').selectOption(role);
  await tokens.getByLabel('Token works for').selectOption({ label: valid });
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const made = page.getByTestId('made-token');
  await expect.poll(() => made.innerText(), POLL).toContain(`Token ${name}, a`);
  await expect(made.innerText()).resolves.toContain(
    'This token will not be shown again: copy it now and store it as a secret',
  );
  await expect(made.getByRole('button', { name: 'Copy token' }).count()).resolves.toBe(1);
  return made.getByTestId('token-secret').innerText();
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

describe("/manage's Tokens section", () => {
  test('the owner makes an editor token: its secret is shown once, the list shows no secret, and a script sets the card with it', async () => {
    const { page } = e2e;
    const tokens = await openStudio(page);
    await expect
      .poll(() => tokens.getByTestId('no-tokens').innerText(), POLL)
      .toBe('This card has no tokens.');
    secret = await createOnPage(page, 'github-actions', 'editor', '90 days');
    expect(secret).toMatch(TOKEN_FORM);
    const row = tokens.getByTestId('token-github-actions');
    await expect
      .poll(() => row.innerText(), POLL)
      .toMatch(
        new RegExp(
          `^github-actions · editor\\s+Made by ${OWNER.email} today \\d\\d:\\d\\d · last used never · expires \\w{3} \\d+ \\w{3}`,
        ),
      );
    await screenshot(page, 'manage-tokens-made');

    // Opened again, the page lists the token and shows its secret nowhere.
    await page.reload();
    await row.waitFor();
    await expect(page.getByTestId('made-token').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(secret);

    // A script with only the token sets the studio card.
    const set = await script(secret, ['set', 'photo', '--for', '2h']);
    expect(set.stderr).toBe('');
    expect(set.exitCode).toBe(0);
    expect(await studioEntries()).toEqual([{ type: 'photo' }]);
    await page.reload();
    await expect
      .poll(() => row.innerText(), POLL)
      .toMatch(/· last used today \d\d:\d\d · expires /);
  });

  test('a viewer token that never expires is listed so; a bad name is refused on the form, naming the field', async () => {
    const { page } = e2e;
    const tokens = await openStudio(page);
    const viewer = await createOnPage(page, 'dashboard', 'viewer', 'Never expires');
    expect(viewer).toMatch(TOKEN_FORM);
    expect(viewer).not.toBe(secret);
    await expect
      .poll(() => tokens.getByTestId('token-dashboard').innerText(), POLL)
      .toMatch(/^dashboard · viewer\s+Made by .* · last used never · expires never\b/);
    await tokens.getByLabel('Token name').fill('two words');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    await expect
      .poll(() => tokens.getByRole('alert').innerText(), POLL)
      .toMatch(/^Name: 1 to 40 of A-Z, a-z, 0-9, \., _ and -/);
    await expect(page.getByTestId('made-token').count()).resolves.toBe(0);
    const names = await e2e.emulator.query<{ name: string }>(
      'select name from private.namecard_token order by id',
    );
    expect(names.map((n) => n.name)).toEqual(['github-actions', 'dashboard']);
  });

  test('the section with a secret shown is axe clean and fits 320 and 1280 px', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 320, height: 640 });
    await openStudio(page);
    await createOnPage(page, 'layout-check', 'viewer', '30 days');
    await page.getByRole('img', { name: /^QR code of / }).waitFor();
    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const measured = await overflow(page);
      expect(measured.scrollWidth, `scrollWidth at ${width} px`).toBeLessThanOrEqual(
        measured.innerWidth,
      );
      expect(measured.sticking, `outside a card at ${width} px`).toEqual([]);
      expect(await axeViolations(page), `axe at ${width} px`).toEqual([]);
      await screenshot(page, `manage-tokens-${width}`);
    }
  });

  test('Revoke asks first: No keeps the token; Yes revokes it, and the script is refused from then on', async () => {
    const { page } = e2e;
    const tokens = await openStudio(page);
    const row = tokens.getByTestId('token-github-actions');
    await row.getByRole('button', { name: 'Revoke github-actions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the token github-actions?' });
    await dialog.getByRole('button', { name: 'No, keep it' }).click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    expect((await script(secret, ['end'])).exitCode).toBe(0);

    await row.getByRole('button', { name: 'Revoke github-actions' }).click();
    await dialog.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect
      .poll(() => tokens.getByRole('status').innerText(), POLL)
      .toBe('Revoked the token github-actions: it works no more.');
    await expect.poll(() => row.count(), POLL).toBe(0);
    const refused = await script(secret, ['set', 'photo', '--for', '1h']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('The token github-actions was revoked');
    expect((await studioEntries()).length).toBe(1);
  });

  test('an editor and a viewer of the card are offered no Tokens section', async () => {
    const { emulator, page, site } = e2e;
    for (const role of ['editor', 'viewer'] as const) {
      const member = await person(emulator, `${role}@tokens.test`);
      await join(emulator, owner, member, 'studio', role);
      await signIn(page, site, { email: member.email, password: `${member.email}-password` });
      await page.goto(site.route('manage/?c=studio'));
      // "Accept an invitation" comes in the same chunk as the owners' sections.
      await page.getByTestId('accept').waitFor();
      await page.getByTestId('current-card').waitFor();
      await expect(page.getByTestId('tokens').count(), role).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Create token' }).count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL(site.route('login/'));
    }
  });
});
