import { Temporal } from 'temporal-polyfill';
import { InputError } from '../core/errors.js';
import { localTimeZone } from '../core/format.js';

// Formatting needs no Temporal and lives in format.js, so that `namecard status` can show a
// stamp without loading the polyfill; it is re-exported here for one import path.
export {
  formatDuration,
  formatStamp,
  localTimeZone,
  toWallClock,
  type WallClock,
} from '../core/format.js';

// Date and time-zone arithmetic goes through Temporal (the temporal-polyfill package) rather
// than hand-written offset maths: it knows the IANA database and tells gaps from overlaps.

const DATE_FORM = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_FORM = /^(\d{2}):(\d{2})$/;

/**
 * Checks a `YYYY-MM-DD` date, including the calendar (no 2030-02-30).
 *
 * @returns the date as a Temporal.PlainDate
 * @throws InputError naming `date` and the form `YYYY-MM-DD`
 */
export function parseDate(date: string): Temporal.PlainDate {
  const m = DATE_FORM.exec(date);
  if (m) {
    try {
      return Temporal.PlainDate.from(
        { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) },
        { overflow: 'reject' },
      );
    } catch {
      // falls through to the one message below
    }
  }
  throw new InputError('date', 'YYYY-MM-DD', date);
}

/**
 * Checks an `HH:MM` 24-hour time (00:00 to 23:59; two digits each, so `7:5` and `24:00` fail).
 *
 * @returns the time as a Temporal.PlainTime
 * @throws InputError naming `time` and the form `HH:MM (24-hour)`
 */
export function parseTime(time: string): Temporal.PlainTime {
  const m = TIME_FORM.exec(time);
  if (m) {
    const hour = Number(m[1]);
    const minute = Number(m[2]);
    if (hour <= 23 && minute <= 59) return new Temporal.PlainTime(hour, minute);
  }
  throw new InputError('time', 'HH:MM (24-hour)', time);
}

/**
 * Checks an IANA time-zone name.
 *
 * @returns the canonical name as Temporal reports it
 * @throws InputError naming `timeZone` and the expected form
 */
export function parseTimeZone(timeZone: string): string {
  try {
    return Temporal.Now.zonedDateTimeISO(timeZone).timeZoneId;
  } catch {
    throw new InputError('timeZone', 'an IANA time zone such as Asia/Tokyo', timeZone);
  }
}

/**
 * Turns a wall-clock date and time into `stamp_end`, the end of the entry in epoch
 * milliseconds (spec §3, §9: the chosen date and time in the local time zone).
 *
 * Daylight saving: a local time that does not exist (clocks jump forward, e.g. 02:30 on
 * 2030-03-10 in America/New_York) is rejected. A local time that happens twice (clocks go
 * back, e.g. 01:30 on 2030-11-03 in America/New_York) resolves to the EARLIER of the two
 * instants, the first time the clock shows it, so the card never stays set longer than asked.
 *
 * @param date `YYYY-MM-DD`
 * @param time `HH:MM`, 24-hour
 * @param timeZone IANA time zone; defaults to {@link localTimeZone}
 * @returns epoch milliseconds
 * @throws InputError naming `date`, `time` or `timeZone` and the expected form
 * @example toStampEnd('2030-06-01', '18:00', 'Asia/Tokyo') // → 1906534800000
 */
export function toStampEnd(date: string, time: string, timeZone: string = localTimeZone()): number {
  const day = parseDate(date);
  const clock = parseTime(time);
  const zone = parseTimeZone(timeZone);
  const wall = day.toPlainDateTime(clock);
  const zoned = wall.toZonedDateTime(zone, { disambiguation: 'earlier' });
  if (!zoned.toPlainDateTime().equals(wall)) {
    throw new InputError(
      'time',
      'a time that exists on that day',
      time,
      `\`time\` ${time} does not exist on ${date} in ${zone} (the clocks jump forward): choose another time`,
    );
  }
  return zoned.epochMilliseconds;
}
