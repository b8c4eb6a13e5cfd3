import type { NamecardRow } from './types.js';

/** The two places a visitor can be sent to. */
export interface Targets {
  /** The main card site. */
  main: string;
  /** The photo sub-path of the main site. */
  photo: string;
}

/** The settings {@link targetUrl} needs: the main URL and the photo path resolved against it. */
export interface TargetConfig {
  mainUrl: string;
  photoPath: string;
}

/**
 * True when `row` has a finite numeric `id` and `stamp_end`, and a `stamp_start` that is
 * absent, null or finite: anything else is malformed and never counts as an active entry.
 */
export function isWellFormed(row: unknown): row is NamecardRow {
  if (typeof row !== 'object' || row === null) return false;
  const { id, stamp_end, stamp_start } = row as Record<string, unknown>;
  return (
    Number.isFinite(id) &&
    Number.isFinite(stamp_end) &&
    (stamp_start === undefined || stamp_start === null || Number.isFinite(stamp_start))
  );
}

/**
 * True when the entry is active at `at`: it has started (`stamp_start` is null or
 * `stamp_start <= at`) and not ended (`stamp_end > at`).
 *
 * @param row a well-formed row
 * @param at epoch milliseconds
 */
export function isActiveAt(row: NamecardRow, at: number): boolean {
  return (row.stamp_start == null || row.stamp_start <= at) && row.stamp_end > at;
}

/**
 * The active entry among `rows` at `now`: an entry is active from its `stamp_start` (or from
 * when it was stored, when null) until just before its `stamp_end`, and among active entries
 * the one with the highest `id` wins. Malformed rows are ignored. The database's view
 * `namecard_active` applies the same rule with the server's clock; this is for reasoning about
 * rows the client already has (states in a list, what comes after an entry).
 *
 * @param rows rows of `public.namecard`, in any order
 * @param now epoch milliseconds
 * @returns the active entry, or `null` when none is active
 * @example activeEntry([{ id: 1, stamp_end: 2000, type: 'photo' }], 1000) // → the row
 */
export function activeEntry(rows: readonly unknown[], now: number): NamecardRow | null {
  let best: NamecardRow | null = null;
  for (const row of rows) {
    if (!isWellFormed(row) || !isActiveAt(row, now)) continue;
    if (best === null || row.id > best.id) best = row;
  }
  return best;
}

/** A moment at which what visitors get changes. */
export interface Change {
  /** Epoch milliseconds. */
  at: number;
  /** The entry active from then on, or `null` for "the main site, nothing active". */
  entry: NamecardRow | null;
}

/**
 * What visitors will get after `now`, as the list of changes in time order, worked out from
 * `rows` with the rule of {@link activeEntry}: each change is a start or an end of some row at
 * which the winning entry differs from the one before.
 *
 * For the answer to be complete, `rows` must hold every entry that ends after `now`; with only
 * the newest N rows, the changes among them are still right (an older row can only win where
 * none of them is active).
 *
 * @param rows rows of `public.namecard`
 * @param now epoch milliseconds
 * @param max how many changes at most
 */
export function changesAfter(rows: readonly unknown[], now: number, max = 10): Change[] {
  const live = rows.filter((row): row is NamecardRow => isWellFormed(row) && row.stamp_end > now);
  const moments = new Set<number>();
  for (const row of live) {
    moments.add(row.stamp_end);
    if (row.stamp_start != null && row.stamp_start > now) moments.add(row.stamp_start);
  }
  const changes: Change[] = [];
  let current = activeEntry(live, now)?.id ?? null;
  for (const at of [...moments].sort((a, b) => a - b)) {
    const entry = activeEntry(live, at);
    if ((entry?.id ?? null) === current) continue;
    current = entry?.id ?? null;
    changes.push({ at, entry });
    if (changes.length >= max) break;
  }
  return changes;
}

/** Where an entry stands at a moment, for lists and history. */
export type EntryState =
  | { state: 'active' }
  | { state: 'scheduled'; startsAt: number }
  | { state: 'paused'; returnsAt: number }
  | { state: 'superseded' }
  | { state: 'ended' };

/**
 * The state of each entry at `now`: `active` (the one visitors get), `scheduled` (starts
 * later and will then take effect), `paused` (started, not ended, and will be active again
 * when a newer entry ends), `superseded` (will never be active again, though not ended), or
 * `ended`.
 *
 * @param rows rows of `public.namecard`; the newest rows must all be there (a list "newest
 *   first, limit N" is fine)
 * @param now epoch milliseconds
 * @param activeId the id of the active entry when known from the server (`namecard_active`),
 *   which then wins over the client's clock; `undefined` to work it out from `rows`
 * @returns the states by row id
 */
export function entryStates(
  rows: readonly NamecardRow[],
  now: number,
  activeId?: number | null,
): Map<number, EntryState> {
  const active = activeId === undefined ? (activeEntry(rows, now)?.id ?? null) : activeId;
  const firstWin = new Map<number, number>();
  for (const change of changesAfter(rows, now, Infinity)) {
    if (change.entry && !firstWin.has(change.entry.id)) firstWin.set(change.entry.id, change.at);
  }
  const states = new Map<number, EntryState>();
  for (const row of rows) {
    const wins = firstWin.get(row.id);
    if (row.id === active) states.set(row.id, { state: 'active' });
    else if (row.stamp_end <= now) states.set(row.id, { state: 'ended' });
    else if (wins === undefined) states.set(row.id, { state: 'superseded' });
    else if (row.stamp_start != null && row.stamp_start > now) {
      states.set(row.id, { state: 'scheduled', startsAt: wins });
    } else states.set(row.id, { state: 'paused', returnsAt: wins });
  }
  return states;
}

/**
 * Both targets from the settings. The photo path is resolved against the main URL as a
 * sub-path: the main URL is treated as a folder (a trailing `/` is implied), so
 * `https://me.example/card` + `photo` gives `https://me.example/card/photo`.
 *
 * @throws TypeError when `mainUrl` is not an absolute URL (config validation rejects that first)
 */
export function resolveTargets(config: TargetConfig): Targets {
  const main = new URL(config.mainUrl);
  const base = new URL(main.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return { main: main.href, photo: new URL(config.photoPath, base).href };
}

/**
 * Where a visitor is sent for a profile type: `photo` gives the photo sub-path of the main
 * site; anything else (no entry, `main`, an unknown type) gives the main site.
 *
 * @param type the active entry's `type`, or `null`/`undefined` when nothing is active
 * @returns one of the two configured targets, never anything else
 * @example targetUrl('photo', { mainUrl: 'https://me.example/', photoPath: 'photo' })
 * // → 'https://me.example/photo'
 */
export function targetUrl(type: unknown, config: TargetConfig): string {
  const targets = resolveTargets(config);
  return type === 'photo' ? targets.photo : targets.main;
}
