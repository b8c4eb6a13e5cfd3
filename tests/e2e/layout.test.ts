import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { useE2eFixture } from './fixture.js';
import { recordFormChecks, screenshot, signIn } from './harness.js';
import { OWNER } from '../support/accounts.js';

// How the pages look on a phone and on a desktop, and the login form's own checks, in
// Chromium against the built site and an emulator over PGlite.

const WIDTHS = [320, 360, 390, 1280];

/** What the page measures: its scroll width and every element poking out of a `.card`. */
async function overflow(page: Page) {
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
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      sticking,
    };
  })()`);
}

// The functions below run in the page; the tests compile without the DOM library, hence the
// structural types.

/** True when the browser holds the input back as empty although required. */
const valueMissing = (input: Locator) =>
  input.evaluate(
    (element) => (element as { validity?: { valueMissing: boolean } }).validity?.valueMissing,
  );

type Window = { getComputedStyle(element: unknown): { getPropertyValue(name: string): string } };

/** A computed style property of the element. */
const style = (locator: Locator, property: string) =>
  locator.evaluate(
    (element, name) =>
      (globalThis as unknown as Window).getComputedStyle(element).getPropertyValue(name),
    property,
  );

describe('the pages fit phones and desktops', () => {
  // One of the longest zone names, shown in the form's hint and in every stamp.
  const e2e = useE2eFixture({ context: { timezoneId: 'America/Argentina/ComodRivadavia' } });

  test('/manage with a card set has no horizontal scroll at 320-1280 px', async () => {
    const { site, page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, site, OWNER);
    const date = `${new Date().getUTCFullYear() + 1}-06-01`;
    await page.getByLabel('Profile').selectOption({ label: 'Photographer' });
    await page.getByLabel('Date').fill(date);
    await page.getByLabel('Time').fill('18:00');
    await page.getByRole('button', { name: 'Set the card!' }).click();
    await page.getByRole('status').getByText('Card set!').waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const measured = await overflow(page);
      expect(measured.scrollWidth, `scrollWidth at ${width} px`).toBeLessThanOrEqual(
        measured.innerWidth,
      );
      expect(measured.sticking, `outside the card at ${width} px`).toEqual([]);
      // Date and time stay usable: each input is inside the viewport and at least 100 px wide.
      for (const label of ['Date', 'Time']) {
        const box = (await page.getByLabel(label).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        expect(box.width).toBeGreaterThanOrEqual(100);
      }
      if (width === 320 || width === 390) await screenshot(page, `manage-${width}`);
    }
  });

  test('/, /login and /go have no horizontal scroll at 320-1280 px', async () => {
    const { site, page } = e2e;
    // /go waits for its lookup before it redirects: hold the lookup so the page stays put.
    await page.route('**/rest/v1/**', () => {});
    for (const [path, name] of [
      ['', 'home'],
      ['login/', 'login'],
      ['go/', 'go'],
    ] as const) {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(site.route(path));
        await page.getByRole('heading').first().waitFor();
        const measured = await overflow(page);
        expect(measured.scrollWidth, `${name} at ${width} px`).toBeLessThanOrEqual(
          measured.innerWidth,
        );
        expect(measured.sticking, `${name}: outside the card at ${width} px`).toEqual([]);
        if (width === 320) await screenshot(page, `${name}-320`);
      }
    }
  });
});

describe('the login form', () => {
  const e2e = useE2eFixture({ cards: false });

  test('the browser refuses an empty submit: no request, no server message', async () => {
    const { site, page } = e2e;
    const authRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/auth/v1/')) authRequests.push(request.url());
    });
    await page.goto(site.route('login/'));
    const email = page.getByLabel('Email address');
    const password = page.getByLabel('Your Password');
    await expect(email.getAttribute('required')).resolves.not.toBeNull();
    await expect(password.getAttribute('required')).resolves.not.toBeNull();

    const checks = await recordFormChecks(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(valueMissing(email)).resolves.toBe(true);
    // A password alone is refused the same way; an email alone waits for the password.
    await password.fill('some password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await email.fill(OWNER.email);
    await password.fill('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(valueMissing(password)).resolves.toBe(true);
    // First the refusals themselves: the browser flagged the empty field of each of the three
    // submits and never submitted the form, so the Auth UI had nothing to send.
    await expect
      .poll(async () => (await checks()).invalid)
      .toEqual(['email', 'password', 'email', 'password']);
    expect((await checks()).submitted).toBe(0);
    expect(authRequests).toEqual([]);
    await expect(page.getByText('missing email or phone').count()).resolves.toBe(0);
    expect(new URL(page.url()).pathname).toBe('/login/');
    await screenshot(page, 'login-empty-submit');
    // And the recording sees a submit that does go out: a complete form sends one request.
    await password.fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid login credentials').waitFor();
    expect((await checks()).submitted).toBe(1);
    expect(authRequests).toHaveLength(1);
  });

  test('looks like the rest of the site: its font, green button, bold labels', async () => {
    const { site, page } = e2e;
    await page.goto(site.route('login/'));
    // Polled: the Auth UI injects its styles at run time, and its button fades between colours,
    // so a loaded machine may read them mid-way.
    const bodyFont = await style(page.locator('body'), 'font-family');
    const button = page.getByRole('button', { name: 'Sign in' });
    // The site's --accent, #17704a (white on it: 6.1:1, WCAG AA).
    await expect
      .poll(() => style(button, 'background-color'), { timeout: 5000 })
      .toMatch(/^rgba?\(23, 112, 74(, 1)?\)$/);
    await expect.poll(() => style(button, 'font-family'), { timeout: 5000 }).toBe(bodyFont);
    await expect.poll(() => style(button, 'font-weight'), { timeout: 5000 }).toBe('600');
    await expect.poll(() => style(button, 'border-radius'), { timeout: 5000 }).toBe('6px');
    const label = page.locator('label[for="email"]');
    await expect.poll(() => style(label, 'font-weight'), { timeout: 5000 }).toBe('600');
    await expect
      .poll(() => style(label, 'color'), { timeout: 5000 })
      .toMatch(/^rgba?\(28, 31, 36(, 1)?\)$/);
    await expect.poll(() => style(label, 'font-family'), { timeout: 5000 }).toBe(bodyFont);
    await expect.poll(() => style(page.getByLabel('Email address'), 'border-radius')).toBe('6px');
    // The spec's strings are unchanged.
    await expect(label.innerText()).resolves.toBe('Email address');
    await expect(page.locator('label[for="password"]').innerText()).resolves.toBe('Your Password');
    await screenshot(page, 'login-styled');
  });
});
