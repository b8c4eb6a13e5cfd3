import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, atTerminal, removeDir, run, tempConfigDir } from './helpers.js';

// No backend: these all end before any request.

let dir: string;
beforeEach(async () => {
  dir = await tempConfigDir();
});
afterEach(async () => {
  await removeDir(dir);
});

describe('namecard --help and usage errors', () => {
  it('prints the program help on stdout and exits 0', async () => {
    const { exitCode, stdout, stderr } = await run(dir, ['--help']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatchInlineSnapshot(`
      "Usage: namecard [options] [command]

      Point your name card's link at your main site or your photo section

      Options:
        -V, --version                          print the version
        --api-url <url>                        API base URL (overrides SUPABASE_URL)
        --timeout <ms>                         time-out of each request in milliseconds (default: 15000)
        --allow-insecure-http                  send your password and session over plain http: to another machine (a test on your LAN)
        --card <slug>                          the card to act on (overrides NAMECARD_CARD and \`namecard card use\`; default: your only card, else main)
        -h, --help                             show help

      Commands:
        login [options]                        sign in and keep the session here
        set [options] [profile] [date] [time]  set the card's profile and end time
        profile                                list, add, edit or remove the card's profiles (where each sends visitors)
        end [options]                          send visitors to the main site now (entries that start later stay)
        cancel [options] <id>                  cancel a scheduled or running entry, or a weekly series, for good (ids: namecard list)
        status [options]                       show what visitors get now and the coming changes
        list [options]                         list entries, newest first
        preview [options]                      show where the card sends visitors at a given time, by the server
        calendar [options]                     the card's schedule as an iCalendar (.ics) file, to import into a calendar
        link [options]                         print the card's link, the address to put on the card
        qr [options]                           show the card's link as a QR code, or save it as SVG or PNG
        stats [options]                        show the visit counts by day, profile and channel (the card's members)
        card                                   list, add, choose, rename or remove your cards (each has its own link and people)
        member                                 list, invite or remove the card's people, or change their role (owners); accept an invitation
        token                                  create, list or revoke the card's tokens for scripts and CI (owners)
        logout                                 revoke the session and delete it here
        whoami                                 show who calls (you, or a card token), where, and on which card
        doctor [options]                       check the deployment end to end: API, database, sign-ups, account, site
        help [command]                         display help for command

      Settings: flags first, then SUPABASE_URL, SUPABASE_ANON_KEY, NAMECARD_MAIN_URL,
      NAMECARD_PHOTO_PATH, NAMECARD_SITE_URL and NAMECARD_BASE_PATH from the environment, then
      what \`namecard login\` saved, then the local emulator. In CI, set NAMECARD_TOKEN (a card
      token from \`namecard token create\`: its card, its role, no password), or NAMECARD_EMAIL and
      NAMECARD_PASSWORD to sign in for each run. The card: --card, then NAMECARD_CARD, then
      \`namecard card use\`, then your only card, then main where you are a member, then your
      first card by slug; a card token acts on its own card only."
    `);
  });

  it('prints the help of `set` with its arguments and examples', async () => {
    const { exitCode, stdout } = await run(dir, ['set', '--help']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "Usage: namecard set [options] [profile] [date] [time]

      set the card's profile and end time

      Arguments:
        profile                a profile (namecard profile list)
        date                   the end date, YYYY-MM-DD
        time                   the end time, HH:MM (24-hour)

      Options:
        --from <start>         start at "YYYY-MM-DD HH:MM" instead of now (with
                               --every: the first date)
        --every <days>         repeat weekly on these days (sat, sat,sun, mon-fri);
                               then give HH:MM-HH:MM
        --until <date>         with --every: the last date, YYYY-MM-DD
        --for <duration>       end after 90m, 2h, 3d… (instead of date and time)
        --tz <zone>            the IANA time zone of date and time (default: this
                               machine's)
        --json                 print the result as one JSON document
        -h, --help             show help

      Global Options:
        -V, --version          print the version
        --api-url <url>        API base URL (overrides SUPABASE_URL)
        --timeout <ms>         time-out of each request in milliseconds (default:
                               15000)
        --allow-insecure-http  send your password and session over plain http: to
                               another machine (a test on your LAN)
        --card <slug>          the card to act on (overrides NAMECARD_CARD and
                               \`namecard card use\`; default: your only card, else
                               main)

      At a terminal, missing arguments are asked for. --from is read in the same time
      zone as the end; --for counts from the start (or from now).

      Examples:
        $ namecard set photo 2030-06-01 18:00
        $ namecard set photo 2030-06-01 18:00 --from "2030-06-01 09:00"
        $ namecard set photo --for 2h
        $ namecard set main 2030-06-01 09:30 --tz Europe/Berlin
        $ namecard set photo --every sat 10:00-18:00 --tz Europe/Berlin"
    `);
  });

  it('prints the help of `list` with its default limit unquoted', async () => {
    const { exitCode, stdout } = await run(dir, ['list', '--help']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/--limit <n> +how many entries to show \(default: 20\)/);
    expect(stdout).not.toContain('"20"');
  });

  it('has --help on every command', async () => {
    for (const command of [
      'login',
      'set',
      'end',
      'status',
      'list',
      'link',
      'qr',
      'stats',
      'logout',
      'whoami',
      'doctor',
    ]) {
      const { exitCode, stdout } = await run(dir, [command, '--help']);
      expect(exitCode, command).toBe(0);
      expect(stdout, command).toContain(`Usage: namecard ${command}`);
    }
  });

  it('prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const { exitCode, stdout } = await run(dir, ['--version']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(version);
  });

  it("points `set`'s profile to the card's own list, in its help and when it is missing", async () => {
    // Owners add profiles: "main or photo" would leave out every one they added.
    const help = await run(dir, ['set', '--help']);
    expect(help.stdout).toMatch(/^ {2}profile +a profile \(namecard profile list\)$/m);
    const bare = await run(dir, ['set']);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toContain('`profile` (a profile, see `namecard profile list`)');
    for (const text of [help.stdout, bare.stderr]) expect(text).not.toContain('main or photo');
  });

  it('exits 2 with a message on stderr for an unknown command', async () => {
    const { exitCode, stdout, stderr } = await run(dir, ['frobnicate']);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("error: unknown command 'frobnicate'");
  });

  it('exits 2 for an unknown option, on the program and on a command', async () => {
    const program = await run(dir, ['--frobnicate']);
    expect(program.exitCode).toBe(2);
    expect(program.stderr).toContain("error: unknown option '--frobnicate'");
    const command = await run(dir, ['status', '--frobnicate']);
    expect(command.exitCode).toBe(2);
    expect(command.stderr).toContain("error: unknown option '--frobnicate'");
  });

  it('exits 2 for extra arguments', async () => {
    const set = await run(dir, ['set', 'photo', '2030-06-01', '18:00', 'extra']);
    expect(set.exitCode).toBe(2);
    expect(set.stderr).toContain('too many arguments');
    const status = await run(dir, ['status', 'now']);
    expect(status.exitCode).toBe(2);
    expect(status.stderr).toContain('too many arguments');
  });

  // Commander's own refusals read like every other usage error: one `error:` line, then the
  // usage of the command that refused the line.
  it.each([
    [
      ['set', 'photo', '2030-06-01', '10:00', 'extra'],
      "error: too many arguments for 'set'. Expected 3 arguments but got 4.\n" +
        'Usage: namecard set [options] [profile] [date] [time] (more: namecard set --help)',
    ],
    [
      ['status', '--frobnicate'],
      "error: unknown option '--frobnicate'\n" +
        'Usage: namecard status [options] (more: namecard status --help)',
    ],
    [
      ['list', '--limit'],
      "error: option '--limit <n>' argument missing\n" +
        'Usage: namecard list [options] (more: namecard list --help)',
    ],
    [
      ['--frobnicate'],
      "error: unknown option '--frobnicate'\n" +
        'Usage: namecard [options] [command] (more: namecard --help)',
    ],
  ])('prints a usage error of `%s` in the one style, exit 2', async (args, expected) => {
    const { exitCode, stdout, stderr } = await run(dir, args);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(expected);
  });

  it("colours the `error:` of commander's refusals like every other error", async () => {
    const term = atTerminal(dir, ['set', 'photo', '2030-06-01', '10:00', 'extra']);
    expect((await term.exit()).exitCode).toBe(2);
    expect(term.raw).toContain("\x1b[31merror:\x1b[39m too many arguments for 'set'");
    expect(term.raw).toContain('\x1b[2mUsage: namecard set [options]');
    // The same red prefix as an error the CLI raises itself (a profile that cannot be a name is
    // refused before signing in; a name of the form would first be looked up on the server).
    const own = atTerminal(dir, ['set', 'no pe', '2030-06-01', '10:00']);
    expect((await own.exit()).exitCode).toBe(2);
    expect(own.raw).toContain('\x1b[31merror:\x1b[39m `profile` must be');
  });

  it('exits 2 with the short help on stderr when no command is given, like a missing argument', async () => {
    const { exitCode, stdout, stderr } = await run(dir, []);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('Usage: namecard [options] [command]');
    expect(stderr).toBe(
      [
        'error: missing command',
        'Usage: namecard [options] [command] (more: namecard --help)',
        'Commands: login, set, profile, end, cancel, status, list, preview, calendar, link, qr, stats, card, member, token, logout, whoami, doctor',
      ].join('\n'),
    );
  });

  it('exits 1 for `whoami` when signed out', async () => {
    const { exitCode, stderr } = await run(dir, ['whoami']);
    expect(exitCode).toBe(1);
    expect(stderr).toContain('You are not signed in');
  });

  it('takes the program options before or after `status`, in both spellings, alike', async () => {
    const lines = [
      ['status', '--timeout', '0'],
      ['--timeout', '0', 'status'],
      ['--timeout=0', 'status', '--json'],
      ['status', '--json', '--timeout=0'],
    ];
    for (const args of lines) {
      const { exitCode, stdout, stderr } = await run(dir, args);
      expect(exitCode, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        'error: `--timeout` must be a whole number of milliseconds from 100 to 600000, got `0`',
      );
    }
  });

  it('names the setting of a bad SUPABASE_URL and exits 1', async () => {
    const { exitCode, stderr } = await run(dir, ['status'], { env: { SUPABASE_URL: 'nope' } });
    expect(exitCode).toBe(1);
    expect(stderr).toContain('`SUPABASE_URL` must be an http(s) URL');
  });
});
