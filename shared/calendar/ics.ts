import { Temporal } from 'temporal-polyfill';
import { visitorsGet } from '../core/describe.js';
import { labelWithName, type ProfileLabels } from '../core/profiles.js';
import type { SeriesRow } from '../core/series.js';
import type { NamecardRow } from '../core/types.js';
import { localInstant, occurrences } from './series.js';

// The card's schedule as an iCalendar file (RFC 5545), for any calendar app: each series that
// has not been cancelled as one weekly event (RRULE, DTSTART;TZID= and the zone's VTIMEZONE),
// each one-off entry that has not ended as a single event (UTC times). Lines are folded at 75
// octets and end in CRLF, as section 3.1 asks.

const DAY_MS = 86_400_000;
const BYDAY = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/**
 * The characters a TEXT value may not hold (RFC 5545 section 3.3.11: TSAFE-CHAR leaves out the
 * controls, %x00-08, %x0A-1F and %x7F; a tab may stay) and the C1 controls (U+0080-U+009F), which
 * a terminal or a calendar would act on: dropped. Line breaks are written as `\\n` before.
 */
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const NOT_TEXT = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/**
 * Text escaped for a TEXT value (RFC 5545 section 3.3.11): `\\`, `;` and `,` escaped, every
 * line break (CRLF, LF, or a lone CR, which some parsers take as the end of the content line)
 * written as `\\n`, and every other control character dropped.
 */
function text(value: string): string {
  return value
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|\n|\r/g, '\\n')
    .replace(NOT_TEXT, '');
}

/** A content line folded at 75 octets (section 3.1). */
function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = new TextEncoder().encode(ch).length;
    if (size + n > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const two = (n: number) => String(n).padStart(2, '0');
const utc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const local = (d: Temporal.PlainDateTime) =>
  `${d.year}${two(d.month)}${two(d.day)}T${two(d.hour)}${two(d.minute)}${two(d.second)}`;
const offset = (ns: number) => {
  const minutes = Math.round(ns / 60e9);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${two(Math.floor(abs / 60))}${two(abs % 60)}`;
};

/**
 * The zone's VTIMEZONE for [from, to): one observance per offset change in that span (found
 * by Temporal in the IANA database), or one STANDARD observance for a zone without changes.
 */
function vtimezone(zone: string, from: number, to: number): string[] {
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  let at = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(zone);
  const first = at;
  let count = 0;
  for (;;) {
    const next = at.getTimeZoneTransition('next');
    if (!next || next.epochMilliseconds >= to) break;
    const before = next.subtract({ nanoseconds: 1 });
    const kind = next.offsetNanoseconds > before.offsetNanoseconds ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      // The wall time at the change, read with the offset in force before it.
      `DTSTART:${local(next.withTimeZone('UTC').add({ nanoseconds: before.offsetNanoseconds }).toPlainDateTime())}`,
      `TZOFFSETFROM:${offset(before.offsetNanoseconds)}`,
      `TZOFFSETTO:${offset(next.offsetNanoseconds)}`,
      `END:${kind}`,
    );
    count++;
    at = next;
  }
  if (count === 0) {
    lines.push(
      'BEGIN:STANDARD',
      `DTSTART:${local(first.toPlainDateTime())}`,
      `TZOFFSETFROM:${offset(first.offsetNanoseconds)}`,
      `TZOFFSETTO:${offset(first.offsetNanoseconds)}`,
      'END:STANDARD',
    );
  } else {
    // The offset in force at the start of the span, so that the first events read right.
    lines.splice(
      2,
      0,
      'BEGIN:STANDARD',
      `DTSTART:${local(first.toPlainDateTime())}`,
      `TZOFFSETFROM:${offset(first.offsetNanoseconds)}`,
      `TZOFFSETTO:${offset(first.offsetNanoseconds)}`,
      'END:STANDARD',
    );
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

/** What a calendar file is made of. */
export interface CalendarInput {
  /** Entries (rows of `public.namecard`, with `stop_kind` when the owner reads them). */
  entries: readonly (NamecardRow & { stop_kind?: string | null })[];
  /** Series rows. */
  series: readonly SeriesRow[];
  /** Epoch ms: the server's now; what has ended by then is left out. */
  now: number;
  /** How many days ahead: entries and series with nothing in that span are left out. */
  days: number;
  /**
   * The profiles' labels by name, as the server answered them (the status's `labels`, the
   * owner's profile list): each event is named by core/profiles.ts's `labelWithName`
   * (`Summer Sale (shop)`, `Photographer (photo)`), as every face names a profile.
   */
  labels: ProfileLabels;
}

/**
 * The card's schedule as an RFC 5545 iCalendar document: series not cancelled as weekly
 * events (RRULE with BYDAY, DTSTART;TZID, UNTIL from the last date) with their zones'
 * VTIMEZONEs, one-off entries that have not ended and were not cancelled as single events.
 * Cancelled series and entries are left out, and so is what has nothing in the next `days`.
 *
 * @returns the file's text, CRLF line ends
 */
export function calendarFile(input: CalendarInput): string {
  const { now, days } = input;
  const stamp = utc(now);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//namecard//schedule//EN',
    'CALSCALE:GREGORIAN',
  ];
  const live = input.series.filter((s) => s.stopped_at == null);
  const zones = [...new Set(live.map((s) => s.time_zone))];
  for (const zone of zones)
    lines.push(...vtimezone(zone, now - 400 * DAY_MS, now + (days + 400) * DAY_MS));
  for (const s of live) {
    // DTSTART is the first occurrence from now on (in force now, or the next).
    const [first] = occurrences([s], [], now, now + days * DAY_MS).sort(
      (a, b) => a.stamp_start - b.stamp_start,
    );
    if (!first) continue;
    const zone = s.time_zone;
    const startDay = Temporal.Instant.fromEpochMilliseconds(first.stamp_start)
      .toZonedDateTimeISO(zone)
      .toPlainDate();
    const start = startDay.toPlainDateTime(Temporal.PlainTime.from(s.start_time));
    const endDay = s.end_time <= s.start_time ? startDay.add({ days: 1 }) : startDay;
    const end = endDay.toPlainDateTime(Temporal.PlainTime.from(s.end_time));
    let rule = `FREQ=WEEKLY;BYDAY=${s.weekdays.map((d) => BYDAY[d - 1]).join(',')}`;
    if (s.last_date) {
      const until = localInstant(Temporal.PlainDate.from(s.last_date), s.start_time, zone);
      rule += `;UNTIL=${utc(until)}`;
    }
    lines.push(
      'BEGIN:VEVENT',
      `UID:series-${s.id}@namecard`,
      `DTSTAMP:${stamp}`,
      `DTSTART;TZID=${zone}:${local(start)}`,
      `DTEND;TZID=${zone}:${local(end)}`,
      `RRULE:${rule}`,
      `SUMMARY:${text(labelWithName(s.type, input.labels))}`,
      `DESCRIPTION:${text(`namecard series ${s.id}: visitors get ${visitorsGet(s.type, input.labels)}`)}`,
      'END:VEVENT',
    );
  }
  for (const e of input.entries) {
    if (e.stop_kind === 'cancelled' || e.stamp_end <= now) continue;
    const start = e.stamp_start ?? now;
    if (start >= e.stamp_end || start >= now + days * DAY_MS) continue;
    lines.push(
      'BEGIN:VEVENT',
      `UID:entry-${e.id}@namecard`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${utc(Math.max(start, e.stamp_start == null ? now : start))}`,
      `DTEND:${utc(e.stamp_end)}`,
      `SUMMARY:${text(labelWithName(e.type, input.labels))}`,
      `DESCRIPTION:${text(`namecard entry ${e.id}: visitors get ${visitorsGet(e.type, input.labels)}`)}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}
