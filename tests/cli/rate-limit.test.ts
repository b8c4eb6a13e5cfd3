import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestEmulator } from '../support/emulator.js';
import { buildAndServeSite, launchBrowser, type ServedSite } from '../e2e/harness.js';
import { removeDir, run, tempConfigDir } from './helpers.js';
import { emulatorEnv, type Emulator } from './emulator.js';
import { OWNER } from '../support/accounts.js';

// When the server limits sign-ins (GoTrue's 429 over_request_rate_limit), the owner reads the
// server's message: the CLI exits 1 and says when to try again; /login shows it in its danger
// box.
describe('a sign-in limit reached', () => {
  let emulator: Emulator;
  let dir: string;
  beforeAll(async () => {
    emulator = await startTestEmulator('pglite', { owner: OWNER, rateLimits: { signIn: 2 } });
  });
  afterAll(async () => {
    await emulator?.stop();
  });
  beforeEach(async () => {
    dir = await tempConfigDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('the CLI shows the server message, says to wait, and exits 1; the login page shows it too', async () => {
    const login = (password: string) =>
      run(dir, ['login', '--email', OWNER.email, '--password-stdin'], {
        env: emulatorEnv(emulator),
        input: `${password}\n`,
      });
    expect((await login('wrong 1')).exitCode).toBe(1);
    expect((await login('wrong 2')).exitCode).toBe(1);
    const limited = await login(OWNER.password);
    expect(limited.exitCode).toBe(1);
    expect(limited.stderr).toBe(
      [
        'error: Request rate limit reached',
        'The server limits sign-ins per address and time window: wait a few minutes, then try again',
      ].join('\n'),
    );

    let site: ServedSite | undefined;
    let browser: Browser | undefined;
    try {
      site = await buildAndServeSite({
        SUPABASE_URL: emulator.url,
        SUPABASE_ANON_KEY: emulator.anonKey,
      });
      browser = await launchBrowser();
      const page = await browser.newPage();
      await page.goto(site.route('login/'));
      await page.getByLabel('Email address').fill(OWNER.email);
      await page.getByLabel('Your Password').fill(OWNER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Request rate limit reached').waitFor();
      expect(page.url()).toBe(site.route('login/'));
    } finally {
      await browser?.close();
      await site?.stop();
    }
  });
});
