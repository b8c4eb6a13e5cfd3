import { describe, expect, it } from 'vitest';
import { removeDir, run, tempConfigDir } from './helpers.js';
import { emulatorEnv, useCliFixture } from './emulator.js';
import { STRANGER } from '../support/accounts.js';
import { storeVisits, type StoredVisits } from '../support/visits.js';

// `namecard stats`: the card's visit counts by local day, profile and channel, for its members,
// from the 15-minute buckets of public.namecard_visit (written here straight into the database).

const cli = useCliFixture({ signIn: true });
const namecard = (args: string[], env: Record<string, string> = {}, dir = cli.dir) =>
  run(dir, args, { env: emulatorEnv(cli.emulator, env) });

const DAY = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Stores counts `ago` ms before now in the card main. */
async function store(counts: { ago: number; type: string; via: string; visits: number }[]) {
  const now = Date.now();
  await storeVisits(
    cli.emulator,
    counts.map(({ ago, type, via, visits }) => ({
      at: now - ago,
      type,
      via: via as StoredVisits['via'],
      visits,
    })),
  );
  return now;
}

const zeros = { by_type: { main: 0, photo: 0 }, by_via: { qr: 0, nfc: 0, link: 0 } };

describe('namecard stats', () => {
  it('--json prints the window in the machine zone, every day present, oldest first', async () => {
    const now = await store([
      { ago: 0, type: 'main', via: 'qr', visits: 3 },
      { ago: 2 * DAY, type: 'photo', via: 'nfc', visits: 2 },
      { ago: 40 * DAY, type: 'main', via: 'link', visits: 100 },
    ]);
    const { exitCode, stdout, stderr } = await namecard(['stats', '--json']);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const json = JSON.parse(stdout) as Record<string, unknown> & {
      days: { day: string; total: number }[];
    };
    const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
    expect(Object.keys(json)).toEqual([
      'from',
      'to',
      'time_zone',
      'total',
      'by_type',
      'by_via',
      'days',
    ]);
    expect(json).toMatchObject({
      from: today - 29 * DAY,
      to: today + DAY,
      time_zone: 'UTC',
      total: 5,
      by_type: { main: 3, photo: 2 },
      by_via: { qr: 3, nfc: 2, link: 0 },
    });
    expect(json.days).toHaveLength(30);
    expect(json.days.map((d) => d.day)).toEqual(
      Array.from({ length: 30 }, (_, i) => utcDay(today - (29 - i) * DAY)),
    );
    expect(json.days[29]).toEqual({
      day: utcDay(now),
      total: 3,
      by_type: { main: 3, photo: 0 },
      by_via: { qr: 3, nfc: 0, link: 0 },
    });
    expect(json.days[27]).toEqual({
      day: utcDay(now - 2 * DAY),
      total: 2,
      by_type: { main: 0, photo: 2 },
      by_via: { qr: 0, nfc: 2, link: 0 },
    });
    expect(json.days[0]).toEqual({ day: utcDay(today - 29 * DAY), total: 0, ...zeros });
  });

  it('counts a profile the owner added like the built-in ones', async () => {
    await cli.emulator.query(
      `insert into public.namecard_profile (card_id, name, label, url)
       select c.id, 'shop', 'Shop', 'https://card.example/shop' from public.namecard_card as c
       where c.slug = 'main'
       on conflict (card_id, name) do nothing`,
    );
    await store([
      { ago: 0, type: 'shop', via: 'qr', visits: 4 },
      { ago: DAY, type: 'main', via: 'link', visits: 1 },
    ]);
    const json = JSON.parse((await namecard(['stats', '--json'])).stdout) as {
      by_type: Record<string, number>;
      days: { by_type: Record<string, number> }[];
    };
    expect(json.by_type).toEqual({ main: 1, photo: 0, shop: 4 });
    expect(json.days[0]!.by_type).toEqual({ main: 0, photo: 0, shop: 0 });
    expect(json.days.at(-1)!.by_type).toEqual({ main: 0, photo: 0, shop: 4 });
    const text = await namecard(['stats']);
    expect(text.exitCode).toBe(0);
    // Each profile by its label, as everywhere else.
    expect(text.stdout).toContain('by profile: Main Profile 1, Photographer 0, Shop 4');
    await cli.emulator.query('truncate public.namecard_visit');
  });

  it('--days and --tz choose the window: days in that zone, +05:45 included', async () => {
    await store([{ ago: 0, type: 'main', via: 'link', visits: 1 }]);
    const { exitCode, stdout } = await namecard([
      'stats',
      '--days',
      '7',
      '--tz',
      'Asia/Kathmandu',
      '--json',
    ]);
    expect(exitCode).toBe(0);
    const json = JSON.parse(stdout) as {
      from: number;
      to: number;
      time_zone: string;
      total: number;
      days: unknown[];
    };
    expect(json.time_zone).toBe('Asia/Kathmandu');
    expect(json.days).toHaveLength(7);
    expect(json.total).toBe(1);
    // Kathmandu's midnight is 18:15 UTC.
    expect(new Date(json.from).toISOString().slice(11)).toBe('18:15:00.000Z');
    expect(json.to - json.from).toBe(7 * DAY);
  });

  it('--days 366 counts a year of days, however many calls the server asks it in', async () => {
    await cli.emulator.query('truncate public.namecard_visit');
    const now = await store([
      { ago: 0, type: 'main', via: 'qr', visits: 1 },
      { ago: 31 * DAY, type: 'photo', via: 'nfc', visits: 2 },
      { ago: 62 * DAY, type: 'main', via: 'link', visits: 4 },
      { ago: 365 * DAY, type: 'photo', via: 'qr', visits: 8 },
    ]);
    const { exitCode, stdout, stderr } = await namecard(['stats', '--days', '366', '--json']);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const json = JSON.parse(stdout) as { total: number; days: { day: string; total: number }[] };
    expect(json.days).toHaveLength(366);
    expect(json.total).toBe(15);
    const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
    const on = (ago: number) => json.days.find((d) => d.day === utcDay(today - ago))?.total;
    expect([on(0), on(31 * DAY), on(62 * DAY), on(365 * DAY)]).toEqual([1, 2, 4, 8]);
    await cli.emulator.query('truncate public.namecard_visit');
  });

  it('shows totals and a bar per day, readable at 80 columns and without colour', async () => {
    await store([
      { ago: 0, type: 'main', via: 'qr', visits: 40 },
      { ago: DAY, type: 'photo', via: 'nfc', visits: 1 },
      { ago: 3 * DAY, type: 'main', via: 'link', visits: 9 },
    ]);
    const { exitCode, stdout } = await namecard(['stats']);
    expect(exitCode).toBe(0);
    const lines = stdout.split('\n');
    expect(stdout).not.toContain('\x1b');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(
      /^50 visits from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d \(30 days, UTC\)$/,
    );
    expect(stdout).toContain('by profile: Main Profile 49, Photographer 1');
    expect(stdout).toContain('by channel: QR code 40, NFC 1, link 9');
    const bars = lines.filter((line) => /^\d{4}-\d\d-\d\d /.test(line));
    expect(bars).toHaveLength(30);
    expect(bars.at(-1)).toMatch(/^\d{4}-\d\d-\d\d {2}40 {2}#{50}$/);
    expect(bars.at(-2)).toMatch(/^\d{4}-\d\d-\d\d {3}1 {2}#$/);
    expect(bars.at(-4)).toMatch(/^\d{4}-\d\d-\d\d {3}9 {2}#{11}$/);
    expect(bars[0]).toMatch(/^\d{4}-\d\d-\d\d {3}0$/);
  });

  it.each([['0'], ['367'], ['week'], ['2.5']])(
    'refuses --days %s naming it, exit 2',
    async (days) => {
      const { exitCode, stdout, stderr } = await namecard(['stats', '--days', days]);
      expect(exitCode).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('`--days` must be a whole number from 1 to 366');
    },
  );

  it('refuses an unknown --tz naming it, exit 2', async () => {
    const { exitCode, stderr } = await namecard(['stats', '--tz', 'Mars/Olympus']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('`--tz` must be an IANA time zone');
  });

  it('tells a signed-in account that is a member of no card that it may not read the counts, exit 1', async () => {
    await cli.emulator.createUser(STRANGER.email, STRANGER.password);
    await store([{ ago: 0, type: 'main', via: 'qr', visits: 3 }]);
    const dir = await tempConfigDir();
    try {
      const login = await run(dir, ['login', '--email', STRANGER.email, '--password-stdin'], {
        env: emulatorEnv(cli.emulator),
        input: `${STRANGER.password}\n`,
      });
      expect(login.exitCode).toBe(0);
      const { exitCode, stdout, stderr } = await namecard(['stats', '--json'], {}, dir);
      expect(exitCode).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain(
        'error: this account is a member of no card, so it may not act on the card main',
      );
    } finally {
      await removeDir(dir);
    }
  });

  it('signed out, says to sign in, exit 1', async () => {
    const dir = await tempConfigDir();
    try {
      const { exitCode, stdout, stderr } = await namecard(['stats'], {}, dir);
      expect(exitCode).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/namecard login/);
    } finally {
      await removeDir(dir);
    }
  });
});
