import { activeEntry, isActiveAt, isWellFormed } from './rules.js';
import { MAIN_PROFILE } from './profiles.js';
import type { NamecardRow } from './types.js';

// The card's timeline: the spec's rule (an entry is active at t when it has started and not
// ended; among active entries the highest id wins; none means main) applied at every instant
// from a moment on. The database answers the same timeline by its own clock (the walk
// private.namecard_timeline_until, which namecard_status answers); a property test checks the
// two against each other at random instants. This is the dependency-free copy for faces that
// reason about rows they already have: each entry's state, and /manage moving "now" along.

/** What visitors get during one stretch of time. */
export interface Segment {
  /** The profile visitors get: the winning entry's `type`, or `main` when none is active. */
  type: NamecardRow['type'];
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive; `null` for the last, open-ended segment (always `main`). */
  to: number | null;
}

/** One stretch during which one entry wins (or none: `entry` is null). */
export interface Run {
  /** The winning entry, or null for "nothing active: the main site". */
  entry: NamecardRow | null;
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive; `null` for the last run, which has no entry. */
  to: number | null;
}

/**
 * The winners from `at` on: consecutive runs, each with the entry that wins during it (null
 * for none). Every moment at which the winner can change is a start or an end of some row
 * after `at`; the winner is the rule's answer at each such moment.
 *
 * @param rows rows of `public.namecard`, in any order; malformed ones are ignored. For the
 *   answer to be complete they must include every entry that ends after `at` (a list of the
 *   newest N rows is exact for those N rows: an older row only wins where none of them is active)
 * @param at epoch ms
 * @returns runs in time order; the first starts at `at`, the last has `to: null` and no entry
 * @example runs([{ id: 1, type: 'photo', stamp_start: null, stamp_end: 2000 }], 1000)
 * // → [{ entry: <row 1>, from: 1000, to: 2000 }, { entry: null, from: 2000, to: null }]
 */
export function runs(rows: readonly unknown[], at: number): Run[] {
  const live = rows.filter((row): row is NamecardRow => isWellFormed(row) && row.stamp_end > at);
  const moments = new Set<number>();
  for (const row of live) {
    moments.add(row.stamp_end);
    if (row.stamp_start != null && row.stamp_start > at) moments.add(row.stamp_start);
  }
  const result: Run[] = [];
  let current: Run = { entry: activeEntry(live, at), from: at, to: null };
  for (const moment of [...moments].sort((a, b) => a - b)) {
    const entry = activeEntry(live, moment);
    if ((entry?.id ?? null) === (current.entry?.id ?? null)) continue;
    result.push({ ...current, to: moment });
    current = { entry, from: moment, to: null };
  }
  result.push(current);
  return result;
}

/**
 * The timeline from `at` on: what visitors get, as segments in time order, consecutive
 * segments of different types, the last one `main` and open-ended. The same answer as the
 * database's walk (`private.namecard_timeline_until`, as `namecard_status` answers it).
 *
 * @param rows rows of `public.namecard` (see {@link runs} for which rows must be there)
 * @param at epoch ms
 * @param maxSegments how many segments at most; when the timeline has more, the last one
 *   answered has a non-null `to`
 * @example timeline([{ id: 1, type: 'photo', stamp_start: null, stamp_end: 2000 }], 1000)
 * // → [{ type: 'photo', from: 1000, to: 2000 }, { type: 'main', from: 2000, to: null }]
 */
export function timeline(rows: readonly unknown[], at: number, maxSegments = Infinity): Segment[] {
  return mergeRuns(runs(rows, at)).slice(0, maxSegments);
}

/** Runs of one type in a row made one segment. */
function mergeRuns(list: readonly Run[]): Segment[] {
  const segments: Segment[] = [];
  for (const run of list) {
    const type = run.entry?.type ?? MAIN_PROFILE.type;
    const last = segments[segments.length - 1];
    if (last && last.type === type) last.to = run.to;
    else segments.push({ type, from: run.from, to: run.to });
  }
  return segments;
}

/** Where an entry stands at a moment, in the owner's terms. */
export type EntryState =
  /** Visitors get it now, until `until` (epoch ms). */
  | { state: 'on-now'; until: number }
  /** Not started; visitors will get it from `from`. */
  | { state: 'scheduled'; from: number }
  /** Started but covered by a newer entry now; visitors get it again from `at`. */
  | { state: 'comes-back'; at: number }
  /** Not ended, but a newer entry covers all its remaining time: visitors never get it. */
  | { state: 'never-shown' }
  /** Ran to its end. */
  | { state: 'ended' }
  /** Stopped by "end now" at `at`. */
  | { state: 'ended-early'; at: number }
  /** Cancelled at `at`. */
  | { state: 'cancelled'; at: number };

/** The stop marks the owner's reads carry (see the timeline migration). */
interface StopMarks {
  stopped_at?: number | null;
  stop_kind?: string | null;
}

/**
 * Each entry's state at `at`, from the one rule: the entry winning now is `on-now`, one that
 * wins later is `scheduled` (not started) or `comes-back` (started), one that never wins again
 * is `never-shown`; past entries are `ended`, `ended-early` or `cancelled` by their marks.
 *
 * @param rows rows of `public.namecard`; the newest rows must all be there (a list "newest
 *   first, limit N" is fine)
 * @param at epoch ms: the server's now when known (the status' timeline's first `from`)
 * @param others rows that take part in the rule but get no state of their own: the weekly
 *   series' occurrences (an entry they cover is never shown, or comes back after them)
 * @returns the states by row id
 */
export function entryStates(
  rows: readonly (NamecardRow & StopMarks)[],
  at: number,
  others: readonly NamecardRow[] = [],
): Map<number, EntryState> {
  const firstRun = new Map<number, Run>();
  for (const run of runs([...rows, ...others], at)) {
    if (run.entry && !firstRun.has(run.entry.id)) firstRun.set(run.entry.id, run);
  }
  const states = new Map<number, EntryState>();
  for (const row of rows) {
    const run = firstRun.get(row.id);
    let state: EntryState;
    if (row.stop_kind === 'cancelled') state = { state: 'cancelled', at: row.stopped_at ?? 0 };
    else if (run && run.from === at) state = { state: 'on-now', until: run.to ?? row.stamp_end };
    else if (run && row.stamp_start != null && row.stamp_start > at) {
      state = { state: 'scheduled', from: run.from };
    } else if (run) state = { state: 'comes-back', at: run.from };
    else if (row.stamp_end > at) state = { state: 'never-shown' };
    else if (row.stop_kind === 'ended') state = { state: 'ended-early', at: row.stopped_at ?? 0 };
    else state = { state: 'ended' };
    states.set(row.id, state);
  }
  return states;
}

/**
 * True when the entry may still be cancelled: it has not ended and was not stopped (the
 * database's `namecard_cancel` refuses the others).
 */
export function isCancellable(row: NamecardRow & StopMarks, at: number): boolean {
  return row.stop_kind == null && row.stamp_end > at;
}

/**
 * A change the owner may make, as the server makes it: End now (`namecard_end_now()`: every
 * entry and series occurrence in force stops now, what starts later stays) or Cancel of one id
 * (`namecard_cancel(id)`: an entry, or every occurrence of a series; what runs stops now, what
 * is ahead never starts).
 */
export type Change = { kind: 'end' } | { kind: 'cancel'; id: number };

/**
 * The rows as they are once `change` is made at `at`, by the server's rules (see {@link Change}):
 * a stopped row ends at `at`, a cancelled one that has not started ends at its start (it is
 * then never active). Rows are copied, never changed in place.
 *
 * @param rows entries and series occurrences (occurrences carry their series' id)
 * @param at epoch ms: the moment the change is made (the server's now, estimated)
 * @param change the change, or undefined for none
 */
export function applyChange<T extends NamecardRow>(
  rows: readonly T[],
  at: number,
  change?: Change,
): T[] {
  if (!change) return [...rows];
  return rows.map((row) => {
    if (change.kind === 'end') return isActiveAt(row, at) ? { ...row, stamp_end: at } : row;
    if (row.id !== change.id || row.stamp_end <= at) return row;
    return { ...row, stamp_end: Math.max(row.stamp_start ?? at, at) };
  });
}

/**
 * What visitors get from `at` on, for a face that holds the rows (entries and the series'
 * occurrences read for a window): the one rule ({@link timeline}) over the rows with `change`
 * made, cut at `until` when the rows say nothing past it (the last segment then ends there:
 * more may follow). /manage draws its timeline with this, and asks before End now or Cancel
 * with this and the change, so a question and the page after the change agree.
 *
 * @param rows entries and series occurrences
 * @param at epoch ms
 * @param options.change the change to make first, if any
 * @param options.until epoch ms past which the rows are not complete, or null
 * @example plannedTimeline(rows, now, { change: { kind: 'end' }, until: null })
 */
export function plannedTimeline(
  rows: readonly NamecardRow[],
  at: number,
  options: { change?: Change; until?: number | null } = {},
): Segment[] {
  const segments = timeline(applyChange(rows, at, options.change), at);
  const until = options.until ?? null;
  if (until === null || until <= at) return segments;
  const cut = segments.filter((segment) => segment.from < until);
  const last = cut[cut.length - 1];
  if (last && (last.to === null || last.to > until)) cut[cut.length - 1] = { ...last, to: until };
  return cut;
}
