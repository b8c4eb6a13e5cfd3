import { describe, expect, it } from 'vitest';
import { planEntry, type EntryFieldNames } from '../../shared/calendar/plan.js';
import { inPlainWords } from '../../shared/core/plain-words.js';
import { FORM_FIELD_NAMES } from '../../site/src/manage/entries/describe.js';

// The manage form's field names (its labels).
const WEB_NAMES = FORM_FIELD_NAMES;
const NAMES = Object.values(WEB_NAMES);
const NOW = Date.UTC(2030, 0, 1, 12, 0);

/** planEntry's message for this input, with the web's names or the CLI's (default). */
function refusal(input: Parameters<typeof planEntry>[0], names?: EntryFieldNames): string {
  try {
    planEntry({ timeZone: 'UTC', ...input }, NOW, names);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('planEntry took it');
}

describe('inPlainWords', () => {
  it.each([
    [
      { profile: 'photo', date: '2020-01-01', time: '10:00' },
      'Date and Time must be in the future, got "2020-01-01 10:00" in UTC',
    ],
    [
      { profile: 'foto', date: '2031-01-01', time: '10:00' },
      'Profile must be main or photo, got "foto": did you mean "photo"?',
    ],
    [
      { profile: 'photo', date: '2031-01-02', time: '10:00', from: '2031-01-03 10:00' },
      'Start must be before the end (2031-01-02 10:00 UTC), got "2031-01-03 10:00"',
    ],
    [
      { profile: 'photo', date: '2031-02-30', time: '10:00' },
      'Date 2031-02-30 does not exist: February 2031 has 28 days',
    ],
  ])("turns planEntry's message for %j into plain words", (input, plain) => {
    const message = refusal(input, WEB_NAMES);
    expect(message).toContain('`');
    expect(inPlainWords(message, NAMES)).toBe(plain);
  });

  it('leaves the CLI its backticks: the same refusal with the CLI names', () => {
    expect(refusal({ profile: 'photo', date: '2020-01-01', time: '10:00' })).toBe(
      '`date` and `time` must be in the future, got `2020-01-01 10:00` in UTC',
    );
  });

  it('quotes every backticked part when no names are given, and keeps other text', () => {
    expect(inPlainWords('`SUPABASE_URL` must be a URL, got ``')).toBe(
      '"SUPABASE_URL" must be a URL, got ""',
    );
    expect(inPlainWords('no quotes here; a lone ` stays')).toBe('no quotes here; a lone ` stays');
  });
});
