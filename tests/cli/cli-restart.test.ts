import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.js';
import { createTestDatabase, type TestDatabase, overPostgres } from '../support/emulator.js';
import { removeDir, run, summerDate, tempConfigDir } from '../cli/helpers.js';
import { MAIN_URL, PHOTO_URL, login, rows } from '../cli/emulator.js';
import { OWNER } from '../support/accounts.js';

// The emulator restarted between two commands loses nothing the CLI reported as set: on
// PGlite with a data folder, and on PostgreSQL. It comes back on the same port, so the stored
// session (which belongs to the API URL) is used across the restart too.

let dir: string;
let running: RunningEmulator | undefined;
let cleanup: (() => Promise<void>) | undefined;

beforeEach(async () => {
  dir = await tempConfigDir();
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await cleanup?.();
  cleanup = undefined;
  await removeDir(dir);
});

const { date, year } = summerDate();

const STORES: Record<string, () => Promise<Partial<EmulatorOptions>>> = {
  'PGlite with a data folder': async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'namecard-pglite-'));
    cleanup = () => removeDir(dataDir);
    return { dataDir };
  },
  PostgreSQL: async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanup = () => database.drop();
    return overPostgres(database.url);
  },
};

describe.each(Object.entries(STORES))('an emulator restarted on %s', (_name, store) => {
  it('still has every entry `set` reported, and the stored session still works', async () => {
    const storage = await store();
    const options = { ...storage, owner: OWNER };
    running = await startEmulator({ ...options, port: 0 });
    const url = running.url;
    const port = Number(new URL(url).port);
    const env = { SUPABASE_URL: url, NAMECARD_MAIN_URL: MAIN_URL, TZ: 'Asia/Tokyo' };
    const namecard = (args: string[]) => run(dir, args, { env });

    await login(running, dir, env);
    const set = await namecard(['set', 'photo', date, '18:00']);
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain('The card points to photo');

    await running.stop();
    running = await startEmulator({ ...options, port });
    expect(running.url).toBe(url);

    const stamp = Date.UTC(year, 6, 15, 9, 0); // 18:00 in Tokyo
    expect(await rows(running)).toEqual([
      { id: expect.any(Number), stamp_end: stamp, type: 'photo' },
    ]);
    const status = await namecard(['status', '--json']);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      active: { stamp_end: stamp, type: 'photo' },
      target: PHOTO_URL,
    });
    const list = await namecard(['list', '--json']);
    expect((JSON.parse(list.stdout) as { entries: unknown[] }).entries).toEqual([
      expect.objectContaining({ stamp_end: stamp, type: 'photo', active: true }),
    ]);
    // The refresh token saved before the restart is still good after it.
    const again = await namecard(['set', 'main', date, '19:00']);
    expect(again.stderr).toBe('');
    expect(again.exitCode).toBe(0);
    expect((await rows(running)).map((row) => row.type)).toEqual(['photo', 'main']);
  }, 60_000);
});
