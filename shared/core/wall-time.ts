import { InputError } from './errors.js';

// The forms of a wall-clock date and time and their messages, with no time-zone library: the
// Temporal path (shared/calendar/time.ts) and the CLI's light path (Date's local clock in the
// process's own zone) check and refuse them with these same functions, so both say the same.

const DATE_FORM = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_FORM = /^(\d{2}):(\d{2})$/;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The names of the fields a wall-clock instant is read from, as messages show them. */
export interface WallClockFields {
  /** e.g. `date`, or `--from` for a start given as one value */
  date: string;
  /** e.g. `time`, or `--from` */
  time: string;
}

/** A calendar date, month 1-12. */
export interface DateParts {
  year: number;
  month: number;
  day: number;
}

/** Days in a month of the proleptic Gregorian calendar (ISO 8601's, Temporal's). */
function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Checks a `YYYY-MM-DD` date, including the calendar (no 2030-02-30).
 *
 * @param date the date as typed
 * @param field the field's name in messages (`date` by default; e.g. `--from`)
 * @returns the year, month (1-12) and day
 * @throws InputError naming the field: the form `YYYY-MM-DD` when the text has another shape,
 *   or that the date does not exist (`2031-02-29`: February 2031 has 28 days)
 */
export function checkDate(date: string, field = 'date'): DateParts {
  const m = DATE_FORM.exec(date);
  if (!m) throw new InputError(field, 'YYYY-MM-DD', date);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) {
    return { year, month, day };
  }
  const why =
    month >= 1 && month <= 12
      ? `${MONTHS[month - 1]} ${year} has ${daysInMonth(year, month)} days`
      : `there is no month ${month}`;
  throw new InputError(
    field,
    'a date that exists',
    date,
    `\`${field}\` ${date} does not exist: ${why}`,
  );
}

/**
 * Checks an `HH:MM` 24-hour time (00:00 to 23:59; two digits each, so `7:5` and `24:00` fail).
 *
 * @param time the time as typed
 * @param field the field's name in messages (`time` by default)
 * @returns the hour (0-23) and minute
 * @throws InputError naming the field and the form `HH:MM (24-hour)`
 */
export function checkTime(time: string, field = 'time'): { hour: number; minute: number } {
  const m = TIME_FORM.exec(time);
  if (m) {
    const hour = Number(m[1]);
    const minute = Number(m[2]);
    if (hour <= 23 && minute <= 59) return { hour, minute };
  }
  throw new InputError(field, 'HH:MM (24-hour)', time);
}

/**
 * The refusal of a local time that a daylight-saving jump skips.
 *
 * @param zone the IANA zone, as the message names it
 */
export function skippedTimeError(
  fields: WallClockFields,
  date: string,
  time: string,
  zone: string,
): InputError {
  return new InputError(
    fields.time,
    'a time that exists on that day',
    time,
    `\`${fields.time}\` ${time} does not exist on ${date} in ${zone} (the clocks jump forward): choose another time`,
  );
}

/**
 * A wall-clock date and time in this process's OWN zone (the zone of `Date`'s local getters,
 * `TZ` or the system's) as epoch milliseconds, read with `Date`'s local constructor instead of
 * Intl or Temporal (same ICU zone data, none of their start-up cost). A time the clocks skip is
 * refused, found by reading the local fields back; a time that happens twice is its earlier
 * instant (ECMAScript's rule for the local constructor, and the rule of shared/calendar/time.ts's
 * `toEpochMs`, which this must agree with).
 *
 * @param date `YYYY-MM-DD`
 * @param time `HH:MM`, 24-hour
 * @param zone the process's own IANA zone, named in the refusal of a skipped time; the caller
 *   vouches that it is the process's zone
 * @returns epoch milliseconds
 * @throws InputError naming the date's or time's field, as {@link checkDate}, {@link checkTime}
 *   and {@link skippedTimeError} word it
 */
export function hostEpochMs(
  date: string,
  time: string,
  zone: string,
  fields: WallClockFields = { date: 'date', time: 'time' },
): number {
  const { year, month, day } = checkDate(date, fields.date);
  const { hour, minute } = checkTime(time, fields.time);
  // setFullYear, not the constructor: the constructor reads years 0-99 as 1900-1999.
  const at = new Date(2000, 0, 1, 12, 0, 0, 0);
  at.setFullYear(year, month - 1, day);
  at.setHours(hour, minute, 0, 0);
  if (
    at.getFullYear() !== year ||
    at.getMonth() !== month - 1 ||
    at.getDate() !== day ||
    at.getHours() !== hour ||
    at.getMinutes() !== minute
  ) {
    throw skippedTimeError(fields, date, time, zone);
  }
  return at.getTime();
}
