import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestEmulator, untilDbTime } from '../support/emulator.js';
import { removeDir, run, springForwardDate, summerDate, tempConfigDir } from './helpers.js';
import {
  MAIN_URL,
  PHOTO_URL,
  clearRows,
  emulatorEnv,
  login,
  rows,
  type Emulator,
} from './emulator.js';
import { OWNER } from '../support/accounts.js';

// The schedule through the built CLI, on both databases: starts, durations, the timeline that
// `status`, `set`, `end` and `cancel` show, `end` and `cancel` on the server's clock, and the
// server's clock deciding what is active. The owner's everyday scenarios spell out the segments an
// owner expects. Times are shown in UTC (TZ=UTC) so that the words are known in advance.
const { date } = summerDate();
const HOUR = 3_600_000;

interface Segment {
  type: string;
  from: number;
  to: number | null;
}

/** `YYYY-MM-DD` in UTC of an instant. */
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** `Wed` (UTC weekday) of an instant. */
const weekday = (ms: number) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' }).format(ms);
/** `Wed 10 Dec` (UTC) of an instant, as the CLI shows a date more than a week off. */
const dayMonth = (ms: number) => {
  const d = new Date(ms);
  const month = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' }).format(ms);
  const year = d.getUTCFullYear() === new Date().getUTCFullYear() ? '' : ` ${d.getUTCFullYear()}`;
  return `${weekday(ms)} ${d.getUTCDate()} ${month}${year}`;
};
/** Midnight UTC of the day `days` after today. */
const dayStart = (days: number) =>
  Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + days);

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
      next: Segment | null;
      timeline: Segment[];
      target: string;
    };
  };
  /** The timeline as `status --json` answers it, the first segment's start left out (now). */
  const timeline = async () =>
    (await statusJson()).timeline.map((s, i) => [s.type, i === 0 ? 'now' : s.from, s.to]);
  /** Each row's stop marks, by id. */
  const marks = async () =>
    (await emulator.query(
      'select id, stop_kind, stamp_end, planned_end from public.namecard order by id',
    )) as { id: number; stop_kind: string | null; stamp_end: number; planned_end: number | null }[];
  /** Inserts a row of the card main with the database's own clock, `startIn`/`endIn` ms from its now. */
  const insertAt = async (type: string, startIn: number | null, endIn: number) => {
    const [row] = (await emulator.query(
      `insert into public.namecard (card_id, type, stamp_start, stamp_end)
       select c.id, $1,
              case when $2::bigint is null then null
                   else (extract(epoch from clock_timestamp()) * 1000)::bigint + $2::bigint end,
              (extract(epoch from clock_timestamp()) * 1000)::bigint + $3::bigint
       from public.namecard_card as c where c.slug = 'main'
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
    expect(result.stdout).toMatch(
      new RegExp(
        `^Now: Photographer until (today|tomorrow) \\d\\d:\\d\\d \\(in (2 h|1 h 59 min)\\): ${PHOTO_URL}$`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(/^Then the main site from (today|tomorrow) \d\d:\d\d$/m);
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
    const start = Date.UTC(new Date().getUTCFullYear() + 1, 5, 1, 7);
    const end = Date.UTC(new Date().getUTCFullYear() + 1, 5, 1, 16);
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
    expect(result.stdout).toContain(
      `from ${year}-06-01 09:00 until ${year}-06-01 18:00 Europe/Berlin (UTC+02:00)`,
    );
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
    expect(status.next).toEqual({ type: 'photo', from: start, to: end });
    expect(await timeline()).toEqual([
      ['main', 'now', start],
      ['photo', start, end],
      ['main', end, null],
    ]);
    const human = await namecard(['status'], { TZ: 'UTC' });
    expect(human.stdout).toContain(
      `Times in UTC\nNow: the main site until ${dayMonth(start)} 07:00 (in `,
    );
    expect(human.stdout).toContain(
      `Then Photographer from ${dayMonth(start)} 07:00 until ${dayMonth(end)} 16:00`,
    );
    expect(human.stdout).toContain(`Then the main site from ${dayMonth(end)} 16:00 (in `);
    const list = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      entries: { state: string; starts_at: string }[];
    };
    expect(list.entries[0]).toMatchObject({
      state: 'scheduled',
      starts_at: new Date(Date.UTC(year, 5, 1, 7)).toISOString(),
    });
  });

  it('a `--from` that has passed says the entry starts now, and stores no start', async () => {
    const yesterday = utcDate(dayStart(-1));
    const result = await namecard(
      ['set', 'photo', date, '18:00', '--from', `${yesterday} 09:00`, '--tz', 'UTC'],
      { TZ: 'UTC' },
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      `✔ The card points to photo (Photographer) until ${date} 18:00 UTC\n` +
        `  \`--from\` ${yesterday} 09:00 has passed: the entry starts now.\n`,
    );
    expect(await rows(emulator)).toEqual([
      { id: expect.any(Number), type: 'photo', stamp_end: Date.parse(`${date}T18:00:00Z`) },
    ]);
    const status = await statusJson();
    expect(status.active).toMatchObject({ type: 'photo' });
    expect(status.target).toBe(PHOTO_URL);

    // With --for, the duration still counts from the start given: 48 hours from yesterday
    // 09:00 is tomorrow 09:00.
    await clearRows(emulator);
    const json = await namecard(
      ['set', 'photo', '--from', `${yesterday} 09:00`, '--for', '48h', '--tz', 'UTC', '--json'],
      { TZ: 'UTC' },
    );
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      stamp_start: null,
      stamp_end: dayStart(1) + 9 * HOUR,
      notice: `\`--from\` ${yesterday} 09:00 has passed: the entry starts now`,
    });
    expect(await rows(emulator)).toEqual([
      { id: expect.any(Number), type: 'photo', stamp_end: dayStart(1) + 9 * HOUR },
    ]);
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

  it('`end` after `set photo` sends visitors to main now; the entry is marked, not deleted, and does not come back', async () => {
    expect((await namecard(['set', 'photo', '--for', '3h'])).exitCode).toBe(0);
    const [photo] = await rows(emulator);
    const ended = await namecard(['end']);
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout).toBe(
      [
        `✔ Ended photo (Photographer, entry ${photo!.id}): visitors go to the main site now`,
        'Times in UTC',
        `Now: the main site: ${MAIN_URL}`,
      ].join('\n'),
    );
    const status = await statusJson();
    expect(status.active).toBeNull();
    expect(status.target).toBe(MAIN_URL);
    expect(await timeline()).toEqual([['main', 'now', null]]);
    // Nothing stored, nothing deleted: the one row is marked ended early, its old end kept.
    const [mark] = await marks();
    expect(await marks()).toHaveLength(1);
    expect(mark).toMatchObject({
      id: photo!.id,
      stop_kind: 'ended',
      planned_end: photo!.stamp_end,
    });
    expect(mark!.stamp_end).toBeLessThanOrEqual(Date.now());
    const list = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      entries: { id: number; state: string }[];
    };
    expect(list.entries).toMatchObject([{ id: photo!.id, state: 'ended-early' }]);
  });

  it('`end` with nothing active says so, exits 0 and stores nothing', async () => {
    const result = await namecard(['end']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        'Nothing to end: visitors already go to the main site',
        'Times in UTC',
        `Now: the main site: ${MAIN_URL}`,
      ].join('\n'),
    );
    expect(await rows(emulator)).toEqual([]);
  });

  it('tells what follows: an older entry coming back after a shorter one', async () => {
    expect((await namecard(['set', 'photo', date, '18:00'])).exitCode).toBe(0);
    const result = await namecard(['set', 'main', '--for', '5m']);
    expect(result.exitCode).toBe(0);
    const summerEnd = Date.parse(`${date}T18:00:00Z`);
    expect(result.stdout).toMatch(
      new RegExp(
        `^Then Photographer from (today|tomorrow) \\d\\d:\\d\\d until ${dayMonth(summerEnd)} 18:00\\nThen the main site from ${dayMonth(summerEnd)} 18:00 \\(in \\d+ days\\)$`,
        'm',
      ),
    );
    const list = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      entries: { type: string; state: string; comes_back_at?: string }[];
    };
    expect(list.entries.map((entry) => entry.state)).toEqual(['on-now', 'comes-back']);
    expect(list.entries[1]?.comes_back_at).toEqual(expect.any(String));
  });

  // The first scenario: photo until a far date, a fair in two days with a start, then a
  // 30-minute main break. The fair lies inside the photo time, so the timeline is main for 30
  // minutes, then photo until the far date. `end` during the break stops the break and the
  // photo entry that would come back, and keeps the fair.
  it('shows the photo entry coming back after a main break, and `end` during the break keeps the fair', async () => {
    const far = dayStart(40) + 18 * HOUR;
    const fairStart = dayStart(2) + 9 * HOUR;
    const fairEnd = dayStart(2) + 18 * HOUR;
    expect((await namecard(['set', 'photo', utcDate(far), '18:00'])).exitCode).toBe(0);
    const fair = await namecard([
      'set',
      'photo',
      utcDate(fairEnd),
      '18:00',
      '--from',
      `${utcDate(fairStart)} 09:00`,
    ]);
    expect(fair.exitCode).toBe(0);
    const pause = await namecard(['set', 'main', '--for', '30m']);
    expect(pause.exitCode).toBe(0);
    const [farRow, , breakRow] = await rows(emulator);
    expect(await timeline()).toEqual([
      ['main', 'now', breakRow!.stamp_end],
      ['photo', breakRow!.stamp_end, far],
      ['main', far, null],
    ]);
    const status = await namecard(['status']);
    expect(status.stdout).toMatch(
      new RegExp(
        [
          '^Times in UTC',
          `Now: the main site until (today|tomorrow) \\d\\d:\\d\\d \\(in (30|29) min\\): ${MAIN_URL}`,
          `Then Photographer from (today|tomorrow) \\d\\d:\\d\\d until ${dayMonth(far)} 18:00`,
          `Then the main site from ${dayMonth(far)} 18:00 \\(in (39|40) days\\)$`,
        ].join('\\n'),
      ),
    );

    const ended = await namecard(['end']);
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout).toContain(
      `✔ Ended main (Main Profile, entry ${breakRow!.id}) and photo (Photographer, entry ${farRow!.id}): visitors go to the main site now`,
    );
    expect(ended.stdout).toMatch(
      new RegExp(
        [
          `^Now: the main site until ${weekday(fairStart)} 09:00 \\(in [^)]+\\): ${MAIN_URL}`,
          `Then Photographer from ${weekday(fairStart)} 09:00 until ${weekday(fairEnd)} 18:00`,
          `Then the main site from ${weekday(fairEnd)} 18:00 \\(in [^)]+\\)$`,
        ].join('\\n'),
        'm',
      ),
    );
    expect(await timeline()).toEqual([
      ['main', 'now', fairStart],
      ['photo', fairStart, fairEnd],
      ['main', fairEnd, null],
    ]);
    // Rows are kept: the break and the far photo entry are marked ended early, the fair untouched.
    expect((await marks()).map((row) => row.stop_kind)).toEqual(['ended', null, 'ended']);
  });

  // The third scenario: photo until a far date, an event with a start before it, `end`:
  // the event stays scheduled.
  it('`end` keeps an entry that starts later, and `list` says so in plain words', async () => {
    const far = dayStart(40) + 18 * HOUR;
    const eventStart = dayStart(17) + 9 * HOUR;
    const eventEnd = dayStart(17) + 18 * HOUR;
    expect((await namecard(['set', 'photo', utcDate(far), '18:00'])).exitCode).toBe(0);
    expect(
      (
        await namecard([
          'set',
          'photo',
          utcDate(eventEnd),
          '18:00',
          '--from',
          `${utcDate(eventStart)} 09:00`,
        ])
      ).exitCode,
    ).toBe(0);
    const [farRow, eventRow] = await rows(emulator);
    const ended = await namecard(['end']);
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout).toContain(
      `Then Photographer from ${dayMonth(eventStart)} 09:00 until ${dayMonth(eventEnd)} 18:00`,
    );
    expect(await timeline()).toEqual([
      ['main', 'now', eventStart],
      ['photo', eventStart, eventEnd],
      ['main', eventEnd, null],
    ]);
    const list = await namecard(['list']);
    expect(list.stdout).toMatch(
      new RegExp(`^ +${eventRow!.id}  photo  .*scheduled from ${dayMonth(eventStart)} 09:00$`, 'm'),
    );
    expect(list.stdout).toMatch(
      new RegExp(`^ +${farRow!.id}  photo  .*ended early at (today|yesterday) \\d\\d:\\d\\d$`, 'm'),
    );
  });

  it('`cancel <id>` takes a scheduled entry off the timeline for good; the row stays, marked', async () => {
    const start = dayStart(3) + 9 * HOUR;
    const end = dayStart(3) + 18 * HOUR;
    expect(
      (await namecard(['set', 'photo', utcDate(end), '18:00', '--from', `${utcDate(start)} 09:00`]))
        .exitCode,
    ).toBe(0);
    const [row] = await rows(emulator);
    expect(await timeline()).toEqual([
      ['main', 'now', start],
      ['photo', start, end],
      ['main', end, null],
    ]);
    const cancelled = await namecard(['cancel', String(row!.id)]);
    expect(cancelled.stderr).toBe('');
    expect(cancelled.exitCode).toBe(0);
    expect(cancelled.stdout).toBe(
      [
        `✔ Cancelled entry ${row!.id}: photo (Photographer) from ${weekday(start)} 09:00 until ${weekday(end)} 18:00`,
        'Times in UTC',
        `Now: the main site: ${MAIN_URL}`,
      ].join('\n'),
    );
    expect(await timeline()).toEqual([['main', 'now', null]]);
    expect(await marks()).toMatchObject([
      { id: row!.id, stop_kind: 'cancelled', planned_end: end },
    ]);
    const list = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      entries: { id: number; state: string }[];
    };
    expect(list.entries).toMatchObject([{ id: row!.id, state: 'cancelled' }]);

    const again = await namecard(['cancel', String(row!.id)]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`error: Entry ${row!.id} was already cancelled`);
  });

  it('`cancel` of a running entry ends it now; `--json` has the entry and the timeline', async () => {
    expect((await namecard(['set', 'photo', '--for', '2h'])).exitCode).toBe(0);
    const [row] = await rows(emulator);
    const result = await namecard(['cancel', String(row!.id), '--json']);
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout) as {
      cancelled: { id: number; stop_kind: string };
      timeline: Segment[];
      next: Segment | null;
    };
    expect(json.cancelled).toMatchObject({ id: row!.id, stop_kind: 'cancelled' });
    expect(json.timeline.map((s) => [s.type, s.to])).toEqual([['main', null]]);
    expect(json.next).toBeNull();
    expect((await statusJson()).target).toBe(MAIN_URL);
  });

  it.each([
    [['cancel', '9999'], 1, 'error: There is no entry 9999'],
    [
      ['cancel', 'abc'],
      2,
      '`id` must be an entry id, a whole number such as 12 (see `namecard list`), got `abc`',
    ],
    [['cancel', '0'], 2, '`id` must be an entry id'],
  ])('`%j` is refused (exit %i) and changes nothing', async (args, code, message) => {
    expect((await namecard(['set', 'photo', '--for', '2h'])).exitCode).toBe(0);
    const before = await marks();
    const result = await namecard(args);
    expect(result.exitCode).toBe(code);
    expect(result.stderr).toContain(message);
    expect(await marks()).toEqual(before);
  });

  it('`cancel` of an entry that has ended is refused with exit 1', async () => {
    const { id } = await insertAt('photo', null, -HOUR);
    const result = await namecard(['cancel', String(id)]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`error: Entry ${id} has already ended`);
    expect(await marks()).toMatchObject([{ id, stop_kind: null }]);
  });
});
