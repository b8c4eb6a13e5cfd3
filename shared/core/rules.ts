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
 * True when `row` has a finite numeric `id` and `stamp_end`: anything else is malformed and
 * never counts as an active entry.
 */
function isWellFormed(row: unknown): row is NamecardRow {
  if (typeof row !== 'object' || row === null) return false;
  const { id, stamp_end } = row as Record<string, unknown>;
  return Number.isFinite(id) && Number.isFinite(stamp_end);
}

/**
 * The active entry among `rows`: an entry is active when `stamp_end > now`, and among active
 * entries the one with the highest `id` wins (spec §5, "the first in descending id order").
 * Malformed rows are ignored.
 *
 * @param rows rows of `public.namecard`, in any order
 * @param now the reader's clock, epoch milliseconds
 * @returns the active entry, or `null` when none is active
 * @example activeEntry([{ id: 1, stamp_end: 2000, type: 'photo' }], 1000) // → the row
 */
export function activeEntry(rows: readonly unknown[], now: number): NamecardRow | null {
  let best: NamecardRow | null = null;
  for (const row of rows) {
    if (!isWellFormed(row) || row.stamp_end <= now) continue;
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
 * site; anything else (no entry, `main`, an unknown type) gives the main site (spec §2,
 * Redirecting.. page; §4).
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
