import { InputError } from './errors.js';
import { hasSeriesRule } from './lookup.js';
import { formatWhen, toWallClock } from './format.js';
import { MAIN_PROFILE, type StoredType } from './profiles.js';
import { didYouMean, nearestName } from './suggest.js';
import type { Segment } from './timeline.js';

// Weekly series ("photo every Sat 10:00-18:00"): their shape as the database keeps them
// (public.namecard_series, 20261125000100_series.sql) and the owner's words for them. The
// expansion into occurrences needs the time-zone database and lives in shared/calendar/series.ts;
// each occurrence is then an entry for the one rule (shared/core/timeline.ts): newest wins, by
// id, and series take their ids from the entries' own sequence, so an id names one or the other.

/**
 * A weekly series' rule, as the owner gives it, as it is stored and as the status answers it.
 */
export interface SeriesRule<Type extends string = string> {
  /** The profile visitors get during an occurrence. */
  type: Type;
  /** ISO weekdays, 1 = Monday … 7 = Sunday (stored ascending, each once). */
  weekdays: number[];
  /** Local start, `HH:MM` (`HH:MM:SS` as PostgreSQL answers a `time`). */
  start_time: string;
  /** Local end; at or before the start means the next day. */
  end_time: string;
  /** IANA time zone the local times are read in. */
  time_zone: string;
  /** First local date an occurrence may start on (`YYYY-MM-DD`), or null. */
  first_date: string | null;
  /** Last local date an occurrence may start on (`YYYY-MM-DD`), or null. */
  last_date: string | null;
}

/** One row of `public.namecard_series` as the REST API returns it. */
export interface SeriesRow extends SeriesRule<StoredType> {
  /** From the entries' id sequence: newest wins across entries and series. */
  id: number;
  /** Epoch ms the series was cancelled (occurrences end there), or null. */
  stopped_at: number | null;
  stop_kind?: 'cancelled' | null;
  created_at?: string;
}

/** One occurrence stopped by "end now" (`public.namecard_series_stop`). */
export interface SeriesStop {
  series_id: number;
  /** Epoch ms: the occurrence's start. */
  occurrence_start: number;
  /** Epoch ms: when it was stopped. */
  stopped_at: number;
}

/** The three-letter names, Monday first (index + 1 is the ISO weekday). */
export const WEEKDAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The whole names, Monday first, which `--every` takes too. */
const WEEKDAY_WORDS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

const DAY_NAMES: readonly string[] = [...WEEKDAY_NAMES, ...WEEKDAY_WORDS];

const DAYS_FORM = 'weekdays such as sat, sat,sun or mon-fri (mon tue wed thu fri sat sun)';
const RANGE_FORM = 'HH:MM-HH:MM (24-hour, e.g. 10:00-18:00; 22:00-02:00 runs past midnight)';

/** The ISO weekday of a day's name (`sat` or `saturday`, lowercase), or 0. */
function isoDay(name: string): number {
  const at = DAY_NAMES.indexOf(name);
  return at === -1 ? 0 : (at % 7) + 1;
}

/**
 * Reads weekdays as typed: names (`sat`, `saturday`), lists (`sat,sun`) and ranges (`mon-fri`,
 * `fri-mon` wrapping round the week), case-insensitive, in any combination. A misspelt name
 * gets a suggestion: `sta` → `sat`.
 *
 * @param text the days as typed
 * @param field the field's name in messages (`--every`)
 * @returns ISO weekdays (1 = Monday … 7 = Sunday), ascending, without repeats
 * @throws InputError naming the field and the expected form
 * @example parseWeekdays('mon-fri,sun') // → [1, 2, 3, 4, 5, 7]
 * @example parseWeekdays('Saturday') // → [6]
 */
export function parseWeekdays(text: string, field = '--every'): number[] {
  const days = new Set<number>();
  const parts = text
    .trim()
    .toLowerCase()
    .split(',')
    .map((part) => part.trim().split('-'));
  for (const [from = '', to, ...rest] of parts) {
    const a = isoDay(from);
    const b = to === undefined ? a : isoDay(to);
    if (a === 0 || b === 0 || rest.length > 0) {
      throw new InputError(field, DAYS_FORM, text, daysRefusal(field, text, parts));
    }
    for (let d = a; ; d = (d % 7) + 1) {
      days.add(d);
      if (d === b) break;
    }
  }
  return [...days].sort((x, y) => x - y);
}

/**
 * A misspelt day's name (`sta`), among the names with its first letter: in names this short,
 * two edits would make any day of any other (`day` is no `sat`).
 */
const nearestDay = (name: string) =>
  nearestName(
    name,
    DAY_NAMES.filter((day) => day[0] === name[0]),
  );

/** Weekdays refused, with the text each misspelt name corrected when every one has a match. */
function daysRefusal(field: string, text: string, parts: string[][]): string {
  const fixed = parts.map((names) =>
    names.length > 2 ? undefined : names.map((name) => (isoDay(name) ? name : nearestDay(name))),
  );
  const whole = fixed.every((names) => names?.every((name) => name !== undefined));
  const guess = whole ? fixed.map((names) => names!.join('-')).join(',') : undefined;
  return `\`${field}\` must be ${DAYS_FORM}, got \`${text}\`${didYouMean(guess)}`;
}

/**
 * Reads a local time range `HH:MM-HH:MM` (24-hour). An end at or before the start runs past
 * midnight into the next day (`22:00-02:00`; `10:00-10:00` is a whole day).
 *
 * @param text the range as typed
 * @param field the field's name in messages
 * @returns start and end as `HH:MM`
 * @throws InputError naming the field and the form
 */
export function parseTimeRange(text: string, field = 'time range'): { start: string; end: string } {
  const m = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!m) throw new InputError(field, RANGE_FORM, text);
  return { start: `${m[1]}:${m[2]}`, end: `${m[3]}:${m[4]}` };
}

/**
 * The weekdays in words, ranges folded: `Sat`, `Sat, Sun`, `Mon–Fri`, `every day`.
 *
 * @param weekdays ISO weekdays, ascending
 */
export function describeWeekdays(weekdays: readonly number[]): string {
  if (weekdays.length === 7) return 'day';
  const name = (d: number) => {
    const n = WEEKDAY_NAMES[d - 1]!;
    return n[0]!.toUpperCase() + n.slice(1);
  };
  const out: string[] = [];
  let i = 0;
  while (i < weekdays.length) {
    let j = i;
    while (j + 1 < weekdays.length && weekdays[j + 1] === weekdays[j]! + 1) j++;
    if (j - i >= 2) out.push(`${name(weekdays[i]!)}–${name(weekdays[j]!)}`);
    else for (let k = i; k <= j; k++) out.push(name(weekdays[k]!));
    i = j + 1;
  }
  return out.join(', ');
}

/** `HH:MM` of a `time` as PostgreSQL answers it (`10:00:00`). */
export function shortTime(time: string): string {
  return time.slice(0, 5);
}

/**
 * A series' rule in words, without its profile: `every Sat 10:00–18:00` (the zone and dates
 * follow when given: `in Europe/Berlin from 2030-06-01 until 2030-09-30`).
 *
 * @param series the stored series
 * @param showZone whether to name its zone (when it differs from the zone the face shows)
 */
export function describeRule(series: SeriesRule, showZone = false): string {
  const parts = [
    `every ${describeWeekdays(series.weekdays)} ${shortTime(series.start_time)}–${shortTime(series.end_time)}`,
  ];
  if (showZone) parts.push(`in ${series.time_zone}`);
  if (series.first_date) parts.push(`from ${series.first_date}`);
  if (series.last_date) parts.push(`until ${series.last_date}`);
  return parts.join(' ');
}

/**
 * A series in one line: `photo every Sat 10:00–18:00` (the zone and dates follow when given:
 * `in Europe/Berlin, from 2030-06-01 until 2030-09-30`).
 *
 * @param series the stored series
 * @param showZone whether to name its zone (when it differs from the zone the face shows)
 */
export function describeSeries(series: SeriesRule, showZone = false): string {
  return `${series.type} ${describeRule(series, showZone)}`;
}

/** How a face writes an instant in a zone (`Sat 10:00` by default: format.ts's formatWhen). */
export type WhenWords = (epochMs: number, now: number, timeZone: string) => string;

/**
 * A series in one line, without its profile, for a screen whose times are in `displayZone`
 * (named once, at its top): its rule in its own zone's times, then its next start. When the
 * series' zone is the display zone, no zone is named: `every Sat 10:00–18:00, next Sat 10:00`.
 * When it is not, each time is named with its zone, so no line mixes two zones unnamed: `every
 * Sat 10:00–18:00 in Europe/Berlin, next Sat 10:00 in Europe/Berlin (Sat 17:00 in Asia/Tokyo)`.
 *
 * @param series the series' rule
 * @param next epoch ms of its next start, or null when it has none ahead
 * @param now epoch ms (the server's now)
 * @param displayZone IANA zone of the screen's other times
 * @param when how the face writes an instant ({@link formatWhen} by default)
 * @returns the rule and the next start (`next …`, or `no occurrence ahead`) in words
 */
export function seriesWords(
  series: SeriesRule,
  next: number | null,
  now: number,
  displayZone: string,
  when: WhenWords = formatWhen,
): { rule: string; next: string } {
  const own = series.time_zone;
  const same = own === displayZone;
  const rule = describeRule(series, !same);
  if (next === null) return { rule, next: 'no occurrence ahead' };
  if (same) return { rule, next: `next ${when(next, now, own)}` };
  return {
    rule,
    next: `next ${when(next, now, own)} in ${own} (${when(next, now, displayZone)} in ${displayZone})`,
  };
}

/** Milliseconds in a day. */
const DAY_MS = 86_400_000;

/** `HH:MM` or `HH:MM:SS` as milliseconds after midnight. */
function timeOfDayMs(time: string): number {
  const [h = 0, m = 0, sec = 0] = time.split(':').map(Number);
  return ((h * 60 + m) * 60 + sec) * 1000;
}

/** An instant as local milliseconds in a zone (its epoch ms plus the zone's offset then). */
function localMs(epochMs: number, timeZone: string): number {
  const { offset } = toWallClock(epochMs, timeZone);
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h = 0, m = 0] = offset.slice(1).split(':').map(Number);
  return epochMs + sign * (h * 60 + m) * 60_000;
}

/**
 * True when `[from, to)` lies inside one occurrence of the series: it starts on or after an
 * occurrence's local start and ends on or before its local end (read with Intl, no Temporal,
 * so that `namecard status` can ask it). A time the series moves for a clock change (a start
 * in the spring-forward gap) is not matched: such a stretch is then not taken for an
 * occurrence, and is shown as it is.
 *
 * @param series the series' rule
 * @param from epoch ms
 * @param to epoch ms (exclusive)
 */
export function inOccurrence(series: SeriesRule, from: number, to: number): boolean {
  const zone = series.time_zone;
  const start = localMs(from, zone);
  const end = localMs(to, zone);
  const startTime = timeOfDayMs(series.start_time);
  const endTime = timeOfDayMs(series.end_time);
  const overnight = endTime <= startTime;
  const today = Math.floor(start / DAY_MS);
  // The occurrence may have started the day before (one that runs past midnight).
  for (const day of [today, today - 1]) {
    const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    const weekday = ((new Date(day * DAY_MS).getUTCDay() + 6) % 7) + 1;
    if (!series.weekdays.includes(weekday)) continue;
    if (
      (series.first_date && date < series.first_date) ||
      (series.last_date && date > series.last_date)
    )
      continue;
    const occurrenceStart = day * DAY_MS + startTime;
    const occurrenceEnd = (day + (overnight ? 1 : 0)) * DAY_MS + endTime;
    if (start >= occurrenceStart && end <= occurrenceEnd) return true;
  }
  return false;
}

/**
 * The coming changes worth a line of their own once each weekly series is said in one line:
 * the timeline's segments without those that are a series' occurrence, and without the
 * stretches after one that only go back to what came before it: the main site (between two
 * Saturdays, or before a one-off entry), or anything between two occurrences. The first segment (now) is always kept, as it is; every kept segment
 * keeps its own start and end, so each line says what is true. The picture (/manage's bar)
 * keeps drawing every segment; this is for the words.
 *
 * @param timeline segments from now on (the server's, or `timeline()`'s)
 * @param series the series with an occurrence ahead (the status's `series`)
 * @returns the segments to describe, in order
 * @example foldSeries(segments, status.series ?? [])
 */
export function foldSeries(timeline: readonly Segment[], series: readonly SeriesRule[]): Segment[] {
  const isOccurrence = (s: Segment | undefined) =>
    s !== undefined &&
    s.to !== null &&
    series.some((x) => x.type === s.type && inOccurrence(x, s.from, s.to!));
  const kept: Segment[] = [];
  timeline.forEach((segment, index) => {
    if (index === 0) return void kept.push(segment);
    if (isOccurrence(segment)) return;
    const last = kept[kept.length - 1]!;
    const next = timeline[index + 1];
    // A return to what came before an occurrence: the main site (nothing planned), or anything
    // between two occurrences (or up to where the answer stops). Another profile coming back
    // before a change of its own keeps its line: it says until when.
    const between = next === undefined ? segment.to !== null : isOccurrence(next);
    const returns = isOccurrence(timeline[index - 1]) && segment.type === last.type;
    if (returns && (segment.type === MAIN_PROFILE.type || between)) return;
    kept.push(segment);
  });
  return kept;
}

/**
 * True when `row` has the shape of a series row (the owner's read or a write's answer).
 */
export function isSeriesRow(row: unknown): row is SeriesRow {
  return hasSeriesRule(row);
}
