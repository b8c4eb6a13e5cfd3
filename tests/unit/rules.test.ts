import { describe, expect, it } from 'vitest';
import { describeFollowing, describeNow, describeState } from '../../shared/core/describe.js';
import { entryStates, isCancellable, runs, timeline } from '../../shared/core/timeline.js';
import { narrowType } from '../../shared/core/profiles.js';
import { activeEntry, resolveTargets, targetUrl } from '../../shared/core/rules.js';
import type { NamecardRow } from '../../shared/core/types.js';

const NOW = 1_900_000_000_000;
const config = { mainUrl: 'https://card.example/', photoPath: 'photo' };

describe('activeEntry', () => {
  it('returns null when there are no rows', () => {
    expect(activeEntry([], NOW)).toBeNull();
  });

  it('counts an entry as active only while stamp_end is strictly after now', () => {
    expect(activeEntry([{ id: 1, stamp_end: NOW, type: 'photo' }], NOW)).toBeNull();
    expect(activeEntry([{ id: 1, stamp_end: NOW + 1, type: 'photo' }], NOW)?.id).toBe(1);
  });

  it('picks the highest id among active entries, whatever the order and the end times', () => {
    const rows = [
      { id: 3, stamp_end: NOW + 10, type: 'main' },
      { id: 7, stamp_end: NOW + 5, type: 'photo' },
      { id: 9, stamp_end: NOW - 1, type: 'main' },
      { id: 5, stamp_end: NOW + 100, type: 'main' },
    ];
    expect(activeEntry(rows, NOW)).toEqual({ id: 7, stamp_end: NOW + 5, type: 'photo' });
  });

  it('ignores malformed rows', () => {
    const rows = [
      null,
      'x',
      { id: '8', stamp_end: NOW + 1 },
      { id: 9, stamp_end: 'soon' },
      { id: 2, stamp_end: NOW + 1, type: 'main' },
    ];
    expect(activeEntry(rows, NOW)?.id).toBe(2);
  });
});

describe('the schedule: stamp_start', () => {
  const HOUR = 3_600_000;

  it('counts an entry as active from its start, inclusive, until just before its end', () => {
    const row = { id: 1, stamp_start: NOW, stamp_end: NOW + HOUR, type: 'photo' };
    expect(activeEntry([row], NOW - 1)).toBeNull();
    expect(activeEntry([row], NOW)?.id).toBe(1);
    expect(activeEntry([row], NOW + HOUR - 1)?.id).toBe(1);
    expect(activeEntry([row], NOW + HOUR)).toBeNull();
  });

  it('lets an older active entry win while a newer one has not started', () => {
    const rows = [
      { id: 1, stamp_start: null, stamp_end: NOW + 10 * HOUR, type: 'photo' },
      { id: 2, stamp_start: NOW + HOUR, stamp_end: NOW + 2 * HOUR, type: 'main' },
    ];
    expect(activeEntry(rows, NOW)?.id).toBe(1);
    expect(activeEntry(rows, NOW + HOUR)?.id).toBe(2);
    expect(activeEntry(rows, NOW + 2 * HOUR)?.id).toBe(1);
  });

  it('gives the timeline: a scheduled entry, then the paused one coming back, then main', () => {
    const photo = { id: 1, stamp_start: null, stamp_end: NOW + 10 * HOUR, type: 'photo' };
    const fair = { id: 2, stamp_start: NOW + HOUR, stamp_end: NOW + 2 * HOUR, type: 'main' };
    expect(runs([photo, fair], NOW)).toEqual([
      { entry: photo, from: NOW, to: NOW + HOUR },
      { entry: fair, from: NOW + HOUR, to: NOW + 2 * HOUR },
      { entry: photo, from: NOW + 2 * HOUR, to: NOW + 10 * HOUR },
      { entry: null, from: NOW + 10 * HOUR, to: null },
    ]);
    const segments = timeline([photo, fair], NOW);
    expect(segments).toEqual([
      { type: 'photo', from: NOW, to: NOW + HOUR },
      { type: 'main', from: NOW + HOUR, to: NOW + 2 * HOUR },
      { type: 'photo', from: NOW + 2 * HOUR, to: NOW + 10 * HOUR },
      { type: 'main', from: NOW + 10 * HOUR, to: null },
    ]);
    // NOW is Sun 2030-03-17 17:46:40 UTC; ten hours on is Mon 03:46 UTC.
    expect(describeNow(segments[0]!, NOW, 'UTC')).toBe('Photographer until today 18:46 (in 1 h)');
    expect(describeFollowing(segments, NOW, 'UTC')).toEqual([
      'Then the main site from today 18:46 until today 19:46',
      'Then Photographer again from today 19:46 (in 2 h) until tomorrow 03:46',
      'Then the main site from tomorrow 03:46 (in 10 h)',
    ]);
  });

  it('merges consecutive entries of one type into one segment, and caps the answer', () => {
    const rows = [
      { id: 1, stamp_start: null, stamp_end: NOW + HOUR, type: 'photo' },
      { id: 2, stamp_start: NOW + HOUR, stamp_end: NOW + 2 * HOUR, type: 'photo' },
      { id: 3, stamp_start: NOW + 3 * HOUR, stamp_end: NOW + 4 * HOUR, type: 'photo' },
    ];
    expect(timeline(rows, NOW)).toEqual([
      { type: 'photo', from: NOW, to: NOW + 2 * HOUR },
      { type: 'main', from: NOW + 2 * HOUR, to: NOW + 3 * HOUR },
      { type: 'photo', from: NOW + 3 * HOUR, to: NOW + 4 * HOUR },
      { type: 'main', from: NOW + 4 * HOUR, to: null },
    ]);
    const capped = timeline(rows, NOW, 2);
    expect(capped).toHaveLength(2);
    expect(describeFollowing(capped, NOW, 'UTC').at(-1)).toBe('And more changes after that');
  });

  it("names each entry's state: on now, scheduled, comes back, never shown, ended, ended early, cancelled", () => {
    const rows: NamecardRow[] = [
      {
        id: 7,
        stamp_start: NOW + 5 * HOUR,
        stamp_end: NOW + 5 * HOUR,
        type: 'photo',
        stop_kind: 'cancelled' as const,
        stopped_at: NOW - HOUR,
      },
      {
        id: 6,
        stamp_start: null,
        stamp_end: NOW - HOUR,
        type: 'photo',
        stop_kind: 'ended' as const,
        stopped_at: NOW - HOUR,
      },
      { id: 5, stamp_start: NOW + 3 * HOUR, stamp_end: NOW + 4 * HOUR, type: 'photo' },
      { id: 4, stamp_start: null, stamp_end: NOW + HOUR, type: 'main' },
      { id: 3, stamp_start: null, stamp_end: NOW + 2 * HOUR, type: 'photo' },
      { id: 2, stamp_start: null, stamp_end: NOW + HOUR / 2, type: 'photo' },
      { id: 1, stamp_start: null, stamp_end: NOW - 1, type: 'main' },
    ];
    const states = entryStates(rows, NOW);
    expect(Object.fromEntries(states)).toEqual({
      7: { state: 'cancelled', at: NOW - HOUR },
      6: { state: 'ended-early', at: NOW - HOUR },
      5: { state: 'scheduled', from: NOW + 3 * HOUR },
      4: { state: 'on-now', until: NOW + HOUR },
      3: { state: 'comes-back', at: NOW + HOUR },
      2: { state: 'never-shown' },
      1: { state: 'ended' },
    });
    expect(rows.map((row) => describeState(states.get(row.id)!, NOW, 'UTC'))).toEqual([
      'cancelled at today 16:46',
      'ended early at today 16:46',
      'scheduled from today 20:46',
      'on now, until today 18:46',
      'comes back at today 18:46',
      'never shown: a newer entry covers its time',
      'ended',
    ]);
    expect(rows.filter((row) => isCancellable(row, NOW)).map((row) => row.id)).toEqual([
      5, 4, 3, 2,
    ]);
  });
});

describe('targetUrl', () => {
  it('sends photo to the photo sub-path of the main site', () => {
    expect(targetUrl('photo', config)).toBe('https://card.example/photo');
  });

  it.each([['main'], [null], [undefined], ['PHOTO'], [42], [{}]])(
    'sends %j to the main site',
    (type) => {
      expect(targetUrl(narrowType(type), config)).toBe('https://card.example/');
    },
  );

  it('resolves the photo path under a main URL that has a path, with or without a slash', () => {
    expect(resolveTargets({ mainUrl: 'https://me.example/card', photoPath: 'photo' })).toEqual({
      main: 'https://me.example/card',
      photo: 'https://me.example/card/photo',
    });
    expect(resolveTargets({ mainUrl: 'https://me.example/card/', photoPath: '#photo' }).photo).toBe(
      'https://me.example/card/#photo',
    );
  });
});
