import {
  MAIN_PROFILE,
  PROFILES,
  narrowType,
  readProfile,
  type ProfileRow,
  type StoredType,
} from './profiles.js';
import type { NamecardRow } from './types.js';

/** Where each profile sends a visitor: the main card site, and each sub-path under it. */
export type Targets = Record<ProfileRow['type'], string>;

/** The origins a destination may be on (`https://me.example`), or `'*'` for any. */
export type AllowedOrigins = readonly string[] | '*';

/**
 * The settings {@link targetUrl} needs, by the table's config keys: the main URL
 * (`mainUrl`) and each other profile's path resolved against it (`photoPath`).
 */
export type TargetConfig = Record<ProfileRow['configKey'], string>;

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
 * A row as it came from the API, with its `type` narrowed to the profile table (a profile, or
 * an unknown type kept as its text): done once, where rows enter (shared/core/lookup.ts,
 * shared/supabase/data.ts). A row whose type is already a string is returned as it is.
 *
 * @param row a row that passed {@link isWellFormed} (or a row of the owner's reads)
 */
export function narrowRow<T extends { type?: unknown }>(
  row: T,
): Omit<T, 'type'> & { type: StoredType } {
  return typeof row.type === 'string'
    ? (row as Omit<T, 'type'> & { type: StoredType })
    : { ...row, type: narrowType(row.type) };
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
 * the one with the highest `id` wins. Malformed rows are ignored. The database applies the
 * same rule with the server's clock (`namecard_go`, `namecard_status`); this is for reasoning about
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
  const main = new URL(config[MAIN_PROFILE.configKey]);
  const base = new URL(main.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return Object.fromEntries(
    PROFILES.map((p) => [
      p.type,
      p === MAIN_PROFILE ? main.href : new URL(config[p.configKey], base).href,
    ]),
  ) as Targets;
}

/**
 * Where a visitor is sent for a profile type: each profile's own target (`photo` gives the
 * photo sub-path of the main site); no entry or an unknown type gives the main site
 * (profiles.ts's readProfile).
 *
 * @param type the active entry's narrowed `type`, or `null`/`undefined` when nothing is active
 * @returns one of the two configured targets, never anything else
 * @example targetUrl('photo', { mainUrl: 'https://me.example/', photoPath: 'photo' })
 * // → 'https://me.example/photo'
 */
export function targetUrl(type: StoredType | null | undefined, config: TargetConfig): string {
  return resolveTargets(config)[readProfile(type).profile.type];
}

/**
 * True when the Redirecting.. page may send visitors to `url`: an absolute http(s) URL with no
 * user or password, on one of the allowed origins (any, for `'*'`). The build fixes the list,
 * so a profile's URL changed in the database (by a stolen session or a tampered row) can only
 * choose among places the owner's build allowed.
 *
 * @param url a destination as the profile table stores it
 * @param allowed the build's allowed origins ({@link AllowedOrigins})
 */
export function isAllowedDestination(url: string, allowed: AllowedOrigins): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username || parsed.password) return false;
  return allowed === '*' || allowed.includes(parsed.origin);
}

/**
 * Where a visitor is sent for the entry in force: its profile's own URL when it has one and
 * that URL is on an allowed origin; the main URL when it has one that is not; and, for a
 * profile that follows the build's settings (main and photo with no URL of their own, or no
 * entry at all), {@link targetUrl}.
 *
 * @param entry the active entry's narrowed `type` and the destination the lookup answered
 *   (`url`, null when the profile follows the build), or null/undefined when nothing is active
 * @param config the build's main URL, photo path and allowed origins
 * @returns an absolute URL the build allows, never anything else
 * @example destinationUrl({ type: 'shop', url: 'https://evil.example/' },
 *   { mainUrl: 'https://me.example/', photoPath: 'photo', allowedOrigins: ['https://me.example'] })
 * // → 'https://me.example/'
 */
export function destinationUrl(
  entry: { type: StoredType; url?: unknown } | null | undefined,
  config: TargetConfig & { allowedOrigins: AllowedOrigins },
): string {
  const url = entry?.url;
  if (url === undefined || url === null) return targetUrl(entry?.type, config);
  if (typeof url === 'string' && isAllowedDestination(url, config.allowedOrigins)) {
    return new URL(url).href;
  }
  return new URL(config[MAIN_PROFILE.configKey]).href;
}
