import { describe, expect, it } from 'vitest';
import { seriesTimeline } from '../support/series-model.js';
import { narrowType } from '../../shared/core/profiles.js';
import { foldSeries, inOccurrence, seriesWords, type SeriesRow } from '../../shared/core/series.js';
import type { Segment } from '../../shared/core/timeline.js';

// A weekly series said once: foldSeries keeps the changes worth a line of their own,
// inOccurrence tells an occurrence from a segment with Intl alone, and seriesWords names every
// zone a line's times are in.

const HOUR = 3_600_000;
const photo = narrowType('photo');
const main = narrowType('main');

/** A series row with the given rule (id 1, never cancelled). */
function series(rule: Partial<SeriesRow>): SeriesRow {
  return {
    id: 1,
    type: photo,
    weekdays: [6],
    start_time: '10:00',
    end_time: '18:00',
    time_zone: 'UTC',
    first_date: null,
    last_date: null,
    stopped_at: null,
    ...rule,
  };
}

// Wed 5 June 2030, 12:00 UTC; Saturday 8 June is three days on.
const NOW = Date.UTC(2030, 5, 5, 12);
const sat = (day: number, hour: number) => Date.UTC(2030, 5, day, hour);

describe('inOccurrence', () => {
  it('matches a stretch inside one occurrence, in the series zone', () => {
    const s = series({ time_zone: 'Europe/Berlin' });
    // 10:00–18:00 in Berlin is 08:00–16:00 UTC in June.
    expect(inOccurrence(s, sat(8, 8), sat(8, 16))).toBe(true);
    expect(inOccurrence(s, sat(8, 9), sat(8, 12))).toBe(true);
    expect(inOccurrence(s, sat(8, 10), sat(8, 18))).toBe(false);
    expect(inOccurrence(s, sat(7, 8), sat(7, 16))).toBe(false);
  });

  it('matches an occurrence that runs past midnight, and respects the first and last dates', () => {
    const night = series({ weekdays: [5], start_time: '22:00', end_time: '02:00' });
    expect(inOccurrence(night, sat(7, 22), sat(8, 2))).toBe(true);
    expect(inOccurrence(night, sat(8, 0), sat(8, 1))).toBe(true);
    expect(inOccurrence(series({ first_date: '2030-06-09' }), sat(8, 10), sat(8, 18))).toBe(false);
    expect(inOccurrence(series({ last_date: '2030-06-07' }), sat(8, 10), sat(8, 18))).toBe(false);
  });
});

describe('foldSeries', () => {
  it('leaves out the occurrences and the main site between them, keeping now as it is', () => {
    const s = series({});
    const timeline = seriesTimeline([], [s], [], NOW, 24);
    expect(timeline.length).toBeGreaterThan(5);
    expect(foldSeries(timeline, [s])).toEqual([{ type: main, from: NOW, to: sat(8, 10) }]);
  });

  it('keeps a one-off change with its own times, and now inside an occurrence', () => {
    const s = series({});
    const entry = { id: 2, type: photo, stamp_start: sat(12, 9), stamp_end: sat(12, 17) };
    const fromSaturday = seriesTimeline([entry], [s], [], sat(8, 12), 24);
    expect(foldSeries(fromSaturday, [s])).toEqual([
      { type: photo, from: sat(8, 12), to: sat(8, 18) },
      { type: main, from: sat(8, 18), to: sat(12, 9) },
      { type: photo, from: sat(12, 9), to: sat(12, 17) },
      { type: main, from: sat(12, 17), to: sat(15, 10) },
    ]);
  });

  it('keeps another profile coming back after an occurrence, until its own end', () => {
    const s = series({});
    // A shop entry older than the series covers Friday to Sunday; the series wins on Saturday.
    const shop = { id: 0, type: narrowType('shop'), stamp_start: null, stamp_end: sat(9, 12) };
    const timeline = seriesTimeline([shop], [s], [], NOW, 24);
    expect(foldSeries(timeline, [s]).slice(0, 3)).toEqual([
      { type: 'shop', from: NOW, to: sat(8, 10) },
      { type: 'shop', from: sat(8, 18), to: sat(9, 12) },
      { type: main, from: sat(9, 12), to: sat(15, 10) },
    ]);
  });

  it('changes nothing without series', () => {
    const timeline: Segment[] = [
      { type: photo, from: NOW, to: NOW + HOUR },
      { type: main, from: NOW + HOUR, to: null },
    ];
    expect(foldSeries(timeline, [])).toEqual(timeline);
  });
});

describe('seriesWords', () => {
  it('names no zone when the series is in the screen’s zone', () => {
    expect(seriesWords(series({}), sat(8, 10), NOW, 'UTC')).toEqual({
      rule: 'every Sat 10:00–18:00',
      next: 'next Sat 10:00',
    });
  });

  it('gives the series’ own times and the next start in both zones, each named', () => {
    expect(seriesWords(series({}), sat(8, 10), NOW, 'Asia/Tokyo')).toEqual({
      rule: 'every Sat 10:00–18:00 in UTC',
      next: 'next Sat 10:00 in UTC (Sat 19:00 in Asia/Tokyo)',
    });
    expect(seriesWords(series({}), null, NOW, 'Asia/Tokyo').next).toBe('no occurrence ahead');
  });
});
