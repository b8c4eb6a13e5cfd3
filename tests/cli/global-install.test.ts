import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from './helpers.js';
import { useCliFixture } from './emulator.js';
import { OWNER } from '../support/accounts.js';

// A global install (`npm install -g .`) runs `namecard` in any folder, where no project `.env`
// is read: `namecard login --api-url … --site-url …` keeps both with the session, so later
// commands anywhere use them (a newcomer logs in once, then works in any folder).

const cli = useCliFixture();

describe('settings kept with the session', () => {
  let elsewhere: string;
  beforeEach(async () => {
    elsewhere = await mkdtemp(path.join(tmpdir(), 'namecard-elsewhere-'));
  });
  afterEach(async () => {
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('`login --api-url --site-url` in one folder; `status` and `link` in another use them', async () => {
    // No SUPABASE_URL or NAMECARD_SITE_URL in the environment: only what login keeps.
    const env = { SUPABASE_ANON_KEY: cli.emulator.anonKey };
    const login = await run(
      cli.dir,
      [
        'login',
        '--api-url',
        cli.emulator.url,
        '--site-url',
        'https://card.example/',
        '--email',
        OWNER.email,
        '--password-stdin',
      ],
      { env, input: `${OWNER.password}\n` },
    );
    expect(login.stderr).toBe('');
    expect(login.exitCode).toBe(0);

    const link = await run(cli.dir, ['link'], { env, cwd: elsewhere });
    expect(link.exitCode).toBe(0);
    expect(link.stdout).toBe('https://card.example/go/');
    const status = await run(cli.dir, ['status', '--json'], { env, cwd: elsewhere });
    expect(status.stderr).toBe('');
    expect(status.exitCode).toBe(0);
    const whoami = await run(cli.dir, ['whoami'], { env, cwd: elsewhere });
    expect(whoami.stdout).toContain(OWNER.email);
    expect(whoami.stdout).toContain(cli.emulator.url);
  });

  it('`login --site-url` refuses a site URL that is not one, exit 2, and keeps nothing', async () => {
    const result = await run(
      cli.dir,
      [
        'login',
        '--api-url',
        cli.emulator.url,
        '--site-url',
        'not a url',
        '--email',
        OWNER.email,
        '--password-stdin',
      ],
      { env: { SUPABASE_ANON_KEY: cli.emulator.anonKey }, input: `${OWNER.password}\n` },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--site-url');
    const whoami = await run(cli.dir, ['whoami'], {
      env: { SUPABASE_ANON_KEY: cli.emulator.anonKey },
    });
    expect(whoami.stdout + whoami.stderr).toMatch(/not signed in/i);
  });
});
