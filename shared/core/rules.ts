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
 * rows the client already has (shared/core/timeline.ts applies it at every instant).
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
