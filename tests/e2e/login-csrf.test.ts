import { expect, test } from 'vitest';
import { useE2eFixture } from './fixture.js';
import { screenshot } from './harness.js';

// Login CSRF through the URL: a link to /login/#access_token=…&refresh_token=… made by someone
// with an account of their own must not sign the visitor's browser in as them (the owner would
// then manage the attacker's card unknowingly). The site signs in with e-mail and password
// only, and never takes a session from the URL.

const ATTACKER = { email: 'attacker@csrf.test', password: 'attacker-password-1' };

const e2e = useE2eFixture();

/** A real session of the attacker's own account, as the API issues it. */
async function attackerSession(): Promise<Record<string, string>> {
  await e2e.emulator.createUser(ATTACKER.email, ATTACKER.password);
  const res = await fetch(`${e2e.emulator.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: e2e.emulator.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(ATTACKER),
  });
  expect(res.status).toBe(200);
  const session = (await res.json()) as Record<string, unknown>;
  return {
    access_token: String(session.access_token),
    refresh_token: String(session.refresh_token),
    expires_in: String(session.expires_in),
    expires_at: String(session.expires_at),
    token_type: 'bearer',
    type: 'magiclink',
  };
}

test("a link carrying another account's tokens signs nobody in, on /login and /manage", async () => {
  const { page, site } = e2e;
  const fragment = new URLSearchParams(await attackerSession()).toString();
  for (const route of ['login/', 'manage/', '']) {
    await page.goto(`${site.route(route)}#${fragment}`);
    // The sign-in form stays (or /manage sends the visitor to it): no session was taken.
    await page.waitForURL((url) => url.pathname.endsWith('/login/') || route === '');
    await page.waitForLoadState('networkidle');
    // A string, evaluated in the page (the test's own types have no DOM).
    const stored = await page.evaluate<string[]>(
      "Object.keys(localStorage).filter((key) => key.includes('auth-token'))",
    );
    expect(stored, route).toEqual([]);
  }
  await page.goto(`${site.route('login/')}#${fragment}`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.waitForTimeout(1000);
  expect(new URL(page.url()).pathname).toBe('/login/');
  await screenshot(page, 'login-csrf');
});
