import { describeFollowing, describeNow, visitorsGet } from '../../shared/core/describe.js';
import { zoneHeader } from '../../shared/core/format.js';
import { fetchStatus, type CardStatus, type LookupFetch } from '../../shared/core/lookup.js';
import { foldSeries, seriesWords } from '../../shared/core/series.js';
import { destinationUrl } from '../../shared/core/rules.js';
import type { CliConfig } from '../session/settings.js';
import { out } from './output.js';
import { showType } from './terminal-safe.js';

// What visitors get now and what follows, as `status`, `set`, `end` and `cancel` show it: one
// read of the function namecard_status (the server's now, the active entry and the timeline,
// all decided by the database's clock at one instant), put in the member's words. No
// supabase-js and no Temporal here: `namecard status` loads this module.

/**
 * Reads a card's status with one GET (the anon key; anyone may read any card's).
 *
 * @param card the card's slug
 */
export function readStatus(
  config: Pick<CliConfig, 'supabaseUrl' | 'anonKey'>,
  fetch: LookupFetch,
  card: string,
): Promise<CardStatus> {
  return fetchStatus({ supabaseUrl: config.supabaseUrl, anonKey: config.anonKey, fetch, card });
}

/**
 * Where visitors go now: the destination in force as /go decides it (the profile's own URL on an
 * allowed origin, the build's setting for main and photo, else the main site).
 */
export function statusTarget(status: CardStatus, config: CliConfig): string {
  const type = status.timeline[0]?.type ?? status.active?.type;
  return destinationUrl(type == null ? null : { type, url: status.url }, config);
}

/**
 * The status's fields of a `--json` document: `card` (the card's slug, when the outputs name
 * it: see CliConfig's cardShown), `active` (the active entry or null), `target`
 * (where visitors go now, {@link statusTarget}), `ends_at` and `remaining_ms` of the active entry, `next` (the first
 * segment after the current one, or null) and `timeline` (segments, epoch ms).
 */
export function statusJson(status: CardStatus, config: CliConfig) {
  const { active, now, timeline } = status;
  return {
    ...(config.cardShown === undefined ? {} : { card: config.cardShown }),
    active,
    target: statusTarget(status, config),
    ends_at: active ? new Date(active.stamp_end).toISOString() : null,
    remaining_ms: active ? active.stamp_end - now : null,
    next: timeline[1] ?? null,
    timeline,
    series: (status.series ?? []).map((s) => ({
      ...s,
      next_starts_at: new Date(s.next).toISOString(),
    })),
  };
}

/**
 * The weekly series with an occurrence ahead, one line each under `Series:`: `photo every Sat
 * 10:00–18:00, next Sat 28 Nov 10:00` in `zone`; a series set in another zone gives its own
 * zone's times and its next start in both, each zone named (shared/core/series.ts's
 * seriesWords). No lines when there is none.
 *
 * @param zone IANA time zone of the times shown
 */
export function seriesLines(status: CardStatus, zone: string): string[] {
  const series = status.series ?? [];
  if (series.length === 0) return [];
  return [
    'Series:',
    ...series.map((s) => {
      const { rule, next } = seriesWords(s, s.next, status.now, zone);
      return `  ${showType(s.type)} ${rule}, ${out.cyan(next)}`;
    }),
  ];
}

/**
 * The timeline in words, one line each: `Now: Photographer until today 18:00 (in 2 h): <url>`,
 * then `Then …` for each coming change (up to 5), the times in `zone`. A weekly series'
 * occurrences are not repeated here: each series has its one line (seriesLines), and the
 * changes are those foldSeries keeps.
 *
 * @param zone IANA time zone of the times shown
 * @param header whether to start with the line naming the zone (`Times in …`); leave it out
 *   only when the output has named the zone already
 */
export function timelineLines(
  status: CardStatus,
  config: CliConfig,
  zone: string,
  header = true,
): string[] {
  const { now, timeline, labels } = status;
  const [current] = timeline;
  const target = statusTarget(status, config);
  return [
    ...(header ? [out.dim(zoneHeader(zone, now))] : []),
    // A caller with several cards, or a run naming one, is told which.
    ...(config.cardShown === undefined ? [] : [`Card: ${config.cardShown}`]),
    `Now: ${current ? describeNow(current, now, zone, labels) : visitorsGet(null)}: ${out.cyan(target)}`,
    ...describeFollowing(foldSeries(timeline, status.series ?? []), now, zone, 5, labels),
  ];
}
