import { beforeEach, describe, expect, it } from 'vitest';
import { run, summerDate } from '../cli/helpers.js';
import { clearRows, emulatorEnv, rows, useSignedInFile } from '../cli/emulator.js';

// Every argument and option of every command, fed bad input: each case states the message and
// exit code it expects, and that nothing was printed on stdout and no row was inserted. The
// owner is signed in, so a refusal is about the input, never about the session.
//
// Decisions these cases pin:
// - Far future: any real date with a four-digit year is accepted, up to 9999-12-31 23:59. An
//   entry that far out means "until further notice"; a newer entry replaces it at any time.
// - A local time that happens twice (clocks go back) is accepted as the EARLIER instant; one
//   that does not exist (clocks jump forward) is refused.
// - Values are taken as typed: no trimming, no 12-hour clock, no seconds, ASCII digits only.

const cli = useSignedInFile();
beforeEach(async () => {
  await clearRows(cli.emulator);
});

const namecard = (args: string[], env: Record<string, string> = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });

const { date, year } = summerDate();

/** The `n`th Sunday (1-based) of a month (0-based) of `year`, as YYYY-MM-DD and its day. */
function nthSunday(y: number, month: number, n: number): { iso: string; day: number } {
  const first = new Date(Date.UTC(y, month, 1)).getUTCDay();
  const day = 1 + ((7 - first) % 7) + 7 * (n - 1);
  return { iso: `${y}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`, day };
}

/** The last Sunday of a month (0-based) of `year`. */
function lastSunday(y: number, month: number): { iso: string; day: number } {
  const last = new Date(Date.UTC(y, month + 1, 0));
  const day = last.getUTCDate() - last.getUTCDay();
  return { iso: `${y}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`, day };
}

const HOUR = 3_600_000;
const nyBack = nthSunday(year, 10, 1); // first Sunday of November: 02:00 EDT → 01:00 EST
const nyForward = nthSunday(year, 2, 2); // second Sunday of March: 02:00 EST → 03:00 EDT
const euBack = lastSunday(year, 9); // last Sunday of October: 03:00 CEST → 02:00 CET
const euForward = lastSunday(year, 2); // last Sunday of March: 02:00 CET → 03:00 CEST
const auBack = nthSunday(year, 3, 1); // first Sunday of April: 03:00 AEDT → 02:00 AEST
const auForward = nthSunday(year, 9, 1); // first Sunday of October: 02:00 AEST → 03:00 AEDT
const today = new Date().toISOString().slice(0, 10);
const LONG = 'x'.repeat(10_000);

interface Refused {
  args: string[];
  /** Exit code: 2 for usage (the command line is wrong), 1 for a failure. */
  exit: 1 | 2;
  /** What stderr says (its first line contains this). */
  says: string;
  env?: Record<string, string>;
}

const set = (...args: string[]) => ['set', ...args];

const REFUSED: Record<string, Refused> = {
  // the server keeps instants from 1970 to the end of 2199
  'the far future (9999-12-31 23:59)': {
    args: set('main', '9999-12-31', '23:59'),
    exit: 2,
    says: '`date` and `time` must be before 2200, got `9999-12-31 23:59`: the card keeps times to the end of 2199',
  },
  // profile
  'an unknown profile': {
    args: set('video', date, '18:00'),
    exit: 2,
    says: '`profile` must be main or photo, got `video`',
  },
  'a profile with a typo gets a suggestion': {
    args: set('foto', date, '18:00'),
    exit: 2,
    says: '`profile` must be main or photo, got `foto`: did you mean `photo`?',
  },
  'an empty profile': {
    args: set('', date, '18:00'),
    exit: 2,
    says: '`profile` must be main or photo, got ``',
  },
  'a non-ASCII profile': {
    args: set('phötö', date, '18:00'),
    exit: 2,
    says: '`profile` must be main or photo, got `phötö`',
  },
  'a 10 KB profile, cut short in the echo': {
    args: set(LONG, date, '18:00'),
    exit: 2,
    says: `\`profile\` must be main or photo, got \`${'x'.repeat(40)}… (10000 characters)\``,
  },
  'a profile with a terminal escape, shown escaped': {
    args: set('photo\u001b[2J', date, '18:00'),
    exit: 2,
    says: '`profile` must be main or photo, got `photo\\u{1b}[2J`',
  },
  // date
  'an impossible date (2030-02-30)': {
    args: set('photo', '2030-02-30', '18:00'),
    exit: 2,
    says: '`date` 2030-02-30 does not exist: February 2030 has 28 days',
  },
  'February 29 of a common year (2031)': {
    args: set('photo', '2031-02-29', '18:00'),
    exit: 2,
    says: '`date` 2031-02-29 does not exist: February 2031 has 28 days',
  },
  'month 13': {
    args: set('photo', '2030-13-01', '18:00'),
    exit: 2,
    says: '`date` 2030-13-01 does not exist: there is no month 13',
  },
  'day 00': {
    args: set('photo', '2030-06-00', '18:00'),
    exit: 2,
    says: '`date` 2030-06-00 does not exist: June 2030 has 30 days',
  },
  'a date with slashes': {
    args: set('photo', '2030/06/01', '18:00'),
    exit: 2,
    says: '`date` must be YYYY-MM-DD, got `2030/06/01`',
  },
  'a date without leading zeros': {
    args: set('photo', '2030-6-1', '18:00'),
    exit: 2,
    says: '`date` must be YYYY-MM-DD, got `2030-6-1`',
  },
  'a two-digit year': {
    args: set('photo', '30-06-01', '18:00'),
    exit: 2,
    says: '`date` must be YYYY-MM-DD, got `30-06-01`',
  },
  'a five-digit year': {
    args: set('photo', '10000-01-01', '18:00'),
    exit: 2,
    says: '`date` must be YYYY-MM-DD, got `10000-01-01`',
  },
  'a word for a date': {
    args: set('photo', 'tomorrow', '18:00'),
    exit: 2,
    says: '`date` must be YYYY-MM-DD, got `tomorrow`',
  },
  'an empty date': {
    args: set('photo', '', '18:00'),
    exit: 2,
    says: '`date` must be YYYY-MM-DD, got ``',
  },
  'full-width digits': {
    args: set('photo', '２０３０-06-01', '18:00'),
    exit: 2,
    says: '`date` must be YYYY-MM-DD, got `２０３０-06-01`',
  },
  'a date with a time in it': {
    args: set('photo', '2030-06-01T18:00', '18:00'),
    exit: 2,
    says: '`date` must be YYYY-MM-DD, got `2030-06-01T18:00`',
  },
  'a 10 KB date': {
    args: set('photo', LONG, '18:00'),
    exit: 2,
    says: `\`date\` must be YYYY-MM-DD, got \`${'x'.repeat(40)}… (10000 characters)\``,
  },
  // time
  '24:00': {
    args: set('photo', date, '24:00'),
    exit: 2,
    says: '`time` must be HH:MM (24-hour), got `24:00`',
  },
  '7:5': {
    args: set('photo', date, '7:5'),
    exit: 2,
    says: '`time` must be HH:MM (24-hour), got `7:5`',
  },
  'seconds (18:00:00)': {
    args: set('photo', date, '18:00:00'),
    exit: 2,
    says: '`time` must be HH:MM (24-hour), got `18:00:00`',
  },
  'minute 60': {
    args: set('photo', date, '07:60'),
    exit: 2,
    says: '`time` must be HH:MM (24-hour), got `07:60`',
  },
  'a 12-hour time': {
    args: set('photo', date, '6pm'),
    exit: 2,
    says: '`time` must be HH:MM (24-hour), got `6pm`',
  },
  'a time with a space before it': {
    args: set('photo', date, ' 18:00'),
    exit: 2,
    says: '`time` must be HH:MM (24-hour), got ` 18:00`',
  },
  'an empty time': {
    args: set('photo', date, ''),
    exit: 2,
    says: '`time` must be HH:MM (24-hour), got ``',
  },
  // the past
  'a date in the past': {
    args: set('photo', '2020-01-01', '18:00'),
    exit: 2,
    says: '`date` and `time` must be in the future, got `2020-01-01 18:00` in UTC',
  },
  'midnight today (already past)': {
    args: set('photo', today, '00:00'),
    exit: 2,
    says: `\`date\` and \`time\` must be in the future, got \`${today} 00:00\` in UTC`,
  },
  'year 0000': {
    args: set('photo', '0000-01-01', '00:00'),
    exit: 2,
    says: '`date` and `time` must be in the future, got `0000-01-01 00:00` in UTC',
  },
  // local times skipped by daylight saving
  'a time skipped in New York (--tz)': {
    args: set('photo', nyForward.iso, '02:30', '--tz', 'America/New_York'),
    exit: 2,
    says: `\`time\` 02:30 does not exist on ${nyForward.iso} in America/New_York (the clocks jump forward): choose another time`,
  },
  'a time skipped in Berlin (machine zone)': {
    args: set('photo', euForward.iso, '02:30'),
    env: { TZ: 'Europe/Berlin' },
    exit: 2,
    says: `\`time\` 02:30 does not exist on ${euForward.iso} in Europe/Berlin (the clocks jump forward)`,
  },
  'a time skipped in Sydney': {
    args: set('main', auForward.iso, '02:00', '--tz', 'Australia/Sydney'),
    exit: 2,
    says: `\`time\` 02:00 does not exist on ${auForward.iso} in Australia/Sydney`,
  },
  'a time skipped by Lord Howe Island’s half-hour jump': {
    args: set('main', auForward.iso, '02:15', '--tz', 'Australia/Lord_Howe'),
    exit: 2,
    says: `\`time\` 02:15 does not exist on ${auForward.iso} in Australia/Lord_Howe`,
  },
  // --tz
  'an unknown --tz': {
    args: set('photo', date, '18:00', '--tz', 'Mars/Olympus'),
    exit: 2,
    says: '`--tz` must be an IANA time zone such as Asia/Tokyo, got `Mars/Olympus`',
  },
  'an empty --tz': {
    args: set('photo', date, '18:00', '--tz', ''),
    exit: 2,
    says: '`--tz` must be an IANA time zone such as Asia/Tokyo, got ``',
  },
  'a misspelt --tz, with the zone meant': {
    args: set('photo', date, '18:00', '--tz', 'Europe/Berln'),
    exit: 2,
    says: '`--tz` must be an IANA time zone such as Asia/Tokyo, got `Europe/Berln`: did you mean `Europe/Berlin`?',
  },
  "a city's name for --tz, with its zone": {
    args: ['status', '--tz', 'tokio'],
    exit: 2,
    says: '`--tz` must be an IANA time zone such as Asia/Tokyo, got `tokio`: did you mean `Asia/Tokyo`?',
  },
  'an abbreviation for --tz': {
    args: set('photo', date, '18:00', '--tz', 'CEST'),
    exit: 2,
    says: '`--tz` must be an IANA time zone such as Asia/Tokyo, got `CEST`',
  },
  'a 10 KB --tz': {
    args: set('photo', date, '18:00', '--tz', LONG),
    exit: 2,
    says: `got \`${'x'.repeat(40)}… (10000 characters)\``,
  },
  '--tz without a value': {
    args: set('photo', date, '18:00', '--tz'),
    exit: 2,
    says: "error: option '--tz <zone>' argument missing",
  },
  // missing and extra arguments
  'set without a time': {
    args: set('photo', date),
    exit: 2,
    says: 'missing argument `time` (HH:MM, 24-hour)',
  },
  'set with nothing': {
    args: set(),
    exit: 2,
    says: 'missing arguments `profile` (a profile, see `namecard profile list`), `date` (YYYY-MM-DD), `time` (HH:MM, 24-hour)',
  },
  'set with an extra argument': {
    args: set('photo', date, '18:00', 'now'),
    exit: 2,
    says: "error: too many arguments for 'set'",
  },
  'status with an argument': {
    args: ['status', 'now'],
    exit: 2,
    says: "error: too many arguments for 'status'",
  },
  'list with an argument': {
    args: ['list', '5'],
    exit: 2,
    says: "error: too many arguments for 'list'",
  },
  'logout with an argument': {
    args: ['logout', 'all'],
    exit: 2,
    says: "error: too many arguments for 'logout'",
  },
  'whoami with an argument': {
    args: ['whoami', 'me'],
    exit: 2,
    says: "error: too many arguments for 'whoami'",
  },
  'login with an argument': {
    args: ['login', 'owner@example.com'],
    exit: 2,
    says: "error: too many arguments for 'login'",
  },
  'login without --email (no terminal)': {
    args: ['login', '--password-stdin'],
    exit: 2,
    says: 'missing option `--email <email>`',
  },
  'login with a malformed email': {
    args: ['login', '--email', 'owner.example.com', '--password-stdin'],
    exit: 2,
    says: '`email` must be an email address, got `owner.example.com`',
  },
  // --limit
  '--limit 0': {
    args: ['list', '--limit', '0'],
    exit: 2,
    says: '`--limit` must be a whole number from 1 to 1000, got `0`',
  },
  '--limit -1': {
    args: ['list', '--limit', '-1'],
    exit: 2,
    says: '`--limit` must be a whole number from 1 to 1000, got `-1`',
  },
  '--limit abc': {
    args: ['list', '--limit', 'abc'],
    exit: 2,
    says: '`--limit` must be a whole number from 1 to 1000, got `abc`',
  },
  '--limit 1e9': {
    args: ['list', '--limit', '1e9'],
    exit: 2,
    says: '`--limit` must be a whole number from 1 to 1000, got `1e9`',
  },
  '--limit 1.5': {
    args: ['list', '--limit', '1.5'],
    exit: 2,
    says: '`--limit` must be a whole number from 1 to 1000, got `1.5`',
  },
  '--limit 1001': {
    args: ['list', '--limit', '1001'],
    exit: 2,
    says: '`--limit` must be a whole number from 1 to 1000, got `1001`',
  },
  '--limit without a value': {
    args: ['list', '--limit'],
    exit: 2,
    says: "error: option '--limit <n>' argument missing",
  },
  // --timeout and --api-url (global)
  '--timeout 0': {
    args: ['status', '--timeout', '0'],
    exit: 2,
    says: '`--timeout` must be a whole number of milliseconds from 100 to 600000, got `0`',
  },
  '--timeout abc': {
    args: ['list', '--timeout', 'abc'],
    exit: 2,
    says: '`--timeout` must be a whole number of milliseconds from 100 to 600000, got `abc`',
  },
  '--timeout 1e9': {
    args: set('photo', date, '18:00', '--timeout', '1e9'),
    exit: 2,
    says: '`--timeout` must be a whole number of milliseconds from 100 to 600000, got `1e9`',
  },
  '--timeout over ten minutes': {
    args: ['status', '--timeout', '600001'],
    exit: 2,
    says: 'got `600001`',
  },
  '--api-url that is not a URL': {
    args: ['status', '--api-url', 'nope'],
    exit: 2,
    says: '`--api-url` must be an http(s) URL such as http://127.0.0.1:54321, got `nope`',
  },
  '--api-url with another scheme': {
    args: set('photo', date, '18:00', '--api-url', 'ftp://example.com'),
    exit: 2,
    says: 'got `ftp://example.com`',
  },
  // unknown options
  'an unknown option on set': {
    args: set('photo', date, '18:00', '--force'),
    exit: 2,
    says: "error: unknown option '--force'",
  },
  'another command’s option': {
    args: ['status', '--limit', '5'],
    exit: 2,
    says: "error: unknown option '--limit'",
  },
  'an option in the wrong case': {
    args: set('photo', date, '18:00', '--TZ', 'UTC'),
    exit: 2,
    says: "error: unknown option '--TZ'",
  },
  'a password on the command line': {
    args: ['login', '--email', 'owner@example.com', '--password', 'x'],
    exit: 2,
    says: "error: unknown option '--password'",
  },
  'a 10 KB unknown option': {
    args: ['status', `--${LONG}`],
    exit: 2,
    says: "error: unknown option '--xxxx",
  },
};

describe('bad input is refused with its message and exit code, and nothing is stored', () => {
  it.each(Object.entries(REFUSED))('%s', async (_name, c) => {
    const result = await namecard(c.args, c.env);
    expect(result.exitCode).toBe(c.exit);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toContain(c.says);
    expect(result.stderr.length).toBeLessThan(400); // readable, whatever came in
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await rows(cli.emulator)).toEqual([]);
  });
});

interface Accepted {
  args: string[];
  env?: Record<string, string>;
  /** The row that must be stored. */
  row: { type: string; stamp_end: number };
}

const ACCEPTED: Record<string, Accepted> = {
  // Profiles are read in any case: `Photo` and `MAIN` mean what they say.
  'a profile in the wrong case': {
    args: set('Photo', date, '18:00'),
    row: { type: 'photo', stamp_end: Date.UTC(year, 6, 15, 18, 0) },
  },
  'a profile in capitals': {
    args: set('MAIN', date, '18:00'),
    row: { type: 'main', stamp_end: Date.UTC(year, 6, 15, 18, 0) },
  },
  'February 29 of a leap year (2032)': {
    args: set('photo', '2032-02-29', '18:00'),
    row: { type: 'photo', stamp_end: Date.UTC(2032, 1, 29, 18, 0) },
  },
  'the last minute the card keeps (2199-12-31 23:59)': {
    args: set('main', '2199-12-31', '23:59'),
    row: { type: 'main', stamp_end: Date.UTC(2199, 11, 31, 23, 59) },
  },
  'a repeated time in New York, as the earlier (EDT) instant': {
    args: set('photo', nyBack.iso, '01:30', '--tz', 'America/New_York'),
    row: { type: 'photo', stamp_end: Date.UTC(year, 10, nyBack.day, 1, 30) + 4 * HOUR },
  },
  'a repeated time in New York from the machine zone': {
    args: set('photo', nyBack.iso, '01:59'),
    env: { TZ: 'America/New_York' },
    row: { type: 'photo', stamp_end: Date.UTC(year, 10, nyBack.day, 1, 59) + 4 * HOUR },
  },
  'a repeated time in Berlin, as the earlier (CEST) instant': {
    args: set('main', euBack.iso, '02:30', '--tz', 'Europe/Berlin'),
    row: { type: 'main', stamp_end: Date.UTC(year, 9, euBack.day, 2, 30) - 2 * HOUR },
  },
  'a repeated time in Sydney, as the earlier (AEDT) instant': {
    args: set('photo', auBack.iso, '02:30', '--tz', 'Australia/Sydney'),
    row: { type: 'photo', stamp_end: Date.UTC(year, 3, auBack.day, 2, 30) - 11 * HOUR },
  },
  'a repeated half hour on Lord Howe Island, as the earlier (+11) instant': {
    args: set('photo', auBack.iso, '01:45', '--tz', 'Australia/Lord_Howe'),
    row: { type: 'photo', stamp_end: Date.UTC(year, 3, auBack.day, 1, 45) - 11 * HOUR },
  },
  'a zone name in lower case (IANA names are case-insensitive)': {
    args: set('main', date, '18:00', '--tz', 'asia/tokyo'),
    row: { type: 'main', stamp_end: Date.UTC(year, 6, 15, 9, 0) },
  },
};

describe('edge-case input that is valid is stored exactly', () => {
  it.each(Object.entries(ACCEPTED))('%s', async (_name, c) => {
    const result = await namecard(c.args, c.env);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(cli.emulator)).toEqual([{ id: expect.any(Number), ...c.row }]);
  });
});
