import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPort, run, summerDate } from './helpers.js';
import { emulatorEnv, login, patchStoredSession, rows, useCliFixture } from './emulator.js';
import { OWNER } from '../support/accounts.js';

const cli = useCliFixture();

const namecard = (args: string[], env: Record<string, string> = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });
const { date } = summerDate();
const EXPIRED = 'Your session has expired: run `namecard login`';

describe('sessions', () => {
  it('keeps working across runs: each run saves the rotated refresh token (reuse interval 0)', async () => {
    // Runs would also succeed from the login's token alone (GoTrue answers the parent of the
    // active token with the active token), so the stored token is checked to change each time.
    await login(cli.emulator, cli.dir);
    const token = async () =>
      (
        JSON.parse(await readFile(path.join(cli.dir, 'config.json'), 'utf8')) as {
          session: { refresh_token: string };
        }
      ).session.refresh_token;
    const seen = [await token()];
    for (const time of ['10:00', '11:00', '12:00']) {
      // As a run an hour later: the stored access token has expired, so the run refreshes.
      await patchStoredSession(cli.dir, { expires_at: 0 });
      const result = await namecard(['set', 'photo', date, time]);
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      seen.push(await token());
    }
    expect(await rows(cli.emulator)).toHaveLength(3);
    expect(new Set(seen).size).toBe(4);
  });

  it('after `logout`, `set` says to log in and inserts nothing', async () => {
    await login(cli.emulator, cli.dir);
    const logout = await namecard(['logout']);
    expect(logout.exitCode).toBe(0);
    expect(logout.stdout).toBe(`Signed out ${OWNER.email}.`);
    expect(logout.stderr).toBe('');

    const set = await namecard(['set', 'photo', date, '18:00']);
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain('You are not signed in: run `namecard login`');
    expect((await namecard(['whoami'])).exitCode).toBe(1);
    expect(await rows(cli.emulator)).toEqual([]);
  });

  it('`logout` revokes the session on the server: a copy of the old token has expired', async () => {
    await login(cli.emulator, cli.dir);
    const file = path.join(cli.dir, 'config.json');
    await copyFile(file, `${file}.copy`);
    expect((await namecard(['logout'])).exitCode).toBe(0);
    await copyFile(`${file}.copy`, file);

    const set = await namecard(['set', 'photo', date, '18:00']);
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain(EXPIRED);
    expect(set.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(await rows(cli.emulator)).toEqual([]);
  });

  it('a refresh token the server rejects gives the expired-session message', async () => {
    await login(cli.emulator, cli.dir);
    const file = path.join(cli.dir, 'config.json');
    const first = await readFile(file, 'utf8');
    // Two rotations spend the first token for good: GoTrue hands the active token back only
    // to the parent of the active token, and the reuse interval here is 0.
    // Each run as an hour later: the stored access token has expired, so it refreshes.
    await patchStoredSession(cli.dir, { expires_at: 0 });
    await namecard(['set', 'photo', date, '10:00']);
    await patchStoredSession(cli.dir, { expires_at: 0 });
    await namecard(['set', 'photo', date, '11:00']);
    await writeFile(file, first);
    await patchStoredSession(cli.dir, { expires_at: 0 });
    const set = await namecard(['set', 'photo', date, '18:00']);
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toBe(`error: ${EXPIRED}`);
    expect(await rows(cli.emulator)).toHaveLength(2);
  });

  it('`logout` with the backend down still deletes the session here and says so', async () => {
    await login(cli.emulator, cli.dir);
    const down = `http://127.0.0.1:${await deadPort()}`;
    // The stored session belongs to the emulator's URL; point only this run elsewhere by
    // rewriting the stored URL, as if the server had gone away.
    const file = path.join(cli.dir, 'config.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as {
      session: { api_url: string };
    };
    stored.session.api_url = down;
    await writeFile(file, JSON.stringify(stored));

    const logout = await namecard(['logout'], { SUPABASE_URL: down });
    expect(logout.exitCode).toBe(0);
    expect(logout.stderr).toContain(`Cannot reach ${down}`);
    expect(logout.stderr).toContain('deleted here but not revoked on the server');
    expect((await namecard(['whoami'], { SUPABASE_URL: down })).exitCode).toBe(1);
  });

  it('a session stored for another API URL counts as signed out', async () => {
    await login(cli.emulator, cli.dir);
    const other = 'http://127.0.0.1:9';
    const set = await namecard(['set', 'photo', date, '18:00'], { SUPABASE_URL: other });
    expect(set.exitCode).toBe(1);
    expect(set.stderr).toContain(
      `You are not signed in to ${other} (the stored session is for ${cli.emulator.url})`,
    );
    const whoami = await namecard(['whoami'], { SUPABASE_URL: other });
    expect(whoami.exitCode).toBe(1);
  });

  it('login saves the API URL, so later runs need no environment', async () => {
    await login(cli.emulator, cli.dir);
    const result = await run(cli.dir, ['set', 'photo', date, '18:00']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(cli.emulator)).toHaveLength(1);
  });
});
