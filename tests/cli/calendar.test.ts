import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ICAL from 'ical.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { run } from './helpers.js';
import { emulatorEnv, useCliFixture } from './emulator.js';

// `namecard calendar` writes the card's schedule as iCalendar; a maintained parser (ical.js)
// reads it back, expands its weekly rules in their time zones, and must find exactly the
// occurrences the server's rule expands (namecard_occurrences) over the next 90 days, and the
// one-off entries ahead; cancelled series are left out.

const cli = useCliFixture({ signIn: true });
const DAY = 86_400_000;

const namecard = (args: string[], env: Record<string, string> = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });

beforeEach(async () => {
  await cli.emulator.query('delete from public.namecard_series_stop');
  await cli.emulator.query('delete from public.namecard_series');
});

/** Every occurrence (start, end, epoch ms) the file gives from `from` to `to`. */
function parse(text: string, from: number, to: number) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const found: { uid: string; start: number; end: number }[] = [];
  for (const component of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(component);
    if (!event.isRecurring()) {
      found.push({
        uid: event.uid,
        start: event.startDate.toJSDate().getTime(),
        end: event.endDate.toJSDate().getTime(),
      });
      continue;
    }
    const iterator = event.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const details = event.getOccurrenceDetails(next);
      const start = details.startDate.toJSDate().getTime();
      if (start >= to) break;
      const end = details.endDate.toJSDate().getTime();
      if (end > from) found.push({ uid: event.uid, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start || a.uid.localeCompare(b.uid));
}

describe('namecard calendar', () => {
  it('gives, read by ical.js, the same occurrences as the server for 90 days; cancelled series left out', async () => {
    const ids: number[] = [];
    for (const args of [
      ['photo', '--every', 'sat,sun', '10:00-18:00', '--tz', 'Europe/Berlin'],
      ['photo', '--every', 'mon-fri', '22:00-02:00', '--tz', 'America/New_York'],
      [
        'main',
        '--every',
        'wed',
        '09:30-11:00',
        '--tz',
        'Asia/Kolkata',
        '--until',
        new Date(Date.now() + 40 * DAY).toISOString().slice(0, 10),
      ],
      ['photo', '--every', 'tue', '08:00-09:00', '--tz', 'UTC'],
    ]) {
      const result = await namecard(['set', ...args, '--json']);
      expect(result.stderr).toBe('');
      ids.push((JSON.parse(result.stdout) as { series: { id: number } }).series.id);
    }
    expect((await namecard(['cancel', String(ids[3])])).exitCode).toBe(0);
    const oneOff = await namecard(['set', 'photo', '--for', '3h', '--json']);
    expect(oneOff.exitCode).toBe(0);

    const file = path.join(cli.dir, 'card.ics');
    const result = await namecard(['calendar', '--out', file, '--days', '90']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:');
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=SA,SU');

    const [{ now }] = (await cli.emulator.query<{ now: string }>(
      'select (extract(epoch from now()) * 1000)::bigint as now',
    )) as [{ now: string }];
    const from = Number(now);
    const to = from + 90 * DAY;
    const server = await cli.emulator.query<{ id: string; stamp_start: string; stamp_end: string }>(
      `select o.id, o.stamp_start, o.stamp_end
       from public.namecard_card as c, private.namecard_occurrences_of(c.id, $1, $2) as o
       where c.slug = 'main'`,
      [from, to],
    );
    const [entry] = await cli.emulator.query<{
      id: string;
      stamp_start: string | null;
      stamp_end: string;
    }>('select id, stamp_start, stamp_end from public.namecard order by id desc limit 1');
    const fromFile = parse(text, from, to);
    const expected = [
      ...server.map((o) => ({
        uid: `series-${o.id}@namecard`,
        start: Number(o.stamp_start),
        end: Number(o.stamp_end),
      })),
      {
        uid: `entry-${entry!.id}@namecard`,
        start: fromFile.find((e) => e.uid.startsWith('entry'))?.start ?? -1,
        // iCalendar times are whole seconds.
        end: Math.floor(Number(entry!.stamp_end) / 1000) * 1000,
      },
    ].sort((a, b) => a.start - b.start || a.uid.localeCompare(b.uid));
    expect(server.length).toBeGreaterThan(40);
    expect(fromFile).toEqual(expected);
    expect(fromFile.some((o) => o.uid === `series-${ids[3]}@namecard`)).toBe(false);
  });

  it('refuses a bad --days with exit 2 naming it', async () => {
    const result = await namecard(['calendar', '--days', 'ninety']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('`--days` must be a whole number from 1 to 3660, got `ninety`');
  });
});
