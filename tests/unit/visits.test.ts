import { describe, expect, test } from 'vitest';
import {
  VISIT_BUCKET_MS,
  parseVisitDays,
  summarizeVisits,
  visitWindow,
  type VisitCount,
} from '../../shared/calendar/visits.js';
import { channelLink } from '../../shared/core/card-link.js';
import { InputError } from '../../shared/core/errors.js';

// Visits by local day from 15-minute buckets: a bucket counts for the local day its
// start lies in, in any zone, including the half- and quarter-hour offsets.

const utc = (iso: string) => Date.parse(iso);
const count = (
  iso: string,
  via: VisitCount['via'],
  visits = 1,
  type: VisitCount['type'] = 'main',
) => ({
  bucket: utc(iso),
  type,
  via,
  visits,
});

describe('visitWindow', () => {
  test('is the last N local days, each from its local midnight, in +05:30 and +05:45', () => {
    const now = utc('2030-06-10T12:00:00Z');
    const kolkata = visitWindow(now, 3, 'Asia/Kolkata');
    expect(kolkata.days).toEqual([
      { day: '2030-06-08', start: utc('2030-06-07T18:30:00Z') },
      { day: '2030-06-09', start: utc('2030-06-08T18:30:00Z') },
      { day: '2030-06-10', start: utc('2030-06-09T18:30:00Z') },
    ]);
    expect(kolkata.to).toBe(utc('2030-06-10T18:30:00Z'));
    const kathmandu = visitWindow(now, 1, 'Asia/Kathmandu');
    expect(kathmandu).toEqual({
      timeZone: 'Asia/Kathmandu',
      days: [{ day: '2030-06-10', start: utc('2030-06-09T18:15:00Z') }],
      from: utc('2030-06-09T18:15:00Z'),
      to: utc('2030-06-10T18:15:00Z'),
    });
    // Every day starts on a bucket boundary, so whole buckets add up to whole days.
    for (const w of [kolkata, kathmandu, visitWindow(now, 30, 'Pacific/Chatham')]) {
      for (const d of w.days) expect(d.start % VISIT_BUCKET_MS).toBe(0);
    }
  });

  test('today is the day now falls in locally, even when UTC is already on the next day', () => {
    const w = visitWindow(utc('2030-06-10T23:30:00Z'), 2, 'Asia/Tokyo');
    expect(w.days.map((d) => d.day)).toEqual(['2030-06-10', '2030-06-11']);
    const west = visitWindow(utc('2030-06-10T02:00:00Z'), 1, 'America/Los_Angeles');
    expect(west.days.map((d) => d.day)).toEqual(['2030-06-09']);
  });

  test('a day with a clock change is 23 or 25 hours long', () => {
    const spring = visitWindow(utc('2030-03-31T12:00:00Z'), 1, 'Europe/Berlin');
    expect(spring.to - spring.from).toBe(23 * 3_600_000);
    const autumn = visitWindow(utc('2030-10-27T12:00:00Z'), 1, 'Europe/Berlin');
    expect(autumn.to - autumn.from).toBe(25 * 3_600_000);
  });
});

describe('summarizeVisits', () => {
  test('adds buckets up by the local day their start lies in (+05:30)', () => {
    const w = visitWindow(utc('2030-06-10T12:00:00Z'), 2, 'Asia/Kolkata');
    const s = summarizeVisits(
      [
        // 2030-06-09 18:15Z is 23:45 on the 9th in Kolkata; 18:30Z is midnight of the 10th.
        count('2030-06-09T18:15:00Z', 'qr', 2),
        count('2030-06-09T18:30:00Z', 'nfc', 3, 'photo'),
        count('2030-06-08T18:30:00Z', 'link', 1),
        // Before the window, and after it: left out.
        count('2030-06-08T18:15:00Z', 'qr', 100),
        count('2030-06-10T18:30:00Z', 'qr', 100),
      ],
      w,
    );
    expect(s).toEqual({
      from: utc('2030-06-08T18:30:00Z'),
      to: utc('2030-06-10T18:30:00Z'),
      time_zone: 'Asia/Kolkata',
      total: 6,
      by_type: { main: 3, photo: 3 },
      by_via: { qr: 2, nfc: 3, link: 1 },
      days: [
        {
          day: '2030-06-09',
          total: 3,
          by_type: { main: 3, photo: 0 },
          by_via: { qr: 2, nfc: 0, link: 1 },
        },
        {
          day: '2030-06-10',
          total: 3,
          by_type: { main: 0, photo: 3 },
          by_via: { qr: 0, nfc: 3, link: 0 },
        },
      ],
    });
  });

  test('the same buckets fall on different days in +05:45 and in UTC', () => {
    const buckets = [count('2030-06-09T18:00:00Z', 'qr'), count('2030-06-09T18:15:00Z', 'nfc')];
    const now = utc('2030-06-10T12:00:00Z');
    const nepal = summarizeVisits(buckets, visitWindow(now, 2, 'Asia/Kathmandu'));
    expect(nepal.days.map((d) => [d.day, d.by_via])).toEqual([
      ['2030-06-09', { qr: 1, nfc: 0, link: 0 }],
      ['2030-06-10', { qr: 0, nfc: 1, link: 0 }],
    ]);
    const london = summarizeVisits(buckets, visitWindow(now, 2, 'UTC'));
    expect(london.days.map((d) => [d.day, d.total])).toEqual([
      ['2030-06-09', 2],
      ['2030-06-10', 0],
    ]);
  });

  test('every day is present, zeros included, oldest first; totals are the days summed', () => {
    const w = visitWindow(utc('2030-06-30T12:00:00Z'), 30, 'Europe/Berlin');
    const s = summarizeVisits([count('2030-06-15T10:00:00Z', 'link', 4)], w);
    expect(s.days).toHaveLength(30);
    expect(s.days[0]!.day).toBe('2030-06-01');
    expect(s.days.at(-1)!.day).toBe('2030-06-30');
    expect(s.days.filter((d) => d.total > 0)).toEqual([
      {
        day: '2030-06-15',
        total: 4,
        by_type: { main: 4, photo: 0 },
        by_via: { qr: 0, nfc: 0, link: 4 },
      },
    ]);
    expect(s.total).toBe(s.days.reduce((n, d) => n + d.total, 0));
  });
});

describe('parseVisitDays', () => {
  test('takes 1 to 366, default 30, and refuses anything else naming --days', () => {
    expect(parseVisitDays(undefined)).toBe(30);
    expect(parseVisitDays('1')).toBe(1);
    expect(parseVisitDays('366')).toBe(366);
    for (const bad of ['0', '367', '-1', '1.5', 'week', '']) {
      expect(() => parseVisitDays(bad)).toThrow(InputError);
      expect(() => parseVisitDays(bad)).toThrow('`--days` must be a whole number from 1 to 366');
    }
  });
});

test('channelLink marks the card link for the QR code and the NFC tag', () => {
  expect(channelLink('https://me.example/card/go/', 'qr')).toBe(
    'https://me.example/card/go/?via=qr',
  );
  expect(channelLink('http://127.0.0.1:4173/go/', 'nfc')).toBe('http://127.0.0.1:4173/go/?via=nfc');
});
