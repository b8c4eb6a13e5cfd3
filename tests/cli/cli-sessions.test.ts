import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, untilDbTime } from '../support/emulator.js';
import { removeDir, run, summerDate, tempConfigDir } from '../cli/helpers.js';
import { emulatorEnv, login, patchStoredSession, rows, type Emulator } from '../cli/emulator.js';
import { OWNER } from '../support/accounts.js';

// Sessions under stress: an expired access token, a refresh token revoked on the server or
// rotated by another run, and five `namecard set` runs at once from one stored session.

let emulator: Emulator | undefined;
let dir: string;

beforeEach(async () => {
  dir = await tempConfigDir();
});
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
  await removeDir(dir);
});

const { date } = summerDate();
const EXPIRED = 'error: Your session has expired: run `namecard login`';

const start = async (opts: {
  refreshTokenReuseInterval?: number;
  accessTokenLifetime?: number;
}) => {
  emulator = await startTestEmulator('pglite', { owner: OWNER, ...opts });
  return emulator;
};
/**
 * Access tokens that live 30 s: a run never uses a stored one (it must be valid for more than a
 * minute), so every run starts from the refresh token, as a run an hour after the last does.
 */
const REFRESHING = { accessTokenLifetime: 30 };
const namecard = (em: Emulator, args: string[], configDir = dir) =>
  run(configDir, args, { env: emulatorEnv(em) });
const storedToken = async (configDir = dir) =>
  (
    JSON.parse(await readFile(path.join(configDir, 'config.json'), 'utf8')) as {
      session: { refresh_token: string };
    }
  ).session.refresh_token;

describe('a session the server no longer accepts', () => {
  it('an expired access token does not matter: each run starts from the refresh token', async () => {
    const em = await start({ refreshTokenReuseInterval: 0, accessTokenLifetime: 2 });
    await login(em, dir);
    // The login's access token expires at its `exp` (whole seconds: issued at most now, plus
    // 2 s): wait until the server's clock has passed that moment.
    await untilDbTime(em, (Math.floor(Date.now() / 1000) + 2) * 1000);
    const result = await namecard(em, ['set', 'photo', date, '18:00']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(em)).toHaveLength(1);
  });

  const REVOKED: Record<string, (em: Emulator) => Promise<unknown>> = {
    'the refresh token revoked on the server': (em) =>
      em.query('update auth.refresh_tokens set revoked = true'),
    'the session deleted on the server (signed out everywhere)': (em) =>
      em.query('delete from auth.sessions'),
    'the user deleted': (em) => em.query('delete from auth.users'),
  };

  it.each(Object.entries(REVOKED))(
    '%s: "Your session has expired", exit 1, nothing stored, signed out here',
    async (_name, revoke) => {
      const em = await start({ refreshTokenReuseInterval: 0, ...REFRESHING });
      await login(em, dir);
      await revoke(em);
      const result = await namecard(em, ['set', 'photo', date, '18:00']);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(EXPIRED);
      expect(await rows(em)).toEqual([]);
      expect((await namecard(em, ['whoami'])).exitCode).toBe(1);
    },
  );

  it('a refresh token rotated by another run (reuse interval 0) gives "Your session has expired", and GoTrue ends the whole session', async () => {
    const em = await start({ refreshTokenReuseInterval: 0, ...REFRESHING });
    await login(em, dir);
    // A second copy of the same stored session, as on another machine or in a CI cache.
    const other = path.join(dir, 'other');
    await mkdir(other, { mode: 0o700 });
    await copyFile(path.join(dir, 'config.json'), path.join(other, 'config.json'));
    // Two runs here spend the shared token for good (GoTrue still answers the parent of the
    // active token once, so one run would not be enough).
    for (const time of ['10:00', '11:00']) {
      expect((await namecard(em, ['set', 'photo', date, time])).exitCode).toBe(0);
    }
    const stale = await namecard(em, ['set', 'main', date, '12:00'], other);
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toBe(EXPIRED);
    expect((await rows(em)).map((row) => row.type)).toEqual(['photo', 'photo']);
    // Presenting a spent token outside the reuse interval is GoTrue's sign of a stolen token:
    // it revokes the whole family, so the other copy must sign in again too.
    const rotated = await namecard(em, ['set', 'main', date, '13:00']);
    expect(rotated.exitCode).toBe(1);
    expect(rotated.stderr).toBe(EXPIRED);
    expect(await rows(em)).toHaveLength(2);
  }, 60_000);
});

describe('five `namecard set` runs at once from one stored session', () => {
  it('all five rows are stored, the token written back is still valid, and the session keeps working', async () => {
    // The emulator's default reuse interval (10 s, the Supabase CLI's), as users get it.
    const em = await start({});
    await login(em, dir);
    const parent = await storedToken();
    // As an hour after the login: the stored access token has expired, so all five runs
    // refresh the one stored token at once (what this test is about).
    await patchStoredSession(dir, { expires_at: 0 });

    const times = ['10:00', '11:00', '12:00', '13:00', '14:00'];
    const results = await Promise.all(
      times.map((time) => namecard(em, ['set', 'photo', date, time])),
    );
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
    }
    expect((await rows(em)).length).toBe(5);

    // Every run wrote its rotated token back (last writer wins). That is safe only if no run
    // left a dead token behind: a run may start from a token another run has just written and
    // spend it, but then it writes that token's child. So in the token tree of this session,
    // every leaf (a token nobody has exchanged) is valid, and the stored token is a leaf.
    const stored = await storedToken();
    expect(stored).not.toBe(parent);
    const tokens = await em.query<{ token: string; parent: string | null; revoked: boolean }>(
      `select token, parent, revoked from auth.refresh_tokens
        where session_id = (select session_id from auth.refresh_tokens where token = $1)`,
      [parent],
    );
    const parents = new Set(tokens.map((t) => t.parent));
    const leaves = tokens.filter((t) => !parents.has(t.token));
    expect(leaves.length).toBeGreaterThanOrEqual(1);
    expect(leaves.filter((leaf) => leaf.revoked)).toEqual([]);
    expect(leaves.map((leaf) => leaf.token)).toContain(stored);

    // And the session goes on: two more runs in a row, each from the token the last one saved.
    for (const time of ['15:00', '16:00']) {
      const next = await namecard(em, ['set', 'main', date, time]);
      expect(next.stderr).toBe('');
      expect(next.exitCode).toBe(0);
    }
    expect((await rows(em)).length).toBe(7);
  }, 60_000);
});
