import { describe, expect, it } from 'vitest';
import { occurrences } from '../../shared/calendar/series.js';
import { narrowType } from '../../shared/core/profiles.js';
import type { SeriesRow } from '../../shared/core/series.js';
import { applyChange, plannedTimeline } from '../../shared/core/timeline.js';

// What /manage draws and what its End now and Cancel questions promise are one function,
// plannedTimeline, over the entries and the series' occurrences, with the change made as the
// server makes it (namecard_end_now, namecard_cancel).

const HOUR = 3_600_000;
const photo = narrowType('photo');
const main = narrowType('main');
const NOW = Date.UTC(2030, 5, 5, 12); // Wed 5 June 2030
const sat = (hour: number) => Date.UTC(2030, 5, 8, hour);

const weekly: SeriesRow = {
  id: 1,
  type: photo,
  weekdays: [6],
  start_time: '10:00',
  end_time: '18:00',
  time_zone: 'UTC',
  first_date: null,
  last_date: null,
  stopped_at: null,
};
const window = occurrences([weekly], [], NOW, NOW + 4 * 24 * HOUR);

describe('plannedTimeline', () => {
  it('End now stops what is in force and keeps the series: the main site until Saturday', () => {
    const running = { id: 2, type: photo, stamp_start: null, stamp_end: NOW + HOUR };
    const wednesday = {
      id: 3,
      type: photo,
      stamp_start: NOW + 7 * 24 * HOUR,
      stamp_end: NOW + 7 * 24 * HOUR + HOUR,
    };
    const rows = [running, wednesday, ...window];
    const until = NOW + 4 * 24 * HOUR;
    expect(plannedTimeline(rows, NOW, { change: { kind: 'end' }, until })).toEqual([
      { type: main, from: NOW, to: sat(10) },
      { type: photo, from: sat(10), to: sat(18) },
      { type: main, from: sat(18), to: until },
    ]);
  });

  it('Cancel of a series ends its occurrences, the running one now', () => {
    const saturday = sat(12);
    const rows = occurrences([weekly], [], saturday, saturday + 24 * HOUR);
    expect(plannedTimeline(rows, saturday)).toEqual([
      { type: photo, from: saturday, to: sat(18) },
      { type: main, from: sat(18), to: null },
    ]);
    expect(plannedTimeline(rows, saturday, { change: { kind: 'cancel', id: 1 } })).toEqual([
      { type: main, from: saturday, to: null },
    ]);
  });

  it('Cancel of a scheduled entry: it never starts; the rows are copied, never changed', () => {
    const later = { id: 4, type: photo, stamp_start: NOW + HOUR, stamp_end: NOW + 2 * HOUR };
    const rows = [later];
    const changed = applyChange(rows, NOW, { kind: 'cancel', id: 4 });
    expect(changed).toEqual([{ ...later, stamp_end: NOW + HOUR }]);
    expect(rows[0]).toBe(later);
    expect(later.stamp_end).toBe(NOW + 2 * HOUR);
    expect(plannedTimeline(rows, NOW, { change: { kind: 'cancel', id: 4 } })).toEqual([
      { type: main, from: NOW, to: null },
    ]);
  });

  it('cuts where the rows stop telling: the last segment ends there', () => {
    expect(plannedTimeline(window, NOW, { until: sat(12) })).toEqual([
      { type: main, from: NOW, to: sat(10) },
      { type: photo, from: sat(10), to: sat(12) },
    ]);
  });
});
