import { Temporal } from 'temporal-polyfill';
import { localInstant, occurrences } from '../../shared/calendar/series.js';
import { MAIN_PROFILE } from '../../shared/core/profiles.js';
import { activeEntry } from '../../shared/core/rules.js';
import type { SeriesRow, SeriesStop } from '../../shared/core/series.js';
import type { Segment } from '../../shared/core/timeline.js';
import type { NamecardRow } from '../../shared/core/types.js';

// The model the series property test (tests/conformance/timeline-property.test.ts) holds the
// database's walk to: the product's own expansion (`occurrences`, shared/calendar/series.ts) and
// the one rule (`activeEntry`), stepped and bounded as private.namecard_timeline_until steps and bounds its
// walk. No face of the product needs a timeline with series in TypeScript (they read the
// server's), so the model lives with the tests.

const DAY_MS = 86_400_000;

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
 * or none does. The database's walk (private.namecard_timeline_until) takes exactly these steps.
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
 * answer as the database's `private.namecard_timeline_until(card, at, null, maxSegments)`, including where that walk
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
 * `private.namecard_in_force_at(card, at, 'exact')`.
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
