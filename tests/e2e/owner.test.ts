import { describe, expect, test } from 'vitest';
import { formatWhen } from '../../shared/core/format.js';
import { useE2eFixture } from './fixture.js';
import { recordFormChecks, screenshot, signIn } from './harness.js';
import { OWNER, STRANGER } from '../support/accounts.js';

// The owner's side in a real browser: login, the manage form, logout; against the built site
// and an emulator over PGlite.

describe('the owner signs in, sets the card and logs out', () => {
  const e2e = useE2eFixture({ context: { timezoneId: 'Asia/Tokyo' } });

  const rows = () =>
    e2e.emulator.query<{ id: number; type: string; stamp_end: number }>(
      'select id, type, stamp_end from public.namecard order by id',
    );

  test('/manage without a session goes to /login, titled "Login | Namecard"', async () => {
    const { site, page } = e2e;
    await page.goto(site.route('manage/'));
    await page.waitForURL(site.route('login/'));
    await expect(page.title()).resolves.toBe('Login | Namecard');
  });

  test('the login form is the sign-in view only: email, password, no links, no providers', async () => {
    const { site, page } = e2e;
    await page.goto(site.route('login/'));
    await expect(page.getByLabel('Email address').getAttribute('type')).resolves.toBe('email');
    await expect(page.getByLabel('Your Password').getAttribute('type')).resolves.toBe('password');
    await expect(page.getByRole('button', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('form a').count()).resolves.toBe(0);
    await expect(page.getByRole('button').count()).resolves.toBe(1);
    await screenshot(page, 'login');
  });

  test('a wrong password shows the server message in the danger box and stays on /login', async () => {
    const { site, page } = e2e;
    await page.goto(site.route('login/'));
    await page.getByLabel('Email address').fill(OWNER.email);
    await page.getByLabel('Your Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(
      page.getByText('Invalid login credentials').waitFor({ timeout: 10_000 }),
    ).resolves.toBeUndefined();
    expect(new URL(page.url()).pathname).toBe('/login/');
    await screenshot(page, 'login-error');
  });

  test('the right password lands on /manage, titled "Manage | Namecard", with Logout at top right', async () => {
    const { site, page } = e2e;
    await signIn(page, site, OWNER);
    await expect(page.title()).resolves.toBe('Manage | Namecard');
    const logout = page.getByRole('button', { name: 'Logout' });
    await logout.waitFor();
    const box = (await logout.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.x + box.width).toBeGreaterThan(viewport.width - 60);
    expect(box.y).toBeLessThan(60);
    // A session at load sends /login straight on to /manage.
    await page.goto(site.route('login/'));
    await page.waitForURL(site.route('manage/'));
  });

  test('the form has the specified fields, all required', async () => {
    const { site, page } = e2e;
    await signIn(page, site, OWNER);
    // The browser enforces `required` (spec §5); the attributes are what it reads.
    const select = page.getByLabel('Profile');
    await expect(select.getAttribute('required')).resolves.not.toBeNull();
    const options = select.locator('option');
    await expect(options.allTextContents()).resolves.toEqual([
      'Selecting profile..',
      'Main Profile',
      'Photographer',
    ]);
    const values = await Promise.all([0, 1, 2].map((i) => options.nth(i).getAttribute('value')));
    expect(values).toEqual(['', 'main', 'photo']);
    await expect(select.inputValue()).resolves.toBe('');
    for (const [label, type] of [
      ['Date', 'date'],
      ['Time', 'time'],
    ] as const) {
      await expect(page.getByLabel(label).getAttribute('type')).resolves.toBe(type);
      await expect(page.getByLabel(label).getAttribute('required')).resolves.not.toBeNull();
    }

    // The browser refuses an incomplete form: nothing is stored.
    const before = await rows();
    const checks = await recordFormChecks(page);
    await page.getByRole('button', { name: 'Set the card!' }).click();
    // First the refusal itself: the browser flagged the empty fields and never submitted the
    // form, so the page had nothing to send.
    await expect.poll(async () => (await checks()).invalid).toEqual(['profile', 'date', 'time']);
    expect((await checks()).submitted).toBe(0);
    expect(await rows()).toEqual(before);
  });

  test('in Asia/Tokyo, Photographer on a future date at 18:00 stores exactly that instant and says so', async () => {
    const { site, page } = e2e;
    const year = new Date().getUTCFullYear() + 1;
    const date = `${year}-06-01`;
    const expected = Date.UTC(year, 5, 1, 9, 0); // 18:00 in Tokyo (UTC+9, no DST)

    await signIn(page, site, OWNER);
    await page
      .getByTestId('current-card')
      .getByText(/visitors/i)
      .waitFor();
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByLabel('Date').fill(date);
    await page.getByLabel('Time').fill('18:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();

    const status = page.getByRole('status');
    await status.getByText('Card set!').waitFor();
    const last = (await rows()).at(-1)!;
    expect(last.type).toBe('photo');
    expect(Number(last.stamp_end)).toBe(expected);
    // Times read at a glance in the browser's zone, which the page names once, at the top.
    const shown = formatWhen(expected, Date.now(), 'Asia/Tokyo');
    await expect(page.getByTestId('zone-header').innerText()).resolves.toBe(
      'Times in Asia/Tokyo (UTC+09:00)',
    );
    await expect(status.innerText()).resolves.toMatch(
      new RegExp(
        `^Card set! #${last.id} Photographer until ${shown}\\. Visitors now get Photographer until ${shown} \\(in \\d+ days\\)\\. Then the main site from ${shown}\\.$`,
      ),
    );
    // The current card above the form is read again after the insert.
    await expect(page.getByTestId('current-card').innerText()).resolves.toContain(
      `visitors get Photographer until ${shown}`,
    );
    await screenshot(page, 'manage');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'manage-phone');
  });

  test('an account that is not an owner is told so instead of getting the form', async () => {
    const { emulator, site, page } = e2e;
    await emulator.createUser(STRANGER.email, STRANGER.password);
    const before = await rows();
    await signIn(page, site, STRANGER);
    const alert = page.getByRole('alert');
    await alert.getByText('This account may not change any card').waitFor();
    await expect(alert.innerText()).resolves.toBe(
      'This account may not change any card: it is a member of none. Accept an invitation below, or log out and sign in as an owner or editor of a card.',
    );
    await expect(page.getByRole('button', { name: 'Set the card!' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Logout' }).count()).resolves.toBe(1);
    expect(await rows()).toEqual(before);
    await screenshot(page, 'manage-not-owner');
  });

  test('Logout goes to /login, and /manage then sends you back to /login', async () => {
    const { site, page } = e2e;
    await signIn(page, site, OWNER);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(site.route('login/'));
    await page.goto(site.route('manage/'));
    await page.waitForURL(site.route('login/'));
    await expect(page.getByRole('button', { name: 'Logout' }).count()).resolves.toBe(0);
  });
});
