import { describe, expect, it } from 'vitest';
import { activeEntry, resolveTargets, targetUrl } from '../../shared/core/rules.js';

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
