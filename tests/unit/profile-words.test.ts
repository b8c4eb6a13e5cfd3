import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/core/errors.js';
import {
  PROFILE_REFUSAL_WORDS,
  describeInUse,
  readProfileRefusal,
} from '../../shared/core/profile-words.js';
import { labelWithName, profileLabel } from '../../shared/core/profiles.js';

// The profile words both faces share: one display name, and the server's refusals of a profile
// change read by code and detail, never by the database's sentence.

describe('a profile’s display name', () => {
  it('is its row’s label, else the built-in one, else its name', () => {
    expect(profileLabel('shop', { shop: 'Summer Sale' })).toBe('Summer Sale');
    expect(profileLabel('photo')).toBe('Photographer');
    expect(profileLabel('photo', { photo: 'Gallery' })).toBe('Gallery');
    expect(profileLabel('shop')).toBe('shop');
    expect(labelWithName('shop', { shop: 'Summer Sale' })).toBe('Summer Sale (shop)');
    expect(labelWithName('blog', { blog: 'blog' })).toBe('blog');
  });
});

describe('readProfileRefusal', () => {
  const refused = (code: string, details: string | null) =>
    new ApiError(409, code, 'the server’s own sentence', details);

  it('reads a name taken, main, and the ids in the way', () => {
    expect(readProfileRefusal(refused('23505', null))).toEqual({ code: 'profile_exists' });
    expect(readProfileRefusal(refused('23503', null))).toEqual({ code: 'main_profile' });
    expect(readProfileRefusal(refused('23503', '4, 7'))).toEqual({
      code: 'profile_in_use',
      inUse: { entries: [4, 7], series: [] },
    });
    expect(readProfileRefusal(refused('23503', 'series 5, series 9'))).toEqual({
      code: 'profile_in_use',
      inUse: { entries: [], series: [5, 9] },
    });
    expect(readProfileRefusal(refused('42501', null))).toBeUndefined();
    expect(readProfileRefusal(new Error('23505'))).toBeUndefined();
  });

  it('says the ids in words', () => {
    expect(describeInUse({ entries: [4], series: [] })).toBe('entry 4');
    expect(describeInUse({ entries: [4, 7, 9], series: [5] })).toBe(
      'entries 4, 7 and 9 and series 5',
    );
    expect(PROFILE_REFUSAL_WORDS.inUse('shop', { entries: [], series: [5, 6] })).toBe(
      'profile `shop` is in use: series 5 and 6 still name it',
    );
    expect(PROFILE_REFUSAL_WORDS.none('blgo')).toBe('no profile `blgo`');
  });
});
