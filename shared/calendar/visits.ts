import { Temporal } from 'temporal-polyfill';
import { InputError } from '../core/errors.js';
import { PROFILE_TYPES, type ProfileType } from '../core/types.js';

// Visit counts by local day, from the server's 15-minute buckets (the visits migration): every
// zone's UTC offset is a whole number of 15 minutes (+05:30 and +05:45 included), so every
// local day is an exact sum of whole buckets. Pure: the CLI's `stats` and /manage both use it.

/** The channels a visit came through: the QR code, an NFC tag, or the plain link. */
export const VISIT_CHANNELS = ['qr', 'nfc', 'link'] as const;
/** One of {@link VISIT_CHANNELS}: what the card link's `?via=` marker says. */
export type VisitChannel = (typeof VISIT_CHANNELS)[number];

/** The length of a counting bucket, in ms (15 minutes). */
export const VISIT_BUCKET_MS = 15 * 60_000;

/** The days `stats` shows by default. */
export const DEFAULT_VISIT_DAYS = 30;
/** The most days `stats` accepts (a year, a leap day included). */
const MAX_VISIT_DAYS = 366;

/** One row of `public.namecard_visit`. */
export interface VisitCount {
  /** The bucket's start, epoch ms (a multiple of {@link VISIT_BUCKET_MS}). */
  bucket: number;
  /** The profile the visitors were sent to: main, photo, or one the owner added. */
  type: string;
  /** The channel. */
  via: VisitChannel;
  /** How many visits. */
  visits: number;
}

/**
 * Visits by profile name: main and photo always, and every other profile that has visits in the
 * window (one the owner added counts like the built-in ones).
 */
export type ByType = Record<ProfileType, number> & Record<string, number>;
/** Visits by channel: every channel present, zeros included. */
export type ByVia = Record<VisitChannel, number>;

/** One local day of the window. */
export interface DayVisits {
  /** `YYYY-MM-DD` in the window's zone. */
  day: string;
  total: number;
  by_type: ByType;
  by_via: ByVia;
}

/** The window's counts, in the shape `namecard stats --json` prints. */
export interface VisitSummary {
  /** The first day's start, epoch ms (inclusive). */
  from: number;
  /** The day after the last day's start, epoch ms (exclusive). */
  to: number;
  /** The IANA zone the days are in. */
  time_zone: string;
  total: number;
  by_type: ByType;
  by_via: ByVia;
  /** Every day of the window, oldest first, zeros included. */
  days: DayVisits[];
}

/**
 * The window's day starts followed by its end (epoch ms, ascending): what the server's
 * per-day sum (`namecard_visit_days`) takes.
 */
export function dayStarts(window: VisitWindow): number[] {
  return [...window.days.map((d) => d.start), window.to];
}

/** The window of whole local days: each day's name and start, plus the end. */
export interface VisitWindow {
  timeZone: string;
  /** The days, oldest first: `YYYY-MM-DD` and its start (epoch ms). */
  days: { day: string; start: number }[];
  /** The first day's start, epoch ms. */
  from: number;
  /** The start of the day after the last one, epoch ms. */
  to: number;
}

/**
 * Checks `--days`: a whole number from 1 to {@link MAX_VISIT_DAYS}.
 *
 * @param value as typed; undefined means {@link DEFAULT_VISIT_DAYS}
 * @param field the field's name in messages
 * @throws InputError naming the field and the expected form
 */
export function parseVisitDays(value: string | undefined, field = '--days'): number {
  if (value === undefined) return DEFAULT_VISIT_DAYS;
  const days = /^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(days >= 1 && days <= MAX_VISIT_DAYS)) {
    throw new InputError(field, `a whole number from 1 to ${MAX_VISIT_DAYS}`, value);
  }
  return days;
}

/**
 * The last `days` local days up to and including the one `now` falls in, in a zone. A day's
 * start is its first instant (Temporal's startOfDay: midnight, or the first valid time when a
 * clock change skips midnight), so days of 23 or 25 hours come out right.
 *
 * @param now epoch ms
 * @param days how many days (1 or more)
 * @param timeZone IANA time zone
 * @throws RangeError for an unknown zone
 */
export function visitWindow(now: number, days: number, timeZone: string): VisitWindow {
  const today = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(timeZone);
  const first = today.toPlainDate().subtract({ days: days - 1 });
  const list: { day: string; start: number }[] = [];
  for (let i = 0; i <= days; i++) {
    const date = first.add({ days: i });
    list.push({
      day: date.toString(),
      start: date.toZonedDateTime({ timeZone }).epochMilliseconds,
    });
  }
  const end = list.pop()!;
  return { timeZone: today.timeZoneId, days: list, from: list[0]!.start, to: end.start };
}

const zeroTypes = (types: readonly string[]): ByType =>
  Object.fromEntries(types.map((t) => [t, 0])) as ByType;
const zeroVias = (): ByVia => ({ qr: 0, nfc: 0, link: 0 });

/**
 * Adds the buckets up by local day: a bucket counts for the day its start lies in (buckets
 * outside the window are left out), and the totals are the days' sums.
 *
 * @param counts rows of `namecard_visit`, in any order
 * @param window from {@link visitWindow}
 * @returns the summary, every day of the window present, oldest first
 */
export function summarizeVisits(counts: readonly VisitCount[], window: VisitWindow): VisitSummary {
  // The built-in profiles first, then the others that have counts, in order of their names.
  const others = new Set(
    counts.map((c) => c.type).filter((t) => !PROFILE_TYPES.includes(t as ProfileType)),
  );
  const types = [...PROFILE_TYPES, ...[...others].sort()];
  const days: DayVisits[] = window.days.map(({ day }) => ({
    day,
    total: 0,
    by_type: zeroTypes(types),
    by_via: zeroVias(),
  }));
  const starts = window.days.map((d) => d.start);
  const summary: VisitSummary = {
    from: window.from,
    to: window.to,
    time_zone: window.timeZone,
    total: 0,
    by_type: zeroTypes(types),
    by_via: zeroVias(),
    days,
  };
  for (const count of counts) {
    if (!(count.bucket >= window.from && count.bucket < window.to)) continue;
    const day = days[lastAtOrBefore(starts, count.bucket)]!;
    const n = Number(count.visits);
    day.total += n;
    summary.total += n;
    // Every type has a key (set above): an added profile counts like the built-in ones.
    day.by_type[count.type] = (day.by_type[count.type] ?? 0) + n;
    summary.by_type[count.type] = (summary.by_type[count.type] ?? 0) + n;
    if (count.via in day.by_via) {
      day.by_via[count.via] += n;
      summary.by_via[count.via] += n;
    }
  }
  return summary;
}

/** The index of the last start at or before `at` (binary search; `starts` ascending). */
function lastAtOrBefore(starts: number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
