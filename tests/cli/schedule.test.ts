import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestEmulator, untilDbTime } from '../support/emulator.js';
import { OWNER, removeDir, run, springForwardDate, summerDate, tempConfigDir } from './helpers.js';
import {
  MAIN_URL,
  PHOTO_URL,
  clearRows,
  emulatorEnv,
  login,
  rows,
  type Emulator,
} from './emulator.js';

// The schedule through the built CLI, on both databases: starts, durations, `end`, and the
// server's clock deciding what is active.
const { date } = summerDate();
const HOUR = 3_600_000;

describe.each(DB_KINDS)('the schedule on %s', (kind) => {
  let emulator: Emulator;
  let dir: string;
  const namecard = (args: string[], env: Record<string, string> = {}) =>
    run(dir, args, { env: emulatorEnv(emulator, env) });
  const statusJson = async () => {
    const result = await namecard(['status', '--json']);
    expect(result.exitCode).toBe(0);
    return JSON.parse(result.stdout) as {
      active: { id: number; type: string } | null;
      next: { id: number; type: string; stamp_start: number } | null;
      target: string;
    };
  };
  /** Inserts a row with the database's own clock, `startIn`/`endIn` ms from its now. */
  const insertAt = async (type: string, startIn: number | null, endIn: number) => {
    const [row] = (await emulator.query(
      `insert into public.namecard (type, stamp_start, stamp_end)
       values ($1,
               case when $2::bigint is null then null
                    else (extract(epoch from clock_timestamp()) * 1000)::bigint + $2::bigint end,
               (extract(epoch from clock_timestamp()) * 1000)::bigint + $3::bigint)
       returning id, stamp_start, stamp_end`,
      [type, startIn, endIn],
    )) as {
      id: number | string;
      stamp_start: number | string | null;
      stamp_end: number | string;
    }[];
    return { id: Number(row?.id), start: Number(row?.stamp_start), end: Number(row?.stamp_end) };
  };

  beforeAll(async () => {
    emulator = await startTestEmulator(kind, { refreshTokenReuseInterval: 0, owner: OWNER });
  });
  afterAll(async () => {
    await emulator?.stop();
  });
  beforeEach(async () => {
    dir = await tempConfigDir();
    await clearRows(emulator);
    await login(emulator, dir);
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('`set --for 2h` ends two hours from now', async () => {
    const before = Date.now();
    const result = await namecard(['set', 'photo', '--for', '2h']);
    const after = Date.now();
    expect(result.exitCode).toBe(0);
    const [row] = await rows(emulator);
    expect(row?.type).toBe('photo');
    expect(row?.stamp_end).toBeGreaterThanOrEqual(before + 2 * HOUR - 2000);
    expect(row?.stamp_end).toBeLessThanOrEqual(after + 2 * HOUR + 2000);
    expect(row?.stamp_start).toBeUndefined();
    expect(result.stdout).toContain(`Visitors now go to ${PHOTO_URL}`);
    expect(result.stdout).toContain('Then the main site');
  });

  it.each([
    [['--for', '0m'], '`--for` must be longer than zero, got `0m`'],
    [['--for', '-2h'], '`--for` must be longer than zero, got `-2h`'],
    [['--for', 'soon'], '`--for` must be a duration such as 90m, 2h, 3d or 1h30m, got `soon`'],
    [['--for', '11y'], '`--for` must be at most 10 years, got `11y`'],
    [[date, '18:00', '--for', '2h'], '`--for` and an end date and time cannot be used together'],
    [[date, '18:00', '--from', `${date} 19:00`], '`--from` must be before the end'],
    [
      ['2030-03-10', '18:00', '--from', '2030-03-10 02:30', '--tz', 'America/New_York'],
      '`--from` 02:30 does not exist on 2030-03-10 in America/New_York',
    ],
    [[springForwardDate(), '02:30', '--tz', 'America/New_York'], '(the clocks jump forward)'],
  ])('refuses %j with exit 2 and stores nothing', async (args, message) => {
    const result = await namecard(['set', 'photo', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
    expect(await rows(emulator)).toEqual([]);
  });

  it('stores a start read in the same zone as the end; status shows it as the next change', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const result = await namecard(
      [
        'set',
        'photo',
        `${year}-06-01`,
        '18:00',
        '--from',
        `${year}-06-01 09:00`,
        '--tz',
        'Europe/Berlin',
      ],
      { TZ: 'UTC' },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`from ${year}-06-01 09:00 Europe/Berlin`);
    expect(await rows(emulator)).toEqual([
      {
        id: expect.any(Number),
        type: 'photo',
        stamp_start: Date.UTC(year, 5, 1, 7),
        stamp_end: Date.UTC(year, 5, 1, 16),
      },
    ]);
    const status = await statusJson();
    expect(status.active).toBeNull();
    expect(status.target).toBe(MAIN_URL);
    expect(status.next).toMatchObject({ type: 'photo', stamp_start: Date.UTC(year, 5, 1, 7) });
    const human = await namecard(['status'], { TZ: 'UTC' });
    expect(human.stdout).toContain(`Next: photo (Photographer) from ${year}-06-01 07:00 UTC`);
    const list = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      entries: { state: string; starts_at: string }[];
    };
    expect(list.entries[0]).toMatchObject({
      state: 'scheduled',
      starts_at: new Date(Date.UTC(year, 5, 1, 7)).toISOString(),
    });
  });

  it("switches at the start and back at the end, by the server's clock", async () => {
    const { id, start, end } = await insertAt('photo', 2500, 5000);
    expect((await statusJson()).active).toBeNull();
    await untilDbTime(emulator, start);
    expect((await statusJson()).active).toMatchObject({ id, type: 'photo' });
    await untilDbTime(emulator, end);
    expect((await statusJson()).active).toBeNull();
  });

  it('an entry starting tomorrow does not change what visitors get today', async () => {
    await insertAt('photo', 24 * HOUR, 25 * HOUR);
    const status = await statusJson();
    expect(status.active).toBeNull();
    expect(status.target).toBe(MAIN_URL);
  });

  it('`end` after `set photo` sends visitors to main, and the photo entry does not come back', async () => {
    expect((await namecard(['set', 'photo', '--for', '3h'])).exitCode).toBe(0);
    const [photo] = await rows(emulator);
    const ended = await namecard(['end']);
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout).toContain('Ended photo: the card points to the main site');
    expect(ended.stdout).toContain(`Visitors now get the main site until`);
    const status = await statusJson();
    expect(status.active?.type).not.toBe('photo');
    expect(status.target).toBe(MAIN_URL);
    const all = await rows(emulator);
    expect(all).toHaveLength(2);
    // The main entry ends when the photo entry would have: nothing older comes back after it.
    expect(all[1]).toMatchObject({ type: 'main', stamp_end: photo?.stamp_end });
  });

  it('`end` with nothing active says so, exits 0 and stores nothing', async () => {
    const result = await namecard(['end']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`Nothing to end: visitors already go to the main site ${MAIN_URL}`);
    expect(await rows(emulator)).toEqual([]);
  });

  it('tells what follows: an older entry coming back after a shorter one', async () => {
    expect((await namecard(['set', 'photo', date, '18:00'])).exitCode).toBe(0);
    const result = await namecard(['set', 'main', '--for', '5m']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Then Photographer again until ${date} 18:00 UTC`);
    const list = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      entries: { type: string; state: string; returns_at?: string }[];
    };
    expect(list.entries.map((entry) => entry.state)).toEqual(['active', 'paused']);
    expect(list.entries[1]?.returns_at).toEqual(expect.any(String));
  });
});
