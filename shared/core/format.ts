// Stamps and durations for people. Built on Intl only (no Temporal), so that code which only
// shows times, like `namecard status`, starts fast.

/** The time zone of this machine or browser (IANA name, e.g. `Europe/Berlin`); honours `TZ` in Node. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
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
 * Epoch milliseconds as wall-clock date and time in a zone: the inverse of `toStampEnd`.
 *
 * @param epochMs epoch milliseconds
 * @param timeZone IANA time zone; defaults to {@link localTimeZone}
 * @throws RangeError for an unknown time zone
 */
export function toWallClock(epochMs: number, timeZone: string = localTimeZone()): WallClock {
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
