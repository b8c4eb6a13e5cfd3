import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPort, removeDir, run, summerDate, tempConfigDir } from './helpers.js';
import { login, startEmulator } from './emulator.js';
import { OWNER } from '../support/accounts.js';

// Nothing listens on the API URL: every command that needs the backend says so at once.

let dir: string;
let down: string;

beforeEach(async () => {
  dir = await tempConfigDir();
  down = `http://127.0.0.1:${await deadPort()}`;
});
afterEach(async () => {
  await removeDir(dir);
});

const { date } = summerDate();

/** The error and its hint for an API URL that is not the default emulator's: what to check. */
const cannotReach = (url: string) =>
  [
    `error: Cannot reach ${url}`,
    `Check that ${url} is your project's API URL (from \`--api-url\`, \`SUPABASE_URL\` or the one saved at \`namecard login\`) and that this machine's network reaches it`,
  ].join('\n');

describe('with the backend down', () => {
  it('`status` fails with "Cannot reach <url>" and what to check, exit 1', async () => {
    const result = await run(dir, ['status'], { env: { SUPABASE_URL: down } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(cannotReach(down));
    expect(result.stdout).toBe('');
  });

  it('`list` fails with "Cannot reach <url>" without waiting for retries', async () => {
    const started = Date.now();
    const result = await run(dir, ['list'], { env: { SUPABASE_URL: down } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(cannotReach(down));
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('`set` in CI mode fails with "Cannot reach <url>", exit 1', async () => {
    const result = await run(dir, ['set', 'photo', date, '18:00'], {
      env: { SUPABASE_URL: down, NAMECARD_EMAIL: OWNER.email, NAMECARD_PASSWORD: OWNER.password },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(cannotReach(down));
  });

  it('`set` with a stored session fails with "Cannot reach <url>" at once and keeps the session', async () => {
    const emulator = await startEmulator();
    try {
      await login(emulator, dir, { SUPABASE_URL: emulator.url });
    } finally {
      await emulator.stop();
    }
    const started = Date.now();
    const result = await run(dir, ['set', 'photo', date, '18:00']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(cannotReach(emulator.url));
    expect(Date.now() - started).toBeLessThan(6_000);
    expect((await run(dir, ['whoami'])).exitCode).toBe(0);
  });

  it('the URL given with --api-url is named, with what to check', async () => {
    const result = await run(dir, ['list', '--api-url', down]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(cannotReach(down));
  });

  it('NAMECARD_DEBUG=1 adds the stack', async () => {
    const result = await run(dir, ['status'], {
      env: { SUPABASE_URL: down, NAMECARD_DEBUG: '1' },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`error: Cannot reach ${down}`);
    expect(result.stderr).toMatch(/NetworkError: Cannot reach .*\n\s+at /);
  });
});
