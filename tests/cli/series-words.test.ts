import { beforeEach, describe, expect, it } from 'vitest';
import { run } from './helpers.js';
import { emulatorEnv, useCliFixture } from './emulator.js';

// A weekly series in the owner's words, as a process against the emulator:
// `status` says each series in one line instead of repeating its occurrences as changes, and no
// line mixes two zones unnamed: a series gives its own zone's times and, when the screen's zone
// is another, its next start in that zone too, each zone named (`status --tz`, `list`).

const cli = useCliFixture({ signIn: true });
const namecard = (args: string[], env: Record<string, string> = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });

beforeEach(async () => {
  await cli.emulator.query('delete from public.namecard_series_stop');
  await cli.emulator.query('delete from public.namecard_series');
});

/** Sets a series and answers its id. */
async function setSeries(args: string[]): Promise<number> {
  const result = await namecard(['set', ...args, '--json']);
  expect(result.stderr).toBe('');
  return (JSON.parse(result.stdout) as { series: { id: number } }).series.id;
}

describe('status with a weekly series', () => {
  it('says the series in one line and does not repeat its occurrences as changes', async () => {
    await setSeries([
      'photo',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'UTC',
      '--from',
      '2030-06-01',
    ]);
    const status = await namecard(['status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout.split('\n')).toEqual([
      'Times in UTC',
      expect.stringMatching(/^Now: the main site until Sat 1 Jun 2030 10:00 \(in \d+ days\): /),
      'And more changes after that',
      'Series:',
      '  photo every Sat 10:00–18:00 from 2030-06-01, next Sat 1 Jun 2030 10:00',
    ]);
    // The server's timeline has them all, for scripts.
    const json = JSON.parse((await namecard(['status', '--json'])).stdout) as {
      timeline: { type: string }[];
    };
    expect(json.timeline.filter((s) => s.type === 'photo').length).toBeGreaterThan(5);
  });

  it('keeps a one-off change among them, with its own times', async () => {
    await setSeries([
      'photo',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'UTC',
      '--from',
      '2030-06-01',
    ]);
    const set = await namecard([
      'set',
      'photo',
      '2030-06-05',
      '17:00',
      '--from',
      '2030-06-05 09:00',
      '--tz',
      'UTC',
    ]);
    expect(set.exitCode).toBe(0);
    const lines = (await namecard(['status'])).stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('Then '))).toEqual([
      expect.stringMatching(
        /^Then Photographer from Wed 5 Jun 2030 09:00 until Wed 5 Jun 2030 17:00$/,
      ),
      expect.stringMatching(
        /^Then the main site from Wed 5 Jun 2030 17:00 \(in \d+ days\) until Sat 8 Jun 2030 10:00$/,
      ),
    ]);
  });
});

describe('zones are never mixed in one line', () => {
  it('status --tz names the series zone and the display zone, each with its time', async () => {
    await setSeries([
      'photo',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'UTC',
      '--from',
      '2030-06-01',
    ]);
    const status = await namecard(['status', '--tz', 'Asia/Tokyo']);
    expect(status.exitCode).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines[0]).toBe('Times in Asia/Tokyo (UTC+09:00)');
    expect(lines.at(-1)).toBe(
      '  photo every Sat 10:00–18:00 in UTC from 2030-06-01, next Sat 1 Jun 2030 10:00 in UTC (Sat 1 Jun 2030 19:00 in Asia/Tokyo)',
    );
  });

  it('list names both zones for a series set in another zone', async () => {
    const id = await setSeries([
      'main',
      '--every',
      'sat',
      '10:00-18:00',
      '--tz',
      'Europe/Berlin',
      '--from',
      '2030-06-01',
    ]);
    const list = await namecard(['list']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain(
      `  ${id}  main every Sat 10:00–18:00 in Europe/Berlin from 2030-06-01, next Sat 1 Jun 2030 10:00 in Europe/Berlin (Sat 1 Jun 2030 08:00 in UTC)`,
    );
    // In the series' own zone there is one zone, named once at the top.
    const berlin = await namecard(['list', '--tz', 'Europe/Berlin']);
    expect(berlin.stdout).toContain(
      `  ${id}  main every Sat 10:00–18:00 from 2030-06-01, next Sat 1 Jun 2030 10:00`,
    );
  });
});
