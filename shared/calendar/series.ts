import { Temporal } from 'temporal-polyfill';
import type { SeriesRow, SeriesStop } from '../core/series.js';
import type { NamecardRow } from '../core/types.js';

// The series' occurrences, as the database expands them (public.namecard_occurrences and
// public.namecard_series_next_start in 20261125000100_series.sql): each occurrence is an entry
// for the one rule, with its series' id. A property test keeps the two equal.

const DAY_MS = 86_400_000;

/** One occurrence, shaped as an entry for the timeline rule. */
export interface Occurrence extends NamecardRow {
  /** Epoch ms. */
  stamp_start: number;
  /** Epoch ms: the end as the rule sees it (planned end, or earlier when ended or cancelled). */
  stamp_end: number;
  /** Epoch ms: the end the series gives it. */
  planned_end: number;
  series: true;
}

/**
 * The instant a wall-clock time names in a zone, by RFC 5545's rule (Temporal's `compatible`):
 * a time in the spring-forward gap is read with the offset before the change (02:30 becomes
 * 03:30 summer time), a time in the autumn fold is the earlier of its two instants, as for
 * one-off entries (shared/calendar/time.ts). The database's `namecard_local_instant` agrees.
 *
 * @param date the local date
 * @param time `HH:MM` or `HH:MM:SS`
 * @param timeZone IANA time zone
 * @returns epoch ms
 */
export function localInstant(date: Temporal.PlainDate, time: string, timeZone: string): number {
  return date
    .toPlainDateTime(Temporal.PlainTime.from(time))
    .toZonedDateTime(timeZone, { disambiguation: 'compatible' }).epochMilliseconds;
}

const localDate = (ms: number, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone).toPlainDate();

/**
 * Every occurrence in force some time in `[from, to)`: start, end as stopped (by an "end now"
 * of that occurrence, or the series' cancellation) and planned end. Empty occurrences (stopped
 * at or before their start) are left out. The same answer as `namecard_occurrences(from, to)`.
 *
 * @param series the series rows (cancelled ones too: their past occurrences stay)
 * @param stops the occurrences stopped by "end now"
 * @param from epoch ms, inclusive
 * @param to epoch ms, exclusive
 * @returns occurrences, by series and start
 */
export function occurrences(
  series: readonly SeriesRow[],
  stops: readonly SeriesStop[],
  from: number,
  to: number,
): Occurrence[] {
  const stopped = new Map(stops.map((s) => [`${s.series_id}/${s.occurrence_start}`, s.stopped_at]));
  const result: Occurrence[] = [];
  for (const s of series) {
    if (s.stopped_at != null && s.stopped_at <= from) continue;
    let day = localDate(from, s.time_zone).subtract({ days: 2 });
    if (
      s.first_date &&
      Temporal.PlainDate.compare(day, Temporal.PlainDate.from(s.first_date)) < 0
    ) {
      day = Temporal.PlainDate.from(s.first_date);
    }
    let last = localDate(to, s.time_zone).add({ days: 1 });
    if (s.last_date && Temporal.PlainDate.compare(last, Temporal.PlainDate.from(s.last_date)) > 0) {
      last = Temporal.PlainDate.from(s.last_date);
    }
    const overnight = s.end_time <= s.start_time;
    for (; Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) {
      if (!s.weekdays.includes(day.dayOfWeek)) continue;
      const start = localInstant(day, s.start_time, s.time_zone);
      const end = localInstant(overnight ? day.add({ days: 1 }) : day, s.end_time, s.time_zone);
      const cut = Math.min(
        end,
        s.stopped_at ?? Infinity,
        stopped.get(`${s.id}/${start}`) ?? Infinity,
      );
      if (start < to && cut > start && cut > from) {
        result.push({
          id: s.id,
          type: s.type,
          stamp_start: start,
          stamp_end: cut,
          planned_end: end,
          series: true,
        });
      }
    }
  }
  return result;
}

/**
 * The next occurrences of one series: those starting after `now`, at most `count`, looked for
 * up to a year past `now` (or past its first date, when that is ahead).
 *
 * @param series the series row
 * @param now epoch ms (the server's now)
 * @param count how many at most
 * @returns occurrences by start, ascending (empty when cancelled or past its dates)
 */
export function nextOccurrences(series: SeriesRow, now: number, count: number): Occurrence[] {
  const found: Occurrence[] = [];
  // From its first date when that is ahead (less two days: a zone's date may trail UTC's).
  const begin = Math.max(now, series.first_date ? Date.parse(series.first_date) - 2 * DAY_MS : now);
  for (let from = begin; found.length < count && from < begin + 366 * DAY_MS;) {
    const to = from + 15 * DAY_MS;
    for (const o of occurrences([series], [], from, to)) {
      if (o.stamp_start > now && !found.some((f) => f.stamp_start === o.stamp_start)) found.push(o);
    }
    from = to;
  }
  return found.sort((a, b) => a.stamp_start - b.stamp_start).slice(0, count);
}
