import { Temporal } from 'temporal-polyfill';
import { activeEntry } from '../core/rules.js';
import { MAIN_PROFILE } from '../core/profiles.js';
import type { SeriesRow, SeriesStop } from '../core/series.js';
import type { Segment } from '../core/timeline.js';
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

/** True when some occurrence of `s` may start at or after `at` (epoch ms). */
function runsPast(s: SeriesRow, at: number): boolean {
  if (s.stopped_at != null && s.stopped_at <= at) return false;
  if (!s.last_date) return true;
  // The last date's occurrence starts that day and ends the next at the latest.
  return (
    localInstant(Temporal.PlainDate.from(s.last_date).add({ days: 2 }), '00:00', s.time_zone) > at
  );
}

/** One stretch during which one entry or one occurrence wins (a step of the database's walk). */
interface Step {
  type: string;
  from: number;
  to: number | null;
}

/**
 * The steps from `at`: each stretch during which one row (an entry, or one occurrence) wins,
 * or none does. The database's walk (namecard_timeline_until) takes exactly these steps.
 */
function steps(rows: readonly NamecardRow[], at: number): Step[] {
  const live = rows.filter((row) => row.stamp_end > at);
  const moments = new Set<number>();
  for (const row of live) {
    moments.add(row.stamp_end);
    if (row.stamp_start != null && row.stamp_start > at) moments.add(row.stamp_start);
  }
  const result: Step[] = [];
  let winner = activeEntry(live, at);
  let from = at;
  for (const moment of [...moments].sort((a, b) => a - b)) {
    const next = activeEntry(live, moment);
    // The same row object: an occurrence is one object, so the next occurrence of the same
    // series is another step, as in the database's walk.
    if (next === winner) continue;
    result.push({ type: winner?.type ?? MAIN_PROFILE.type, from, to: moment });
    winner = next;
    from = moment;
  }
  result.push({ type: winner?.type ?? MAIN_PROFILE.type, from, to: null });
  return result;
}

/** Steps of one type in a row made one segment; at most `max` segments. */
function segmentsOf(list: readonly Step[], max: number): Segment[] {
  const segments: Segment[] = [];
  for (const step of list) {
    const last = segments[segments.length - 1];
    if (last && last.type === step.type) last.to = step.to;
    else {
      if (segments.length === max) break;
      segments.push({ type: step.type as Segment['type'], from: step.from, to: step.to });
    }
  }
  return segments;
}

/**
 * The timeline from `at` with the series expanded: what visitors get, as segments, the same
 * answer as the database's `namecard_timeline_at(at, maxSegments)`, including where that walk
 * stops early: after `maxSegments` segments, or after `maxSegments * 8` steps (a step is a
 * stretch during which one entry or one occurrence wins), when the last segment answered has a
 * non-null `to`. A series with no end makes the timeline endless, so one of the two bounds
 * always ends it.
 *
 * @param rows entries (rows of `public.namecard`; see shared/core/timeline.ts for which)
 * @param series series rows
 * @param stops occurrences stopped by "end now"
 * @param at epoch ms
 * @param maxSegments how many segments at most (1 to 1000)
 * @throws RangeError when the timeline cannot be found within about 90 years
 */
export function seriesTimeline(
  rows: readonly NamecardRow[],
  series: readonly SeriesRow[],
  stops: readonly SeriesStop[],
  at: number,
  maxSegments: number,
): Segment[] {
  const maxSteps = maxSegments * 8;
  for (let horizon = 8 * DAY_MS; horizon < 32_768 * DAY_MS; horizon *= 2) {
    const until = at + horizon;
    const all = steps([...rows, ...occurrences(series, stops, at, until)], at);
    const bounded = !series.some((s) => runsPast(s, until));
    // Steps that end before the horizon are final: everything in force until then is known.
    const final = bounded ? all : all.filter((s) => s.to !== null && s.to < until);
    const taken = final.slice(0, maxSteps);
    const segments = segmentsOf(taken, maxSegments + 1);
    if (bounded || final.length >= maxSteps || segments.length > maxSegments) {
      return segmentsOf(taken, maxSegments);
    }
  }
  throw new RangeError('the timeline did not settle within the horizon');
}

/**
 * The entry or occurrence in force at `at` (newest id wins), or null: the database's
 * `namecard_active_at(at)`.
 *
 * @param rows entries
 * @param series series rows
 * @param stops occurrences stopped by "end now"
 * @param at epoch ms
 */
export function activeAt(
  rows: readonly NamecardRow[],
  series: readonly SeriesRow[],
  stops: readonly SeriesStop[],
  at: number,
): NamecardRow | null {
  return activeEntry([...rows, ...occurrences(series, stops, at, at + 1)], at);
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
