import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, parseProfile, planEntry } from '../../shared/calendar/plan.js';
import { InputError } from '../../shared/core/errors.js';
import { FORM_FIELD_NAMES } from '../../site/src/manage/entries/describe.js';

// planEntry holds every rule of a new entry for the CLI and the manage page. Expected instants
// are written as UTC with the zone's known offset, so the test does not reuse the code it checks.
const NOW = Date.UTC(2030, 0, 1, 12, 0);
const HOUR = 3_600_000;

function refusal(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('planEntry', () => {
  it('plans an end from a date and time in the given zone, with no start', () => {
    expect(
      planEntry(
        { profile: 'photo', date: '2030-06-01', time: '18:00', timeZone: 'Asia/Tokyo' },
        NOW,
      ),
    ).toEqual({
      type: 'photo',
      stamp_end: Date.UTC(2030, 5, 1, 9),
      stamp_start: null,
      timeZone: 'Asia/Tokyo',
    });
  });

  it('reads the start in the same zone as the end', () => {
    const plan = planEntry(
      {
        profile: 'photo',
        date: '2030-06-01',
        time: '18:00',
        from: '2030-06-01 09:00',
        timeZone: 'Europe/Berlin',
      },
      NOW,
    );
    expect(plan.stamp_start).toBe(Date.UTC(2030, 5, 1, 7));
    expect(plan.stamp_end).toBe(Date.UTC(2030, 5, 1, 16));
  });

  it('ends a duration after now, or after the start when one is given', () => {
    expect(planEntry({ profile: 'main', for: '2h', timeZone: 'UTC' }, NOW).stamp_end).toBe(
      NOW + 2 * HOUR,
    );
    expect(planEntry({ profile: 'main', for: '1h30m', timeZone: 'UTC' }, NOW).stamp_end).toBe(
      NOW + 1.5 * HOUR,
    );
    expect(
      planEntry({ profile: 'main', for: '9h', from: '2030-06-01 09:00', timeZone: 'UTC' }, NOW),
    ).toMatchObject({ stamp_start: Date.UTC(2030, 5, 1, 9), stamp_end: Date.UTC(2030, 5, 1, 18) });
  });

  it('takes a start that has passed as "starts now": no start stored, and a notice', () => {
    const plan = planEntry(
      {
        profile: 'photo',
        date: '2030-06-01',
        time: '18:00',
        from: '2029-12-31 09:00',
        timeZone: 'UTC',
      },
      NOW,
    );
    expect(plan).toEqual({
      type: 'photo',
      stamp_start: null,
      stamp_end: Date.UTC(2030, 5, 1, 18),
      timeZone: 'UTC',
      notice: '`--from` 2029-12-31 09:00 has passed: the entry starts now',
    });
    // A duration still counts from the start given; the start at exactly now has passed too.
    expect(
      planEntry({ profile: 'main', for: '30h', from: '2029-12-31 09:00', timeZone: 'UTC' }, NOW),
    ).toMatchObject({ stamp_start: null, stamp_end: Date.UTC(2030, 0, 1, 15) });
    expect(
      planEntry({ profile: 'main', for: '1h', from: '2030-01-01 12:00', timeZone: 'UTC' }, NOW),
    ).toMatchObject({ stamp_start: null, stamp_end: NOW + HOUR });
    // A start one minute ahead is kept, with nothing to say.
    const later = planEntry(
      { profile: 'main', for: '1h', from: '2030-01-01 12:01', timeZone: 'UTC' },
      NOW,
    );
    expect(later.stamp_start).toBe(NOW + 60_000);
    expect(later.notice).toBeUndefined();
  });

  it('names the field of the page in the notice', () => {
    expect(
      planEntry(
        {
          profile: 'photo',
          date: '2030-06-01',
          time: '18:00',
          from: '2029-12-31 09:00',
          timeZone: 'UTC',
        },
        NOW,
        FORM_FIELD_NAMES,
      ).notice,
    ).toBe('`Start` 2029-12-31 09:00 has passed: the entry starts now');
  });

  it.each([
    ['PHOTO', 'photo'],
    [' Main ', 'main'],
  ])('takes the profile %j in any case', (profile, type) => {
    expect(planEntry({ profile, for: '1h', timeZone: 'UTC' }, NOW).type).toBe(type);
  });

  it.each([
    ['foto', '`profile` must be main or photo, got `foto`: did you mean `photo`?'],
    ['mian', '`profile` must be main or photo, got `mian`: did you mean `main`?'],
    ['video', '`profile` must be main or photo, got `video`'],
  ])('refuses the profile %j with a suggestion when it is close', (profile, message) => {
    const error = refusal(() => parseProfile(profile));
    expect(error.message).toBe(message);
    expect(error.field).toBe('profile');
  });

  it.each([
    ['0m', '`--for` must be longer than zero, got `0m`'],
    ['-2h', '`--for` must be longer than zero, got `-2h`'],
    ['soon', '`--for` must be a duration such as 90m, 2h, 3d or 1h30m, got `soon`'],
    ['90', '`--for` must be a duration such as 90m, 2h, 3d or 1h30m, got `90`'],
    ['11y', '`--for` must be at most 10 years, got `11y`'],
  ])('refuses the duration %j naming --for', (duration, message) => {
    expect(
      refusal(() => planEntry({ profile: 'main', for: duration, timeZone: 'UTC' }, NOW)).message,
    ).toBe(message);
  });

  it('accepts exactly 10 years', () => {
    expect(planEntry({ profile: 'main', for: '10y', timeZone: 'UTC' }, NOW).stamp_end).toBe(
      NOW + MAX_DURATION_MS,
    );
  });

  it('refuses --for together with a date and time', () => {
    const error = refusal(() =>
      planEntry(
        { profile: 'main', for: '2h', date: '2030-06-01', time: '18:00', timeZone: 'UTC' },
        NOW,
      ),
    );
    expect(error.field).toBe('--for');
    expect(error.message).toBe(
      '`--for` and an end date and time cannot be used together: give one of them',
    );
  });

  it('refuses an end in the past', () => {
    expect(
      refusal(() =>
        planEntry({ profile: 'main', date: '2029-12-31', time: '18:00', timeZone: 'UTC' }, NOW),
      ).message,
    ).toBe('`date` and `time` must be in the future, got `2029-12-31 18:00` in UTC');
  });

  it.each([
    ['after the end', '2030-06-01 19:00'],
    ['equal to the end', '2030-06-01 18:00'],
  ])('refuses a start %s', (_name, from) => {
    const error = refusal(() =>
      planEntry(
        { profile: 'photo', date: '2030-06-01', time: '18:00', from, timeZone: 'UTC' },
        NOW,
      ),
    );
    expect(error.field).toBe('--from');
    expect(error.message).toBe(
      `\`--from\` must be before the end (2030-06-01 18:00 UTC), got \`${from}\``,
    );
  });

  it('refuses a start in a daylight-saving gap, naming --from', () => {
    const error = refusal(() =>
      planEntry(
        {
          profile: 'photo',
          date: '2030-03-10',
          time: '18:00',
          from: '2030-03-10 02:30',
          timeZone: 'America/New_York',
        },
        NOW,
      ),
    );
    expect(error.message).toBe(
      '`--from` 02:30 does not exist on 2030-03-10 in America/New_York (the clocks jump forward): choose another time',
    );
  });

  it.each(['2030-06-01', '2030-06-01T09:00', 'tomorrow 9'])(
    'refuses the start %j naming its form',
    (from) => {
      const error = refusal(() =>
        planEntry(
          { profile: 'photo', date: '2030-06-01', time: '18:00', from, timeZone: 'UTC' },
          NOW,
        ),
      );
      expect(error.field).toBe('--from');
    },
  );

  it('uses the names it is given, as the manage form does', () => {
    const names = {
      profile: 'Profile',
      date: 'Date',
      time: 'Time',
      from: 'Start',
      for: 'Duration',
      timeZone: 'zone',
    };
    expect(
      refusal(() =>
        planEntry(
          { profile: 'main', date: '2020-01-01', time: '10:00', timeZone: 'UTC' },
          NOW,
          names,
        ),
      ).message,
    ).toBe('`Date` and `Time` must be in the future, got `2020-01-01 10:00` in UTC');
  });
});
