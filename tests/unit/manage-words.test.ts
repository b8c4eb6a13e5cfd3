import { describe, expect, it } from 'vitest';
import { narrowType } from '../../shared/core/profiles.js';
import type { Segment } from '../../shared/core/timeline.js';
import { describeAfter, describeInstead } from '../../site/src/manage/entries/describe.js';

// /manage's sentences after and before a change: whether a "Then …" follows is decided on the
// timeline's segments, not on the words of the sentence describeFollowing made.

const NOW = Date.UTC(2030, 5, 5, 8, 0);
const HOUR = 3_600_000;
const segments = (list: { type: string; from: number; to: number | null }[]): Segment[] =>
  list.map((s) => ({ ...s, type: narrowType(s.type) }));
const status = (timeline: { type: string; from: number; to: number | null }[]) => ({
  now: NOW,
  active: null,
  timeline: segments(timeline),
  labels: { shop: 'Shop window' },
  url: null,
});

describe('describeAfter', () => {
  it('says what visitors get now and the next change', () => {
    expect(
      describeAfter(
        status([
          { type: 'main', from: NOW, to: NOW + HOUR },
          { type: 'shop', from: NOW + HOUR, to: null },
        ]),
        'UTC',
      ),
    ).toBe(
      'Visitors now get the main site until today 09:00 (in 1 h). Then Shop window from today 09:00.',
    );
  });

  it('says no next change for one open-ended segment, nor for a capped one', () => {
    expect(describeAfter(status([{ type: 'main', from: NOW, to: null }]), 'UTC')).toBe(
      'Visitors now get the main site.',
    );
    // The server capped its answer after one segment: more follows, but no sentence about it.
    expect(describeAfter(status([{ type: 'shop', from: NOW, to: NOW + HOUR }]), 'UTC')).toBe(
      'Visitors now get Shop window until today 09:00 (in 1 h).',
    );
  });
});

describe('describeInstead', () => {
  it('names what visitors will get instead, and what follows', () => {
    const before = segments([
      { type: 'shop', from: NOW, to: NOW + HOUR },
      { type: 'main', from: NOW + HOUR, to: null },
    ]);
    const after = segments([{ type: 'main', from: NOW, to: null }]);
    expect(describeInstead(before, after, NOW, 'UTC', { shop: 'Shop window' })).toBe(
      'Visitors will get the main site instead.',
    );
  });
});
