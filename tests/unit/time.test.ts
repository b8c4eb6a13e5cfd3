import { describe, expect, it } from 'vitest';
import { toEpochMs } from '../../shared/calendar/time.js';
import { InputError } from '../../shared/core/errors.js';
import { formatDuration, formatStamp, toWallClock } from '../../shared/core/format.js';

// Expected instants are written as UTC with the zone's known offset for that day, so the
// test does not reuse the code it checks.
describe('toEpochMs', () => {
  it('converts a Tokyo wall time (UTC+9, no daylight saving)', () => {
    expect(toEpochMs('2030-06-01', '18:00', 'Asia/Tokyo')).toBe(Date.UTC(2030, 5, 1, 9, 0));
    expect(toEpochMs('2030-01-01', '00:00', 'Asia/Tokyo')).toBe(Date.UTC(2029, 11, 31, 15, 0));
  });

  it('converts New York wall times in summer (UTC-4) and winter (UTC-5)', () => {
    expect(toEpochMs('2030-06-01', '18:00', 'America/New_York')).toBe(Date.UTC(2030, 5, 1, 22, 0));
    expect(toEpochMs('2030-01-15', '18:00', 'America/New_York')).toBe(Date.UTC(2030, 0, 15, 23, 0));
  });

  it('converts UTC wall times unchanged', () => {
    expect(toEpochMs('2030-06-01', '18:00', 'UTC')).toBe(Date.UTC(2030, 5, 1, 18, 0));
    expect(toEpochMs('2032-02-29', '23:59', 'UTC')).toBe(Date.UTC(2032, 1, 29, 23, 59));
  });

  it('uses the machine time zone (TZ) when none is given', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(toEpochMs('2030-06-01', '18:00')).toBe(toEpochMs('2030-06-01', '18:00', zone));
  });

  it('rejects a local time skipped by the spring-forward jump in New York', () => {
    // 2030-03-10: clocks go from 02:00 EST straight to 03:00 EDT.
    expect(() => toEpochMs('2030-03-10', '02:30', 'America/New_York')).toThrow(
      '`time` 02:30 does not exist on 2030-03-10 in America/New_York',
    );
    expect(toEpochMs('2030-03-10', '01:59', 'America/New_York')).toBe(Date.UTC(2030, 2, 10, 6, 59));
    expect(toEpochMs('2030-03-10', '03:00', 'America/New_York')).toBe(Date.UTC(2030, 2, 10, 7, 0));
  });

  it('picks the earlier instant for a local time repeated when New York falls back', () => {
    // 2030-11-03: 01:00-01:59 happens first in EDT (UTC-4), then again in EST (UTC-5).
    expect(toEpochMs('2030-11-03', '01:30', 'America/New_York')).toBe(Date.UTC(2030, 10, 3, 5, 30));
    expect(toEpochMs('2030-11-03', '02:00', 'America/New_York')).toBe(Date.UTC(2030, 10, 3, 7, 0));
  });

  it.each([
    ['2030-02-30', '`date` 2030-02-30 does not exist: February 2030 has 28 days'],
    ['2031-02-29', '`date` 2031-02-29 does not exist: February 2031 has 28 days'],
    ['2030-13-01', '`date` 2030-13-01 does not exist: there is no month 13'],
    ['2030-6-1', '`date` must be YYYY-MM-DD, got `2030-6-1`'],
    ['01/06/2030', '`date` must be YYYY-MM-DD, got `01/06/2030`'],
    ['', '`date` must be YYYY-MM-DD, got ``'],
  ])('rejects the date %j naming the field and form', (date, message) => {
    expect(() => toEpochMs(date, '18:00', 'UTC')).toThrow(message);
  });

  it.each(['24:00', '7:5', '07:5', '18:00:00', '12:60', '6pm', ''])(
    'rejects the time %j',
    (time) => {
      const error = captureError(() => toEpochMs('2030-06-01', time, 'UTC'));
      expect(error).toBeInstanceOf(InputError);
      expect(error.message).toBe(`\`time\` must be HH:MM (24-hour), got \`${time}\``);
      expect((error as InputError).field).toBe('time');
    },
  );

  it('rejects an unknown time zone naming the field', () => {
    expect(() => toEpochMs('2030-06-01', '18:00', 'Mars/Olympus')).toThrow(
      '`timeZone` must be an IANA time zone such as Asia/Tokyo, got `Mars/Olympus`',
    );
  });
});

describe('formatting stamps', () => {
  it('shows a stamp as wall-clock time with its zone and offset', () => {
    const stamp = Date.UTC(2030, 5, 1, 9, 0);
    expect(formatStamp(stamp, 'Asia/Tokyo')).toBe('2030-06-01 18:00 Asia/Tokyo (UTC+09:00)');
    expect(formatStamp(stamp, 'Europe/Berlin')).toBe('2030-06-01 11:00 Europe/Berlin (UTC+02:00)');
    // Zones at offset zero that are not UTC itself keep their offset.
    expect(formatStamp(Date.UTC(2030, 0, 1, 9, 0), 'Europe/London')).toBe(
      '2030-01-01 09:00 Europe/London (UTC+00:00)',
    );
    expect(toWallClock(stamp, 'America/New_York')).toEqual({
      date: '2030-06-01',
      time: '05:00',
      timeZone: 'America/New_York',
      offset: '-04:00',
    });
  });

  it.each([
    ['CET', '2030-06-01 11:00 CET (UTC+02:00)'],
    ['Asia/Calcutta', '2030-06-01 14:30 Asia/Calcutta (UTC+05:30)'],
    ['US/Eastern', '2030-06-01 05:00 US/Eastern (UTC-04:00)'],
  ])('names the zone %s as given, not as the zone Intl links it to', (zone, shown) => {
    expect(formatStamp(Date.UTC(2030, 5, 1, 9, 0), zone)).toBe(shown);
  });

  it.each(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT'])('names the zone %s once, as UTC', (zone) => {
    expect(formatStamp(Date.UTC(2030, 5, 1, 18, 0), zone)).toBe('2030-06-01 18:00 UTC');
  });

  it('shows durations to the minute', () => {
    expect(formatDuration(0)).toBe('less than a minute');
    expect(formatDuration(45 * 60_000 + 59_000)).toBe('45 min');
    expect(formatDuration((2 * 1440 + 3 * 60 + 5) * 60_000)).toBe('2 days 3 h 5 min');
    expect(formatDuration(1440 * 60_000)).toBe('1 day');
  });
});

function captureError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}
