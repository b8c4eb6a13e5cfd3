import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { afterAll, describe, expect, it } from 'vitest';
import { toEpochMs } from '../../shared/calendar/time.js';
import { hostEpochMs } from '../../shared/core/wall-time.js';

// The CLI's light path reads a wall-clock time in the process's own zone with Date's local
// clock; the program reads it with Temporal (shared/calendar/time.ts). They must agree on
// every time: the same instant, or the same refusal (a skipped time, a date that does not
// exist, a malformed field) with the same words.

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'];

const savedTz = process.env.TZ;
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

/** The zone's offset changes between 1940 and 2040 (Asia/Kolkata's are all in the 1940s). */
function transitions(zone: string): Temporal.Instant[] {
  const found: Temporal.Instant[] = [];
  let at: Temporal.ZonedDateTime | null = Temporal.ZonedDateTime.from({
    year: 1940,
    month: 1,
    day: 1,
    timeZone: zone,
  });
  while (at && at.year < 2040) {
    at = at.getTimeZoneTransition('next');
    if (at) found.push(at.toInstant());
  }
  return found;
}

const TRANSITIONS = new Map(ZONES.map((zone) => [zone, transitions(zone)]));

/** What a reader made of a date and time: the instant, or the refusal's message. */
function outcome(read: () => number): string {
  try {
    return String(read());
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

/** Both readers on one wall-clock time, the process's zone set to `zone`. */
function both(date: string, time: string, zone: string) {
  process.env.TZ = zone;
  const fields = { date: 'date', time: 'time' };
  return {
    temporal: outcome(() => toEpochMs(date, time, zone, fields)),
    host: outcome(() => hostEpochMs(date, time, zone, fields)),
  };
}

describe('hostEpochMs (Date in the process zone) against toEpochMs (Temporal)', () => {
  it('finds transitions to test around in every zone', () => {
    for (const zone of ZONES) expect(TRANSITIONS.get(zone)!.length).toBeGreaterThan(2);
  });

  it('agrees on every wall-clock time within 3 hours of a daylight-saving change', () => {
    let refused = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.nat(),
        fc.integer({ min: -180, max: 180 }),
        (zone, pick, minutes) => {
          const list = TRANSITIONS.get(zone)!;
          const wall = list[pick % list.length]!.toZonedDateTimeISO(zone)
            .toPlainDateTime()
            .add({ minutes });
          const date = wall.toPlainDate().toString();
          const time = wall.toPlainTime().toString().slice(0, 5);
          const { temporal, host } = both(date, time, zone);
          if (temporal.startsWith('refused')) refused++;
          expect(host).toBe(temporal);
        },
      ),
      { numRuns: 3000 },
    );
    // Times in the gaps were among them, so the refusal was compared too.
    expect(refused).toBeGreaterThan(0);
  });

  it('agrees on the wall-clock times of each change exactly: the skipped and the repeated ones', () => {
    for (const zone of ZONES) {
      for (const instant of TRANSITIONS.get(zone)!) {
        const at = instant.toZonedDateTimeISO(zone);
        const before = instant.subtract({ nanoseconds: 1 }).toZonedDateTimeISO(zone);
        for (const wall of [at.toPlainDateTime(), before.toPlainDateTime().add({ minutes: 1 })]) {
          for (const delta of [-61, -31, -30, -1, 0, 1, 29, 30, 59, 60]) {
            const w = wall.add({ minutes: delta });
            const { temporal, host } = both(
              w.toPlainDate().toString(),
              w.toPlainTime().toString().slice(0, 5),
              zone,
            );
            expect(host).toBe(temporal);
          }
        }
      }
    }
  });

  it('agrees on random dates and times, well-formed or not, in every zone', () => {
    const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.oneof(
          fc
            .date({ min: new Date('1000-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          fc.tuple(digits(4), digits(2), digits(2)).map(([y, m, d]) => `${y}-${m}-${d}`),
          fc.string({ maxLength: 12 }),
        ),
        fc.oneof(
          fc
            .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
            .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
          fc.tuple(digits(2), digits(2)).map(([h, m]) => `${h}:${m}`),
          fc.string({ maxLength: 6 }),
        ),
        (zone, date, time) => {
          const { temporal, host } = both(date, time, zone);
          expect(host).toBe(temporal);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('refuses a skipped time with the program’s words', () => {
    expect(both('2030-03-31', '02:30', 'Europe/Berlin').host).toBe(
      'refused: `time` 02:30 does not exist on 2030-03-31 in Europe/Berlin (the clocks jump forward): choose another time',
    );
    // A repeated time is its first instant: 02:30 CEST, 00:30 UTC.
    expect(both('2030-10-27', '02:30', 'Europe/Berlin').host).toBe(
      String(Date.UTC(2030, 9, 27, 0, 30)),
    );
  });
});
