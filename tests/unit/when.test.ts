import { describe, expect, it } from 'vitest';
import { formatRelative, formatWhen, zoneHeader } from '../../shared/core/format.js';

// Times read at a glance: relative to now, in the zone the screen names once.

const NOW = Date.UTC(2030, 5, 3, 10, 0); // Mon 2030-06-03 10:00 UTC
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('formatWhen', () => {
  it.each([
    [NOW + 8 * HOUR, 'today 18:00'],
    [NOW + DAY, 'tomorrow 10:00'],
    [NOW - DAY, 'yesterday 10:00'],
    [NOW + 2 * DAY - HOUR, 'Wed 09:00'],
    [NOW + 6 * DAY, 'Sun 10:00'],
    [NOW + 7 * DAY, 'Mon 10 Jun 10:00'],
    [NOW - 3 * DAY, 'Fri 31 May 10:00'],
    [Date.UTC(2031, 0, 2, 9, 30), 'Thu 2 Jan 2031 09:30'],
  ])('shows %i as %s in UTC', (stamp, text) => {
    expect(formatWhen(stamp, NOW, 'UTC')).toBe(text);
  });

  it('counts days in the zone given, not in UTC', () => {
    // 23:30 UTC on Monday is already Tuesday 08:30 in Tokyo, while NOW is Monday 19:00 there.
    expect(formatWhen(NOW + 13.5 * HOUR, NOW, 'Asia/Tokyo')).toBe('tomorrow 08:30');
    expect(formatWhen(NOW + 13.5 * HOUR, NOW, 'UTC')).toBe('today 23:30');
  });
});

describe('formatRelative', () => {
  it.each([
    [NOW + 125 * 60_000, 'in 2 h 5 min'],
    [NOW + 30_000, 'in less than a minute'],
    [NOW + DAY + 3 * HOUR + 59 * 60_000, 'in 1 day 3 h'],
    [NOW + 3 * DAY + 5 * HOUR, 'in 3 days'],
    [NOW - 90 * 60_000, '1 h 30 min ago'],
    [NOW - 10_000, 'just now'],
  ])('says how far off %i is: %s', (stamp, text) => {
    expect(formatRelative(stamp, NOW)).toBe(text);
  });
});

describe('zoneHeader', () => {
  it('names the zone once, with its offset at that moment, or plain UTC', () => {
    expect(zoneHeader('Europe/Berlin', NOW)).toBe('Times in Europe/Berlin (UTC+02:00)');
    expect(zoneHeader('Europe/Berlin', Date.UTC(2030, 0, 3))).toBe(
      'Times in Europe/Berlin (UTC+01:00)',
    );
    expect(zoneHeader('Etc/UTC', NOW)).toBe('Times in UTC');
  });
});
