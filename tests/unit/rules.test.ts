import { describe, expect, it } from 'vitest';
import { describeChanges } from '../../shared/core/describe.js';
import {
  activeEntry,
  changesAfter,
  entryStates,
  resolveTargets,
  targetUrl,
} from '../../shared/core/rules.js';

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

  it('lists the changes to come: a scheduled entry, then the paused one coming back, then main', () => {
    const photo = { id: 1, stamp_start: null, stamp_end: NOW + 10 * HOUR, type: 'photo' };
    const fair = { id: 2, stamp_start: NOW + HOUR, stamp_end: NOW + 2 * HOUR, type: 'main' };
    expect(changesAfter([photo, fair], NOW)).toEqual([
      { at: NOW + HOUR, entry: fair },
      { at: NOW + 2 * HOUR, entry: photo },
      { at: NOW + 10 * HOUR, entry: null },
    ]);
    // NOW is 2030-03-17 17:46:40 UTC; ten hours on is 2030-03-18 03:46 UTC.
    expect(describeChanges(changesAfter([photo, fair], NOW), photo, NOW, 'UTC')).toEqual([
      'Then the main site from 2030-03-17 18:46 UTC until 2030-03-17 19:46 UTC',
      'Then Photographer again until 2030-03-18 03:46 UTC',
      'Then the main site',
    ]);
  });

  it("names each entry's state: active, scheduled, paused (returns at), superseded, ended", () => {
    const rows = [
      { id: 5, stamp_start: NOW + 3 * HOUR, stamp_end: NOW + 4 * HOUR, type: 'photo' },
      { id: 4, stamp_start: null, stamp_end: NOW + HOUR, type: 'main' },
      { id: 3, stamp_start: null, stamp_end: NOW + 2 * HOUR, type: 'photo' },
      { id: 2, stamp_start: null, stamp_end: NOW + HOUR / 2, type: 'photo' },
      { id: 1, stamp_start: null, stamp_end: NOW - 1, type: 'main' },
    ];
    const states = entryStates(rows, NOW);
    expect(Object.fromEntries(states)).toEqual({
      5: { state: 'scheduled', startsAt: NOW + 3 * HOUR },
      4: { state: 'active' },
      3: { state: 'paused', returnsAt: NOW + HOUR },
      2: { state: 'superseded' },
      1: { state: 'ended' },
    });
  });

  it("takes the server's active entry over the client's clock", () => {
    const rows = [{ id: 1, stamp_start: null, stamp_end: NOW + 1000, type: 'photo' }];
    expect(entryStates(rows, NOW, null).get(1)).toEqual({ state: 'superseded' });
  });
});

describe('targetUrl', () => {
  it('sends photo to the photo sub-path of the main site', () => {
    expect(targetUrl('photo', config)).toBe('https://card.example/photo');
  });

  it.each([['main'], [null], [undefined], ['PHOTO'], [42], [{}]])(
    'sends %j to the main site',
    (type) => {
      expect(targetUrl(type, config)).toBe('https://card.example/');
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
