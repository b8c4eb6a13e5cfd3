import { describe, expect, it } from 'vitest';
import { run, springForwardDate, summerDate } from './helpers.js';
import { MAIN_URL, PHOTO_URL, emulatorEnv, rows, useCliFixture } from './emulator.js';
import { OWNER } from '../support/accounts.js';

const cli = useCliFixture({ signIn: true });

const namecard = (args: string[], env: Record<string, string> = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });

// Expected stamps computed independently of the CLI: on July 15 Tokyo is UTC+9 and New York
// UTC-4 (daylight saving time), so 18:00 there is 09:00 and 22:00 UTC.
const { date, year } = summerDate();
const TOKYO_18 = Date.UTC(year, 6, 15, 9, 0);
const NEW_YORK_18 = Date.UTC(year, 6, 15, 22, 0);
/** `Thu 15 Jul 2027`: July 15 of next year as the timeline shows a date that far off. */
const tokyoDay = `${new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' }).format(TOKYO_18)} 15 Jul ${year}`;
/** Whole days from now until then, as the timeline's hint counts them. */
const daysToTokyo = () => Math.floor((TOKYO_18 - Date.now()) / 86_400_000);

describe('namecard set', () => {
  it('stores 18:00 Tokyo time when run under TZ=Asia/Tokyo', async () => {
    const result = await namecard(['set', 'photo', date, '18:00'], { TZ: 'Asia/Tokyo' });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(cli.emulator)).toEqual([
      { id: expect.any(Number), stamp_end: TOKYO_18, type: 'photo' },
    ]);
    expect(result.stdout).toBe(
      [
        `✔ The card points to photo (Photographer) until ${date} 18:00 Asia/Tokyo (UTC+09:00)`,
        `Now: Photographer until ${tokyoDay} 18:00 (in ${daysToTokyo()} days): ${PHOTO_URL}`,
        `Then the main site from ${tokyoDay} 18:00`,
      ].join('\n'),
    );
  });

  it('stores 18:00 New York time when run under TZ=America/New_York', async () => {
    const result = await namecard(['set', 'photo', date, '18:00'], { TZ: 'America/New_York' });
    expect(result.exitCode).toBe(0);
    expect((await rows(cli.emulator)).map((row) => row.stamp_end)).toEqual([NEW_YORK_18]);
    expect(result.stdout).toContain(`until ${date} 18:00 America/New_York (UTC-04:00)`);
  });

  it('uses --tz instead of the machine time zone and shows the local time too', async () => {
    const result = await namecard(['set', 'main', date, '18:00', '--tz', 'America/New_York'], {
      TZ: 'Asia/Tokyo',
    });
    expect(result.exitCode).toBe(0);
    expect(await rows(cli.emulator)).toEqual([
      { id: expect.any(Number), stamp_end: NEW_YORK_18, type: 'main' },
    ]);
    expect(result.stdout).toContain(`until ${date} 18:00 America/New_York (UTC-04:00)`);
    expect(result.stdout).toContain(`That is ${year}-07-16 07:00 Asia/Tokyo (UTC+09:00) here.`);
    // A main entry until then changes nothing visitors get: the timeline is the main site.
    expect(result.stdout).toMatch(new RegExp(`^Now: the main site: ${MAIN_URL}$`, 'm'));
  });

  it('shows a --tz as the owner wrote it: CET stays CET (any case), not Europe/Brussels', async () => {
    for (const zone of ['CET', 'cet']) {
      const result = await namecard(['set', 'photo', date, '18:00', '--tz', zone], { TZ: 'UTC' });
      expect(result.stderr, zone).toBe('');
      expect(result.exitCode, zone).toBe(0);
      // 18:00 CEST is 16:00 UTC.
      expect(result.stdout, zone).toContain(`until ${date} 18:00 CET (UTC+02:00)\n`);
      expect(result.stdout, zone).toContain(`That is ${date} 16:00 UTC here.`);
      expect(result.stdout, zone).not.toContain('Brussels');
    }
  });

  it('prints one JSON document with --json, built from the inserted row', async () => {
    const result = await namecard(['set', 'photo', date, '18:00', '--json'], { TZ: 'Asia/Tokyo' });
    expect(result.exitCode).toBe(0);
    const [row] = await rows(cli.emulator);
    expect(JSON.parse(result.stdout)).toEqual({
      profile: 'photo',
      stamp_start: null,
      stamp_end: TOKYO_18,
      starts_at: null,
      ends_at: new Date(TOKYO_18).toISOString(),
      time_zone: 'Asia/Tokyo',
      notice: null,
      target: PHOTO_URL,
      active: expect.objectContaining({ id: row?.id, stamp_end: TOKYO_18, type: 'photo' }),
      next: { type: 'main', from: TOKYO_18, to: null },
      timeline: [
        { type: 'photo', from: expect.any(Number), to: TOKYO_18 },
        { type: 'main', from: TOKYO_18, to: null },
      ],
      row: expect.objectContaining({ id: row?.id, stamp_end: TOKYO_18, type: 'photo' }),
    });
  });

  it('then `status --json` and `list --json` report the entry', async () => {
    await namecard(['set', 'main', date, '09:00'], { TZ: 'Asia/Tokyo' });
    await namecard(['set', 'photo', date, '18:00'], { TZ: 'Asia/Tokyo' });
    const [older, newer] = await rows(cli.emulator);

    const status = await namecard(['status', '--json']);
    expect(status.exitCode).toBe(0);
    const report = JSON.parse(status.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      active: { id: newer?.id, stamp_end: TOKYO_18, type: 'photo' },
      target: PHOTO_URL,
      ends_at: new Date(TOKYO_18).toISOString(),
    });
    expect(report.remaining_ms).toBeGreaterThan(0);
    expect(report.remaining_ms).toBeLessThanOrEqual(TOKYO_18 - Date.now() + 60_000);

    const list = await namecard(['list', '--json']);
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({
      now: expect.any(Number),
      signed_in: true,
      series: [],
      entries: [
        expect.objectContaining({
          id: newer?.id,
          type: 'photo',
          stamp_end: TOKYO_18,
          active: true,
        }),
        expect.objectContaining({ id: older?.id, type: 'main', active: false }),
      ],
    });
  });

  it('`status` and `list` say it for people, in local time', async () => {
    await namecard(['set', 'photo', date, '18:00'], { TZ: 'Asia/Tokyo' });
    const status = await namecard(['status'], { TZ: 'Asia/Tokyo' });
    // The zone is named once, in a header line; the times are read at a glance.
    expect(status.stdout).toMatch(
      new RegExp(
        `^Times in Asia/Tokyo \\(UTC\\+09:00\\)\\nNow: Photographer until ${tokyoDay} 18:00 \\(in \\d+ days\\): ${PHOTO_URL}\\nThen the main site from ${tokyoDay} 18:00$`,
      ),
    );
    const list = await namecard(['list'], { TZ: 'America/New_York' });
    expect(list.stdout).toMatch(
      /^Times in America\/New_York \(UTC-0[45]:00\)\n\* \d+ {2}photo {2}until \w{3} 15 Jul \d{4} 05:00 {2}on now, until \w{3} 15 Jul \d{4} 05:00$/,
    );
    const utc = await namecard(['status'], { TZ: 'UTC' });
    expect(utc.stdout).toMatch(/^Times in UTC\nNow: Photographer until \w{3} 15 Jul \d{4} 09:00 /);
  });

  it('with --tz, `set`, `status` and `list` show times in that zone and name it once', async () => {
    // This machine is in UTC; the owner reads Tokyo times.
    const set = await namecard(['set', 'photo', date, '18:00', '--tz', 'Asia/Tokyo']);
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toBe(
      [
        `✔ The card points to photo (Photographer) until ${date} 18:00 Asia/Tokyo (UTC+09:00)`,
        `  That is ${date} 09:00 UTC here.`,
        'Times in Asia/Tokyo (UTC+09:00)',
        `Now: Photographer until ${tokyoDay} 18:00 (in ${daysToTokyo()} days): ${PHOTO_URL}`,
        `Then the main site from ${tokyoDay} 18:00`,
      ].join('\n'),
    );
    const status = await namecard(['status', '--tz', 'Asia/Tokyo']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toBe(
      [
        'Times in Asia/Tokyo (UTC+09:00)',
        `Now: Photographer until ${tokyoDay} 18:00 (in ${daysToTokyo()} days): ${PHOTO_URL}`,
        `Then the main site from ${tokyoDay} 18:00`,
      ].join('\n'),
    );
    const list = await namecard(['list', '--tz', 'Asia/Tokyo']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(
        `^Times in Asia/Tokyo \\(UTC\\+09:00\\)\\n\\* \\d+ {2}photo {2}until ${tokyoDay} 18:00 {2}on now, until ${tokyoDay} 18:00$`,
      ),
    );
    // The same check of the name as `set` and `stats` make, exit 2.
    for (const command of ['status', 'list']) {
      const bad = await namecard([command, '--tz', 'Mars/Olympus']);
      expect(bad.exitCode, command).toBe(2);
      expect(bad.stderr, command).toBe(
        'error: `--tz` must be an IANA time zone such as Asia/Tokyo, got `Mars/Olympus`',
      );
    }
  });

  it("signed out, `list` is the visitors' view: what visitors get from now on, never an entry's inner state", async () => {
    const later = `${year}-08-01`;
    await namecard(['set', 'photo', later, '18:00', '--from', `${later} 09:00`]);
    await namecard(['set', 'photo', '--for', '1h']);
    const [scheduled, running] = await rows(cli.emulator);
    expect((await namecard(['cancel', String(scheduled!.id)])).exitCode).toBe(0);
    expect((await namecard(['end'])).exitCode).toBe(0);
    await namecard(['set', 'photo', date, '18:00']);

    const signedOut = (args: string[]) =>
      run(`${cli.dir}-signed-out`, args, { env: emulatorEnv(cli.emulator) });
    const text = await signedOut(['list']);
    expect(text.exitCode).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines).toEqual([
      'Signed out: what visitors get from now on, as anyone may read it; `namecard login` lists the entries with their ids and how each ended',
      'Times in UTC',
      expect.stringMatching(/^\* photo {2}until \w{3} 15 Jul \d{4} 18:00 {2}on now$/),
      expect.stringMatching(/^ {2}main {3}from \w{3} 15 Jul \d{4} 18:00$/),
    ]);
    // The cancelled and the ended entries are not what visitors get: nothing is said of them.
    expect(text.stdout).not.toMatch(/never shown|ended early|cancelled|\b${running!.id}\b/);

    const json = JSON.parse((await signedOut(['list', '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toEqual({
      now: expect.any(Number),
      signed_in: false,
      timeline: [
        expect.objectContaining({ type: 'photo', to: Date.UTC(year, 6, 15, 18) }),
        expect.objectContaining({ type: 'main', from: Date.UTC(year, 6, 15, 18), to: null }),
      ],
      series: [],
    });

    // Signed in, the entries' own columns tell each state exactly.
    const [, , current] = await rows(cli.emulator);
    const owner = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      signed_in: boolean;
      entries: { id: number; state: string }[];
    };
    expect(owner.signed_in).toBe(true);
    expect(owner.entries.map((entry) => [entry.id, entry.state])).toEqual([
      [current!.id, 'on-now'],
      [running!.id, 'ended-early'],
      [scheduled!.id, 'cancelled'],
    ]);
    expect((await namecard(['list'])).stdout).not.toContain('Signed out');
  });

  it('`status` says when nothing is active', async () => {
    const status = await namecard(['status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toBe(`Times in UTC\nNow: the main site: ${MAIN_URL}`);
    expect(JSON.parse((await namecard(['status', '--json'])).stdout)).toEqual({
      active: null,
      target: MAIN_URL,
      ends_at: null,
      remaining_ms: null,
      next: null,
      timeline: [{ type: 'main', from: expect.any(Number), to: null }],
      series: [],
    });
  });

  it('`list --limit` shows the newest entries only', async () => {
    for (const time of ['10:00', '11:00', '12:00']) await namecard(['set', 'main', date, time]);
    const ids = (await rows(cli.emulator)).map((row) => row.id);
    const list = await namecard(['list', '--limit', '2', '--json']);
    const entries = (JSON.parse(list.stdout) as { entries: { id: number }[] }).entries;
    expect(entries.map((entry) => entry.id)).toEqual([ids[2], ids[1]]);
    const bad = await namecard(['list', '--limit', '0']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('`--limit` must be a whole number from 1 to 1000, got `0`');
  });
});

describe('namecard set as a user who is not an owner', () => {
  it('says in plain words that the account may not change the card, and inserts nothing', async () => {
    await cli.emulator.createUser('guest@example.com', 'guest password', { owner: false });
    const result = await namecard(['set', 'photo', date, '18:00'], {
      NAMECARD_EMAIL: 'guest@example.com',
      NAMECARD_PASSWORD: 'guest password',
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      [
        'error: this account is a member of no card, so it may not act on the card main',
        'Accept an invitation to a card with `namecard member accept <code>`, or add a card of your own with `namecard card add <slug>`',
      ].join('\n'),
    );
    expect(await rows(cli.emulator)).toEqual([]);
    const debug = await namecard(['set', 'photo', date, '18:00'], {
      NAMECARD_EMAIL: 'guest@example.com',
      NAMECARD_PASSWORD: 'guest password',
      NAMECARD_DEBUG: '1',
    });
    expect(debug.stderr).toContain('None of your cards is called main');
  });

  it('`whoami` says that the account may not change the card; for the owner it says nothing more', async () => {
    await cli.emulator.createUser('visitor@example.com', 'visitor password', { owner: false });
    const guest = await namecard(['whoami'], {
      NAMECARD_EMAIL: 'visitor@example.com',
      NAMECARD_PASSWORD: 'visitor password',
    });
    expect(guest.exitCode).toBe(0);
    expect(guest.stdout).toBe(
      [
        `visitor@example.com at ${cli.emulator.url} (from NAMECARD_EMAIL, for each run)`,
        '! This account may not change the card main: it is neither an owner nor an editor of it.',
      ].join('\n'),
    );
    const owner = await namecard(['whoami']);
    expect(owner.stdout).toBe(`${OWNER.email} at ${cli.emulator.url}`);
  });
});

describe('namecard set refuses bad input and inserts nothing', () => {
  const refused: [string, string[], string, Record<string, string>?][] = [
    [
      'an unknown profile',
      ['set', 'video', date, '18:00'],
      '`profile` must be main or photo, got `video`',
    ],
    [
      'a date that does not exist',
      ['set', 'photo', '2030-02-30', '18:00'],
      '`date` 2030-02-30 does not exist: February 2030 has 28 days',
    ],
    ['24:00', ['set', 'photo', date, '24:00'], '`time` must be HH:MM (24-hour), got `24:00`'],
    [
      'a time in the past',
      ['set', 'photo', '2020-01-01', '18:00'],
      '`date` and `time` must be in the future, got `2020-01-01 18:00` in UTC',
    ],
    [
      'a local time skipped by the DST jump',
      ['set', 'photo', springForwardDate(), '02:30', '--tz', 'America/New_York'],
      `\`time\` 02:30 does not exist on ${springForwardDate()} in America/New_York (the clocks jump forward)`,
    ],
    [
      'an unknown --tz',
      ['set', 'photo', date, '18:00', '--tz', 'Mars/Olympus'],
      '`--tz` must be an IANA time zone such as Asia/Tokyo, got `Mars/Olympus`',
    ],
    ['extra arguments', ['set', 'photo', date, '18:00', 'now'], "too many arguments for 'set'"],
  ];

  it.each(refused)('refuses %s', async (_name, args, message) => {
    const result = await namecard(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
    expect(await rows(cli.emulator)).toEqual([]);
  });

  it('without a terminal, a missing argument is a usage error naming it (exit 2)', async () => {
    const result = await namecard(['set', 'photo', date]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('missing argument `time` (HH:MM, 24-hour)');
    const none = await namecard(['set']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain(
      'missing arguments `profile` (a profile, see `namecard profile list`), `date` (YYYY-MM-DD), `time`',
    );
    expect(await rows(cli.emulator)).toEqual([]);
  });
});
