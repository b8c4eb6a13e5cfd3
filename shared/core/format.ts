// Stamps and durations for people. Built on Intl only (no Temporal), so that code which only
// shows times, like `namecard status`, starts fast.

import { timeZoneRefusal } from './suggest.js';

/** The time zone of this machine or browser (IANA name, e.g. `Europe/Berlin`); honours `TZ` in Node. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Checks a time-zone name given by the user with Intl alone (no Temporal), so that a command
 * which only shows times (`namecard status --tz`) checks it without loading more.
 *
 * @param timeZone an IANA name as typed, e.g. `Asia/Tokyo`
 * @param field the field's name in messages (the CLI says `--tz`)
 * @returns the name as given, trimmed
 * @throws InputError naming `field` and the expected form
 * @example checkTimeZone('Asia/Tokyo', '--tz') // 'Asia/Tokyo'
 */
export function checkTimeZone(timeZone: string, field = 'timeZone'): string {
  const name = timeZone.trim();
  try {
    if (name === '') throw new RangeError('empty');
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    throw timeZoneRefusal(timeZone, field);
  }
}

/** A stamp shown as wall-clock parts in a zone. */
export interface WallClock {
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:MM` */
  time: string;
  /**
   * The IANA zone used, by the name it was given: an owner's `CET` stays `CET`, where Intl
   * reports the zone ICU links it to (`Europe/Brussels` on Node 20).
   */
  timeZone: string;
  /** UTC offset at that instant, e.g. `+09:00`. */
  offset: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone of this process's own clock, by name, when the caller found it: see setHostTimeZone. */
let hostZone: string | undefined;

/**
 * Names the zone this process's own clock runs in (the zone of `Date`'s local getters), so that
 * {@link toWallClock} reads stamps in that zone with those getters instead of Intl: the same
 * time-zone data (both come from ICU), without starting Intl's formatter, which costs 15–27 ms
 * at a process's first `Intl.DateTimeFormat`. `namecard status` names it (found by
 * cli/session/host-zone.ts); nothing else does, and the site never does.
 *
 * @param timeZone the IANA name of the process's own zone, as `TZ` or the system names it;
 *   `undefined` forgets it
 */
export function setHostTimeZone(timeZone: string | undefined): void {
  hostZone = timeZone;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A stamp in this process's own zone, read with `Date`'s local getters. */
function hostWallClock(epochMs: number, timeZone: string): WallClock {
  const at = new Date(epochMs);
  // getTimezoneOffset is UTC minus local time, in minutes.
  const east = -at.getTimezoneOffset();
  const sign = east < 0 ? '-' : '+';
  const offset = `${sign}${pad2(Math.floor(Math.abs(east) / 60))}:${pad2(Math.abs(east) % 60)}`;
  return {
    date: `${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())}`,
    time: `${pad2(at.getHours())}:${pad2(at.getMinutes())}`,
    timeZone,
    offset,
  };
}

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'longOffset',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/**
 * Epoch milliseconds as wall-clock date and time in a zone: the inverse of `toEpochMs`
 * (shared/calendar/time.ts).
 *
 * @param epochMs epoch milliseconds
 * @param timeZone IANA time zone; defaults to {@link localTimeZone}
 * @throws RangeError for an unknown time zone
 */
export function toWallClock(epochMs: number, timeZone: string = localTimeZone()): WallClock {
  if (timeZone === hostZone) return hostWallClock(epochMs, timeZone);
  const format = formatFor(timeZone);
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(epochMs)) part[type] = value;
  // `longOffset` reads `GMT+09:00`, or plain `GMT` at offset zero.
  const offset = (part.timeZoneName ?? 'GMT').replace('GMT', '') || '+00:00';
  return {
    date: `${part.year}-${part.month}-${part.day}`,
    time: `${part.hour}:${part.minute}`,
    timeZone,
    offset,
  };
}

// IANA names (and their Etc/ links) that mean UTC itself: for them the offset says nothing new.
const UTC_NAMES = /^(Etc\/)?(UTC|UCT|GMT|GMT[+-]?0|Greenwich|Universal|Zulu)$/;

/**
 * Epoch milliseconds for people, the zone named once: `2030-06-01 18:00 Asia/Tokyo (UTC+09:00)`
 * (the IANA name as given, then the offset at that instant), or `2030-06-01 18:00 UTC` when the
 * zone is UTC itself (`UTC`, `Etc/UTC`, `GMT`, …). A zone the owner gave (`--tz CET`) is shown
 * as they wrote it, in the case parseTimeZone gives it, not as the zone Intl links it to.
 *
 * @param epochMs epoch milliseconds
 * @param timeZone IANA time zone; defaults to {@link localTimeZone}
 * @throws RangeError for an unknown time zone
 */
export function formatStamp(epochMs: number, timeZone: string = localTimeZone()): string {
  const w = toWallClock(epochMs, timeZone);
  if (UTC_NAMES.test(w.timeZone)) return `${w.date} ${w.time} UTC`;
  return `${w.date} ${w.time} ${w.timeZone} (UTC${w.offset})`;
}

/**
 * A duration for people, to the minute: `2 days 3 h 5 min`, `45 min`, `less than a minute`.
 *
 * @param ms a non-negative duration in milliseconds
 */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes === 0) return 'less than a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const parts: string[] = [];
  if (days) parts.push(`${days} ${days === 1 ? 'day' : 'days'}`);
  if (hours) parts.push(`${hours} h`);
  if (mins) parts.push(`${mins} min`);
  return parts.join(' ');
}

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Days since the epoch of a `YYYY-MM-DD` calendar date (no zone: a count of dates). */
function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS);
}

/**
 * A stamp read at a glance, relative to `now`, in a zone the reader has been told once:
 * `today 18:00`, `tomorrow 09:00`, `Wed 09:00` within the coming week, `yesterday 18:00`,
 * `Wed 10 Dec 09:00` further off in the same year, `Wed 10 Dec 2031 09:00` beyond. The zone is
 * not named: say it once per screen with {@link zoneHeader}.
 *
 * @param epochMs the stamp, epoch ms
 * @param now the reader's now, epoch ms (the server's, when known)
 * @param timeZone IANA time zone; defaults to {@link localTimeZone}
 * @throws RangeError for an unknown time zone
 * @example formatWhen(Date.UTC(2030, 5, 1, 18), Date.UTC(2030, 5, 1, 9), 'UTC') // 'today 18:00'
 */
export function formatWhen(
  epochMs: number,
  now: number,
  timeZone: string = localTimeZone(),
): string {
  const when = toWallClock(epochMs, timeZone);
  const days = dayNumber(when.date) - dayNumber(toWallClock(now, timeZone).date);
  if (days === 0) return `today ${when.time}`;
  if (days === 1) return `tomorrow ${when.time}`;
  if (days === -1) return `yesterday ${when.time}`;
  const [y, m, d] = when.date.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
  if (days > 1 && days < 7) return `${weekday} ${when.time}`;
  const sameYear = toWallClock(now, timeZone).date.slice(0, 4) === when.date.slice(0, 4);
  return `${weekday} ${d} ${MONTHS[m - 1]}${sameYear ? '' : ` ${y}`} ${when.time}`;
}

/**
 * How far off a stamp is, coarse enough to read at a glance: `in 2 h 5 min`, `in 1 day 3 h`,
 * `in 3 days`, `in less than a minute`; for a stamp in the past, `2 h 5 min ago` and so on.
 *
 * @param epochMs the stamp, epoch ms
 * @param now epoch ms
 */
export function formatRelative(epochMs: number, now: number): string {
  const ms = Math.abs(epochMs - now);
  const days = Math.floor(ms / DAY_MS);
  let span: string;
  if (days >= 2) span = `${days} days`;
  else if (days === 1) span = formatDuration(ms - (ms % 3_600_000));
  else span = formatDuration(ms);
  if (span === 'less than a minute') return epochMs >= now ? 'in less than a minute' : 'just now';
  return epochMs >= now ? `in ${span}` : `${span} ago`;
}

/**
 * The line that names the zone of every time on a screen, once: `Times in Europe/Berlin
 * (UTC+01:00)` (the offset at `at`), or `Times in UTC`.
 *
 * @param timeZone IANA time zone
 * @param at epoch ms at which to read the offset
 * @throws RangeError for an unknown time zone
 */
export function zoneHeader(timeZone: string, at: number): string {
  const w = toWallClock(at, timeZone);
  if (UTC_NAMES.test(w.timeZone)) return 'Times in UTC';
  return `Times in ${w.timeZone} (UTC${w.offset})`;
}
