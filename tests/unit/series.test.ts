import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { localInstant, nextOccurrences, occurrences } from '../../shared/calendar/series.js';
import {
  describeSeries,
  describeWeekdays,
  parseTimeRange,
  parseWeekdays,
  type SeriesRow,
} from '../../shared/core/series.js';

// The series' words and local times; the database's side of the same values is checked in
// tests/conformance/series.test.ts, and the two expansions against each other by the property
// test in tests/conformance/timeline-property.test.ts.

const day = (iso: string) => Temporal.PlainDate.from(iso);

describe('weekdays as typed', () => {
  it.each([
    ['sat', [6]],
    ['sat,sun', [6, 7]],
    ['mon-fri', [1, 2, 3, 4, 5]],
    ['fri-mon', [1, 5, 6, 7]],
    ['SUN,mon-tue', [1, 2, 7]],
    // Whole names too, in any case.
    ['saturday', [6]],
    ['Saturday,SUNDAY', [6, 7]],
    ['monday-Friday', [1, 2, 3, 4, 5]],
  ])('reads %s', (text, days) => {
    expect(parseWeekdays(text)).toEqual(days);
  });

  it.each([
    ['sta', 'sat'],
    ['sta,sun', 'sat,sun'],
    ['mon-fir', 'mon-fri'],
    ['satruday', 'saturday'],
    ['Tues', 'tue'],
  ])('suggests the days meant by %j', (text, meant) => {
    expect(() => parseWeekdays(text)).toThrow(`got \`${text}\`: did you mean \`${meant}\`?`);
  });

  it.each(['', 'satur-day', 'mon-', 'mon-tue-wed', 'mon,,tue', '1'])(
    'refuses %j naming --every and the form',
    (text) => {
      expect(() => parseWeekdays(text)).toThrow(
        `\`--every\` must be weekdays such as sat, sat,sun or mon-fri (mon tue wed thu fri sat sun), got \`${text}\``,
      );
    },
  );

  it('says days in words, ranges folded', () => {
    expect(describeWeekdays([6])).toBe('Sat');
    expect(describeWeekdays([6, 7])).toBe('Sat, Sun');
    expect(describeWeekdays([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(describeWeekdays([1, 2, 3, 4, 5, 6, 7])).toBe('day');
  });
});

describe('time ranges as typed', () => {
  it('reads HH:MM-HH:MM, an end before the start running past midnight', () => {
    expect(parseTimeRange('10:00-18:00')).toEqual({ start: '10:00', end: '18:00' });
    expect(parseTimeRange('22:00-02:00')).toEqual({ start: '22:00', end: '02:00' });
  });
  it.each(['10-18', '10:00', '24:00-01:00', '10:00–18:00', '9:00-18:00'])('refuses %j', (text) => {
    expect(() => parseTimeRange(text)).toThrow(/`time range` must be HH:MM-HH:MM \(24-hour/);
  });
});

describe('local times of occurrences', () => {
  it('reads a gap time with the offset before the change, a fold time as the earlier instant', () => {
    expect(localInstant(day('2030-03-31'), '02:30', 'Europe/Berlin')).toBe(
      Date.parse('2030-03-31T01:30:00Z'),
    );
    expect(localInstant(day('2030-10-27'), '02:30', 'Europe/Berlin')).toBe(
      Date.parse('2030-10-27T00:30:00Z'),
    );
    expect(localInstant(day('2030-04-07'), '01:45', 'Australia/Lord_Howe')).toBe(
      Date.parse('2030-04-06T14:45:00Z'),
    );
    expect(localInstant(day('2030-10-06'), '02:15', 'Australia/Lord_Howe')).toBe(
      Date.parse('2030-10-05T15:45:00Z'),
    );
  });

  it('keeps 14:00-16:00 Berlin local across the spring change', () => {
    const series: SeriesRow = {
      id: 1,
      type: 'photo',
      weekdays: [7],
      start_time: '14:00',
      end_time: '16:00',
      time_zone: 'Europe/Berlin',
      first_date: '2030-03-24',
      last_date: null,
      stopped_at: null,
    };
    const found = occurrences(
      [series],
      [],
      Date.parse('2030-03-20T00:00:00Z'),
      Date.parse('2030-04-10T00:00:00Z'),
    );
    expect(
      found.map((o) => [
        new Date(o.stamp_start).toISOString(),
        new Date(o.stamp_end).toISOString(),
      ]),
    ).toEqual([
      ['2030-03-24T13:00:00.000Z', '2030-03-24T15:00:00.000Z'],
      ['2030-03-31T12:00:00.000Z', '2030-03-31T14:00:00.000Z'],
      ['2030-04-07T12:00:00.000Z', '2030-04-07T14:00:00.000Z'],
    ]);
    expect(describeSeries(series)).toBe('photo every Sun 14:00–16:00 from 2030-03-24');
  });
});

describe('next occurrences of a series', () => {
  const series: SeriesRow = {
    id: 1,
    type: 'photo',
    weekdays: [6],
    start_time: '10:00',
    end_time: '18:00',
    time_zone: 'Europe/Berlin',
    first_date: null,
    last_date: null,
    stopped_at: null,
  };

  it('gives the starts after now, in order, an occurrence running now left out', () => {
    // Saturday 2030-06-01 12:00 Berlin (10:00 UTC): that day's occurrence has started.
    const now = Date.parse('2030-06-01T10:00:00Z');
    expect(nextOccurrences(series, now, 2).map((o) => o.stamp_start)).toEqual([
      Date.parse('2030-06-08T08:00:00Z'),
      Date.parse('2030-06-15T08:00:00Z'),
    ]);
  });

  it('looks past a first date months ahead, and finds none past the last date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const later = { ...series, first_date: '2030-09-01' };
    expect(nextOccurrences(later, now, 1).map((o) => o.stamp_start)).toEqual([
      Date.parse('2030-09-07T08:00:00Z'),
    ]);
    expect(nextOccurrences({ ...series, last_date: '2029-12-31' }, now, 1)).toEqual([]);
  });
});
