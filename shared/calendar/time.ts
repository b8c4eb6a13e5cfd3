import { Temporal } from 'temporal-polyfill';
import { localTimeZone } from '../core/format.js';
import { timeZoneRefusal } from '../core/suggest.js';
import { checkDate, checkTime, skippedTimeError, type WallClockFields } from '../core/wall-time.js';

// Date and time-zone arithmetic goes through Temporal (the temporal-polyfill package) rather
// than hand-written offset maths: it knows the IANA database and tells gaps from overlaps.

/**
 * Checks a `YYYY-MM-DD` date, including the calendar (no 2030-02-30): shared/core/wall-time.ts's
 * checks and messages.
 *
 * @param date the date as typed
 * @param field the field's name in messages (`date` by default; e.g. `--from`)
 * @returns the date as a Temporal.PlainDate
 * @throws InputError naming the field: the form `YYYY-MM-DD` when the text has another shape,
 *   or that the date does not exist (`2031-02-29`: February 2031 has 28 days)
 */
export function parseDate(date: string, field = 'date'): Temporal.PlainDate {
  return Temporal.PlainDate.from(checkDate(date, field), { overflow: 'reject' });
}

/**
 * Checks an `HH:MM` 24-hour time (00:00 to 23:59; two digits each, so `7:5` and `24:00` fail).
 *
 * @param time the time as typed
 * @param field the field's name in messages (`time` by default)
 * @returns the time as a Temporal.PlainTime
 * @throws InputError naming the field and the form `HH:MM (24-hour)`
 */
function parseTime(time: string, field = 'time'): Temporal.PlainTime {
  const { hour, minute } = checkTime(time, field);
  return new Temporal.PlainTime(hour, minute);
}

/**
 * Checks an IANA time-zone name.
 *
 * @param timeZone the name as given
 * @param field the field's name in messages (`timeZone` by default; the CLI says `--tz`)
 * @returns the canonical name as Temporal reports it
 * @throws InputError naming `timeZone` and the expected form
 */
export function parseTimeZone(timeZone: string, field = 'timeZone'): string {
  try {
    return Temporal.Now.zonedDateTimeISO(timeZone).timeZoneId;
  } catch {
    throw timeZoneRefusal(timeZone, field);
  }
}

export type { WallClockFields };

/**
 * Turns a wall-clock date and time in a zone into epoch milliseconds.
 *
 * Daylight saving: a local time that does not exist (clocks jump forward, e.g. 02:30 on
 * 2030-03-10 in America/New_York) is rejected. A local time that happens twice (clocks go
 * back, e.g. 01:30 on 2030-11-03 in America/New_York) resolves to the EARLIER of the two
 * instants, the first time the clock shows it, so the card never stays set longer than asked.
 *
 * @param date `YYYY-MM-DD`
 * @param time `HH:MM`, 24-hour
 * @param timeZone IANA time zone; defaults to {@link localTimeZone}
 * @param fields the names messages use for the date and the time
 * @returns epoch milliseconds
 * @throws InputError naming the date's or time's field, or `timeZone`, and the expected form
 * @example toEpochMs('2030-06-01', '18:00', 'Asia/Tokyo') // → 1906534800000
 */
export function toEpochMs(
  date: string,
  time: string,
  timeZone: string = localTimeZone(),
  fields: WallClockFields = { date: 'date', time: 'time' },
): number {
  const day = parseDate(date, fields.date);
  const clock = parseTime(time, fields.time);
  const zone = parseTimeZone(timeZone);
  const wall = day.toPlainDateTime(clock);
  const zoned = wall.toZonedDateTime(zone, { disambiguation: 'earlier' });
  if (!zoned.toPlainDateTime().equals(wall)) {
    throw skippedTimeError(fields, date, time, zone);
  }
  return zoned.epochMilliseconds;
}
