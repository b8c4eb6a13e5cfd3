import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toEpochMs } from '../../shared/calendar/time.js';
import { InputError } from '../../shared/core/errors.js';
import { narrowType } from '../../shared/core/profiles.js';
import { activeEntry, targetUrl } from '../../shared/core/rules.js';

// Property-based checks of the namecard rules against independent reference computations.

const ZONES = [
  'UTC',
  'Asia/Tokyo',
  'America/New_York',
  'Europe/Berlin',
  'Europe/London',
  'America/Sao_Paulo',
  'America/St_Johns', // UTC-03:30 with daylight saving
  'Asia/Kathmandu', // UTC+05:45
  'Australia/Lord_Howe', // a 30-minute daylight-saving shift
  'Pacific/Chatham', // UTC+12:45 / +13:45
];

const pad = (n: number) => String(n).padStart(2, '0');

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock `YYYY-MM-DD HH:MM` of an instant in a zone, read through Intl (not Temporal). */
function wallOf(epochMs: number, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(epochMs);
  const get = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/** The zone's UTC offset at an instant, in ms, read through Intl. */
function offsetAt(t: number, timeZone: string): number {
  const [date, time] = wallOf(t, timeZone).split(' ') as [string, string];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  return Date.UTC(y, m - 1, d, h, min) - Math.floor(t / 60_000) * 60_000;
}

/**
 * Reference: every instant whose wall clock in `timeZone` reads `date time`. Candidates are
 * the wall time read as UTC minus each offset the zone uses within a day of it (offsets
 * change at most once or twice a day); a candidate counts when Intl shows that wall time.
 * Returns the instants in ascending order.
 */
function referenceInstants(date: string, time: string, timeZone: string): number[] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  const asUtc = Date.UTC(y, m - 1, d, h, min);
  const offsets = new Set(
    [-1, -0.5, 0, 0.5, 1].map((days) => offsetAt(asUtc + days * 86_400_000, timeZone)),
  );
  const found = [...offsets]
    .map((o) => asUtc - o)
    .filter((t) => wallOf(t, timeZone) === `${date} ${time}`);
  return [...new Set(found)].sort((a, b) => a - b);
}

function checkAgainstReference(date: string, time: string, zone: string) {
  const expected = referenceInstants(date, time, zone);
  let actual: number | InputError;
  try {
    actual = toEpochMs(date, time, zone);
  } catch (error) {
    actual = error as InputError;
  }
  if (expected.length === 0) {
    expect(actual, `${date} ${time} ${zone} does not exist`).toBeInstanceOf(InputError);
  } else {
    expect(actual, `${date} ${time} ${zone}`).toBe(expected[0]);
  }
}

/** Days in 2026-2035 on which a zone's UTC offset changes, found by sampling Intl offsets. */
function transitionDays(timeZone: string): string[] {
  const days: string[] = [];
  const start = Date.UTC(2026, 0, 1);
  for (let t = start; t < Date.UTC(2036, 0, 1); t += 86_400_000) {
    if (offsetAt(t, timeZone) !== offsetAt(t + 86_400_000, timeZone)) {
      const day = new Date(t + 86_400_000);
      // The change happens within the 24 h after t, on one of two UTC days: check both.
      for (const candidate of [new Date(t), day]) {
        days.push(
          `${candidate.getUTCFullYear()}-${pad(candidate.getUTCMonth() + 1)}-${pad(candidate.getUTCDate())}`,
        );
      }
    }
  }
  return [...new Set(days)];
}

describe('toEpochMs agrees with an independent time-zone computation', () => {
  it('on random dates and times in many zones', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date(Date.UTC(2026, 0, 1)),
          max: new Date(Date.UTC(2040, 11, 31)),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom(...ZONES),
        (day, hour, minute, zone) => {
          const date = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
          checkAgainstReference(date, `${pad(hour)}:${pad(minute)}`, zone);
        },
      ),
      { numRuns: 300 },
    );
  });

  it(
    'at every quarter hour of every daylight-saving transition day, 2026-2035',
    { timeout: 60_000 },
    () => {
      for (const zone of [
        'America/New_York',
        'Europe/Berlin',
        'Australia/Lord_Howe',
        'America/St_Johns',
      ]) {
        const days = transitionDays(zone);
        expect(days.length, `${zone} has transitions`).toBeGreaterThan(10);
        for (const date of days) {
          for (let q = 0; q < 96; q++) {
            checkAgainstReference(date, `${pad(Math.floor(q / 4))}:${pad((q % 4) * 15)}`, zone);
          }
        }
      }
    },
  );
});

describe('targetUrl', () => {
  const config = { mainUrl: 'https://card.example/me/', photoPath: 'photo' };
  const allowed = ['https://card.example/me/', 'https://card.example/me/photo'];

  it('only ever returns one of the two configured targets, whatever the row holds', () => {
    fc.assert(
      fc.property(fc.anything(), (type) => {
        expect(allowed).toContain(targetUrl(narrowType(type), config));
      }),
      { numRuns: 500 },
    );
  });
});

describe('activeEntry', () => {
  const row = fc.record({
    id: fc.integer({ min: 1, max: 10_000 }),
    stamp_end: fc.integer({ min: 1, max: 2_000 }),
    type: fc.constantFrom('main', 'photo', 'other'),
  });

  it('matches a brute-force reference on random tables', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(row, { selector: (r) => r.id, maxLength: 40 }),
        fc.integer({ min: 0, max: 2_001 }),
        (rows, now) => {
          const byIdDesc = [...rows].sort((a, b) => b.id - a.id);
          const expected = byIdDesc.find((r) => r.stamp_end > now) ?? null;
          expect(activeEntry(rows, now)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
