import { afterEach, describe, expect, it } from 'vitest';
import { run, springForwardDate, summerDate } from './helpers.js';
import { emulatorEnv, login, patchStoredSession, rows, useCliFixture } from './emulator.js';
import { startFaultServer, type FaultServer } from './fault-server.js';

// `namecard set` with a valid stored access token in this machine's own zone runs on the light
// path (Date's local clock, no Temporal); under another `--tz`, or with an expired token, the
// program reads the same line with Temporal. Both must refuse the same lines with the same
// words and exit code, and store the same entry for the same line.

let proxy: FaultServer | undefined;
const cli = useCliFixture();
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

/** A recording proxy in front of the emulator, signed in through it. */
async function signedInProxy() {
  proxy = await startFaultServer((ex) => ex.proxy(), cli.emulator.url);
  await login(cli.emulator, cli.dir, { SUPABASE_URL: proxy.url });
  proxy.received.length = 0;
  return proxy;
}

const namecard = (server: FaultServer, args: string[], TZ: string) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, { SUPABASE_URL: server.url, TZ }) });

const forward = springForwardDate(); // 02:00 → 03:00 in New York

describe('a time the clocks skip', () => {
  it('is refused alike on the light path and by the program: same words, exit 2, nothing sent', async () => {
    const server = await signedInProxy();
    const line = ['set', 'photo', forward, '02:30'];
    // Light: this machine's zone, a valid token.
    const light = await namecard(server, line, 'America/New_York');
    // The program: the same zone named by --tz from another machine zone.
    const byTz = await namecard(server, [...line, '--tz', 'America/New_York'], 'UTC');
    // The program: this machine's zone, but a token that has expired.
    await patchStoredSession(cli.dir, { expires_at: 0 });
    const expired = await namecard(server, line, 'America/New_York');
    const says = `error: \`time\` 02:30 does not exist on ${forward} in America/New_York (the clocks jump forward): choose another time`;
    for (const result of [light, byTz, expired]) {
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(says);
      expect(result.stdout).toBe('');
    }
    expect(server.received).toEqual([]);
    expect(await rows(cli.emulator)).toEqual([]);
  });

  it('a repeated time is its first instant on both paths', async () => {
    const server = await signedInProxy();
    const year = Number(forward.slice(0, 4));
    // The first Sunday of November: 01:30 happens twice in New York (EDT, then EST).
    const day = [1, 2, 3, 4, 5, 6, 7].find(
      (d) => new Date(Date.UTC(year, 10, d)).getUTCDay() === 0,
    )!;
    const date = `${year}-11-0${day}`;
    const light = await namecard(
      server,
      ['set', 'photo', date, '01:30', '--json'],
      'America/New_York',
    );
    const program = await namecard(
      server,
      ['set', 'photo', date, '01:30', '--tz', 'America/New_York', '--json'],
      'UTC',
    );
    const first = Date.UTC(year, 10, day, 5, 30); // 01:30 EDT
    for (const result of [light, program]) {
      expect(result.exitCode).toBe(0);
      expect((JSON.parse(result.stdout) as { stamp_end: number }).stamp_end).toBe(first);
    }
    // Each path reads the caller's cards (no card is named), then writes once.
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /rest/v1/rpc/namecard_cards',
      'POST /rest/v1/rpc/namecard_set',
      'GET /rest/v1/rpc/namecard_cards',
      'POST /rest/v1/rpc/namecard_set',
    ]);
  });
});

describe('the same line on both paths', () => {
  it.each([
    [['--from', 'x'], 2],
    [['--from', '2020-01-01 09:00'], 0],
    [['--from', '2099-01-01 09:00'], 2],
  ])('with %j: the same answer', async (extra, exit) => {
    const { date } = summerDate();
    const server = await signedInProxy();
    const line = ['set', 'main', date, '18:00', ...extra, '--json'];
    const light = await namecard(server, line, 'Asia/Tokyo');
    const program = await namecard(server, [...line, '--tz', 'Asia/Tokyo'], 'UTC');
    expect(light.exitCode).toBe(exit);
    expect(program.exitCode).toBe(exit);
    expect(light.stderr).toBe(program.stderr);
    if (exit === 0) {
      const fields = (stdout: string) => {
        const { profile, stamp_end, stamp_start, time_zone, notice } = JSON.parse(stdout) as Record<
          string,
          unknown
        >;
        return { profile, stamp_end, stamp_start, time_zone, notice };
      };
      expect(fields(light.stdout)).toEqual(fields(program.stdout));
      expect(fields(light.stdout).notice).toBe(
        '`--from` 2020-01-01 09:00 has passed: the entry starts now',
      );
    }
  });
});
