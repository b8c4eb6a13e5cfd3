import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { run } from './helpers.js';
import { emulatorEnv, useCliFixture } from './emulator.js';

// Weekly series from the command line, run as a process against the emulator: `set --every`
// stores one (and refuses bad forms, storing nothing), `cancel` takes its id, and `preview`
// answers what the server's rule answers.

const cli = useCliFixture({ signIn: true });

const namecard = (args: string[], env: Record<string, string> = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });

const seriesRows = async () =>
  (
    await cli.emulator.query<{
      id: number;
      type: string;
      weekdays: number[];
      start_time: string;
      end_time: string;
      time_zone: string;
      first_date: string | null;
      last_date: string | null;
      stop_kind: string | null;
    }>(
      `select id, type, weekdays, start_time::text, end_time::text, time_zone,
         first_date::text, last_date::text, stop_kind from public.namecard_series order by id`,
    )
  ).map((row) => ({ ...row, id: Number(row.id), weekdays: row.weekdays.map(Number) }));

beforeEach(async () => {
  await cli.emulator.query('delete from public.namecard_series_stop');
  await cli.emulator.query('delete from public.namecard_series');
});

describe('namecard set --every', () => {
  it('stores a weekly series and prints it with its id and next occurrences (--json)', async () => {
    const result = await namecard([
      'set',
      'photo',
      '--every',
      'sat,sun',
      '10:00-18:00',
      '--tz',
      'Europe/Berlin',
      '--from',
      '2030-06-01',
      '--until',
      '2030-09-30',
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const doc = JSON.parse(result.stdout) as {
      series: { id: number; weekdays: number[]; time_zone: string };
      next_occurrences: { starts_at: string; ends_at: string }[];
    };
    expect(await seriesRows()).toEqual([
      {
        id: doc.series.id,
        type: 'photo',
        weekdays: [6, 7],
        start_time: '10:00:00',
        end_time: '18:00:00',
        time_zone: 'Europe/Berlin',
        first_date: '2030-06-01',
        last_date: '2030-09-30',
        stop_kind: null,
      },
    ]);
    // Saturday 1 June 2030, 10:00-18:00 summer time in Berlin (UTC+2).
    expect(doc.next_occurrences[0]).toEqual({
      starts_at: '2030-06-01T08:00:00.000Z',
      ends_at: '2030-06-01T16:00:00.000Z',
      stamp_start: Date.parse('2030-06-01T08:00:00Z'),
      stamp_end: Date.parse('2030-06-01T16:00:00Z'),
    });
  });

  it('says the series in one line for people, with the id cancel takes', async () => {
    const result = await namecard([
      'set',
      'photo',
      '--every',
      'mon-fri',
      '22:00-02:00',
      '--tz',
      'UTC',
    ]);
    expect(result.exitCode).toBe(0);
    const [row] = await seriesRows();
    expect(result.stdout).toContain(
      `✔ Series ${row!.id}: photo (Photographer) every Mon–Fri 22:00–02:00 in UTC`,
    );
    expect(result.stdout).toMatch(/^ {2}Next: /m);
  });

  const refused: [string, string[], string][] = [
    [
      'a misspelt day name, suggesting the day meant',
      ['--every', 'sta', '10:00-18:00'],
      '`--every` must be weekdays such as sat, sat,sun or mon-fri (mon tue wed thu fri sat sun), got `sta`: did you mean `sat`?',
    ],
    [
      'a misspelt zone, suggesting the zone meant',
      ['--every', 'sat', '10:00-18:00', '--tz', 'Europe/Berln'],
      '`--tz` must be an IANA time zone such as Asia/Tokyo, got `Europe/Berln`: did you mean `Europe/Berlin`?',
    ],
    [
      'a time range without minutes',
      ['--every', 'sat', '10-18'],
      '`time range` must be HH:MM-HH:MM (24-hour, e.g. 10:00-18:00; 22:00-02:00 runs past midnight), got `10-18`',
    ],
    [
      'an unknown zone',
      ['--every', 'sat', '10:00-18:00', '--tz', 'Mars/Olympus'],
      '`--tz` must be an IANA time zone such as Asia/Tokyo, got `Mars/Olympus`',
    ],
    [
      'a first date that does not exist',
      ['--every', 'sat', '10:00-18:00', '--from', '2030-02-30'],
      '`--from` 2030-02-30 does not exist: February 2030 has 28 days',
    ],
    [
      'a last date before the first',
      ['--every', 'sat', '10:00-18:00', '--from', '2030-06-01', '--until', '2030-05-01'],
      '`--until` must be a date on or after --from (2030-06-01), got `2030-05-01`',
    ],
    [
      'a last date past 2199, which the server does not keep',
      ['--every', 'sat', '10:00-18:00', '--until', '9999-12-31'],
      '`--until` must be a date from 1970-01-01 to 2199-12-31, got `9999-12-31`',
    ],
    ['no time range', ['--every', 'sat'], 'missing argument `time range` (HH:MM-HH:MM)'],
  ];

  it('takes whole day names in any case: --every Saturday,SUNDAY', async () => {
    const result = await namecard([
      'set',
      'photo',
      '--every',
      'Saturday,SUNDAY',
      '10:00-18:00',
      '--tz',
      'UTC',
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(
      (JSON.parse(result.stdout) as { series: { weekdays: number[] } }).series.weekdays,
    ).toEqual([6, 7]);
    expect(await seriesRows()).toHaveLength(1);
  });

  it.each(refused)(
    'refuses %s with exit 2, naming the part, storing nothing',
    async (_n, args, message) => {
      const result = await namecard(['set', 'photo', ...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
      expect(await seriesRows()).toEqual([]);
    },
  );

  it('end during an occurrence ends that occurrence and keeps the series', async () => {
    const [{ now }] = (await cli.emulator.query(
      'select (extract(epoch from now()) * 1000)::bigint as now',
    )) as [{ now: string }];
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const range = `${hhmm(Number(now) - 3_600_000)}-${hhmm(Number(now) + 3_600_000)}`;
    const set = await namecard([
      'set',
      'photo',
      '--every',
      'mon-sun',
      range,
      '--tz',
      'UTC',
      '--json',
    ]);
    const { id } = (JSON.parse(set.stdout) as { series: { id: number } }).series;
    const result = await namecard(['end']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      `✔ Ended photo (Photographer, this occurrence of series ${id}): visitors go to the main site now`,
    );
    expect((await seriesRows())[0]!.stop_kind).toBeNull();
    const list = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      series: { id: number; next_starts_at: string | null }[];
    };
    // The next start is tomorrow's: the series goes on.
    expect(Date.parse(list.series[0]!.next_starts_at!)).toBeGreaterThan(
      Number(now) + 20 * 3_600_000,
    );
  });

  it('cancel <series id> ends the series for good and says so', async () => {
    const set = await namecard([
      'set',
      'photo',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'UTC',
      '--json',
    ]);
    const { id } = (JSON.parse(set.stdout) as { series: { id: number } }).series;
    const result = await namecard(['cancel', String(id)]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(
      `✔ Cancelled series ${id}: photo (Photographer) every Sat 10:00–18:00 in UTC. It ends for good`,
    );
    expect((await seriesRows())[0]!.stop_kind).toBe('cancelled');
  });
});

describe('namecard list and status with a series', () => {
  it('list shows the series in one line with its next occurrence; status has its occurrences in the timeline', async () => {
    const set = await namecard([
      'set',
      'photo',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'UTC',
      '--from',
      '2030-06-01',
      '--json',
    ]);
    const { id } = (JSON.parse(set.stdout) as { series: { id: number } }).series;
    const list = await namecard(['list']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain('Series:');
    expect(list.stdout).toContain(
      `  ${id}  photo every Sat 10:00–18:00 from 2030-06-01, next Sat 1 Jun 2030 10:00`,
    );
    const json = JSON.parse((await namecard(['list', '--json'])).stdout) as {
      series: { id: number; next_starts_at: string }[];
    };
    expect(json.series).toEqual([
      expect.objectContaining({ id, next_starts_at: '2030-06-01T10:00:00.000Z' }),
    ]);
    const status = JSON.parse((await namecard(['status', '--json'])).stdout) as {
      timeline: { type: string; from: number; to: number | null }[];
    };
    expect(status.timeline[1]).toEqual({
      type: 'photo',
      from: Date.parse('2030-06-01T10:00:00Z'),
      to: Date.parse('2030-06-01T18:00:00Z'),
    });
  });
});

describe('namecard status with series', () => {
  it('shows each series with an occurrence ahead in one line with its next start, in text and --json; a cancelled one is gone', async () => {
    const set = await namecard([
      'set',
      'photo',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'UTC',
      '--from',
      '2030-06-01',
      '--json',
    ]);
    expect(set.stderr).toBe('');
    expect(set.exitCode).toBe(0);
    const { id } = (JSON.parse(set.stdout) as { series: { id: number } }).series;
    const berlin = await namecard([
      'set',
      'main',
      '--every',
      'mon-fri',
      '22:00-02:00',
      '--tz',
      'Europe/Berlin',
      '--from',
      '2030-06-03',
      '--until',
      '2030-06-28',
      '--json',
    ]);
    expect(berlin.exitCode).toBe(0);
    const berlinId = (JSON.parse(berlin.stdout) as { series: { id: number } }).series.id;

    const status = await namecard(['status']);
    expect(status.stderr).toBe('');
    expect(status.exitCode).toBe(0);
    const lines = status.stdout.split('\n');
    const at = lines.indexOf('Series:');
    expect(at).toBeGreaterThan(0);
    // One line each, oldest first, times in the zone status shows (UTC here); a series set in
    // another zone gives its own zone's times and its next start in both, each zone named.
    // Mon 3 June 2030 22:00 in Berlin (UTC+2) is 20:00 UTC.
    expect(lines.slice(at + 1, at + 3)).toEqual([
      '  photo every Sat 10:00–18:00 from 2030-06-01, next Sat 1 Jun 2030 10:00',
      '  main every Mon–Fri 22:00–02:00 in Europe/Berlin from 2030-06-03 until 2030-06-28, next Mon 3 Jun 2030 22:00 in Europe/Berlin (Mon 3 Jun 2030 20:00 in UTC)',
    ]);
    // Its occurrences are not repeated as changes above it: the one line says them;
    // the now line ends where the first one starts.
    expect(status.stdout).not.toMatch(/^Then Photographer /m);
    expect(status.stdout).toMatch(/^Now: the main site until Sat 1 Jun 2030 10:00 /m);

    const json = JSON.parse((await namecard(['status', '--json'])).stdout) as {
      series: { id: number; next: number; next_starts_at: string }[];
    };
    expect(json.series).toEqual([
      expect.objectContaining({
        id,
        type: 'photo',
        weekdays: [6],
        next_starts_at: '2030-06-01T10:00:00.000Z',
      }),
      expect.objectContaining({
        id: berlinId,
        time_zone: 'Europe/Berlin',
        next_starts_at: '2030-06-03T20:00:00.000Z',
      }),
    ]);

    expect((await namecard(['cancel', String(berlinId)])).exitCode).toBe(0);
    const after = await namecard(['status']);
    expect(after.exitCode).toBe(0);
    expect(after.stdout).toContain(
      '  photo every Sat 10:00–18:00 from 2030-06-01, next Sat 1 Jun 2030 10:00',
    );
    expect(after.stdout).not.toContain('every Mon–Fri');
  });
});

describe('namecard preview', () => {
  it('answers what the server answers, for 1,000 random instants around series and entries', async () => {
    await namecard(['set', 'photo', '--every', 'sat,sun', '10:00-18:00', '--tz', 'Europe/Berlin']);
    await namecard(['set', 'main', '--every', 'sun', '12:00-13:00', '--tz', 'Europe/Berlin']);
    await namecard(['set', 'photo', '--every', 'mon-fri', '22:00-02:00', '--tz', 'Europe/Berlin']);
    // Whole minutes over four weeks round the autumn change; a few fall in the repeated hour.
    const start = Date.parse('2030-10-14T00:00:00Z');
    const minutes = fc.sample(fc.integer({ min: 0, max: 28 * 24 * 60 }), {
      numRuns: 1000,
      seed: 27,
    });
    const instants = minutes.map((m) => start + m * 60_000);
    const at = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
    const result = await namecard([
      'preview',
      '--tz',
      'UTC',
      '--json',
      ...instants.flatMap((ms) => ['--at', at(ms)]),
    ]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const answers = JSON.parse(result.stdout) as {
      at_ms: number;
      id: number | null;
      profile: string;
    }[];
    expect(answers).toHaveLength(1000);
    const server = await cli.emulator.query<{ t: string; id: string | null; type: string | null }>(
      `select i.t, a.id, a.type
       from public.namecard_card as c
       cross join unnest($1::bigint[]) as i (t)
       left join lateral private.namecard_in_force_at(c.id, i.t, 'exact') as a on true
       where c.slug = 'main'`,
      [`{${instants.join(',')}}`],
    );
    const expected = new Map(server.map((r) => [Number(r.t), r]));
    expect(answers.filter((a) => a.id !== null).length).toBeGreaterThan(100);
    for (const answer of answers) {
      const row = expected.get(answer.at_ms)!;
      expect([answer.at_ms, answer.id, answer.profile]).toEqual([
        answer.at_ms,
        row.id === null ? null : Number(row.id),
        row.type ?? 'main',
      ]);
    }
  });

  it('says for people which series decides, in the zone asked', async () => {
    const set = await namecard([
      'set',
      'photo',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'Europe/Berlin',
      '--json',
    ]);
    const { id } = (JSON.parse(set.stdout) as { series: { id: number } }).series;
    const result = await namecard(['preview', '--at', '2030-06-01 12:00', '--tz', 'Europe/Berlin']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `At 2030-06-01 12:00 Europe/Berlin: photo (Photographer), series ${id}, until 2030-06-01 18:00`,
    );
    for (const at of ['2020-01-01 12:00', '2200-01-01 00:00']) {
      // The server answers only from a day ago to the end of 2199: refused before
      // anything is sent, naming the option.
      const far = await namecard(['preview', '--at', at, '--tz', 'UTC']);
      expect(far.exitCode, at).toBe(2);
      expect(far.stderr, at).toContain(
        `\`--at\` must be a time from a day ago to the end of 2199, got \`${at}\``,
      );
    }
    const bad = await namecard(['preview', '--at', '2030-06-01']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('`--at` must be "YYYY-MM-DD HH:MM", got `2030-06-01`');
  });
});
