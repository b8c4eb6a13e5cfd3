import { formatWhen, zoneHeader } from '../../shared/core/format.js';
import type { CardStatus } from '../../shared/core/lookup.js';
import { foldSeries } from '../../shared/core/series.js';
import type { Segment } from '../../shared/core/timeline.js';
import { runCardOf, showingCard } from '../session/run-card.js';
import type { CliConfig } from '../session/settings.js';
import { createLightTransport } from '../transport/transport.js';
import { out, print, printJson } from './output.js';
import { readStatus, seriesLines, statusJson } from './outlook.js';
import { showType, terminalSafe } from './terminal-safe.js';

// `namecard list` signed out: the visitors' view. A card's entries are its members' to read; what
// anyone may read is the card's status (`namecard_status`), whose timeline says what visitors
// get from now on, each stretch by the profile it sends them to. So the list says so, and
// shows those stretches and the weekly series instead of the entries.

/** What a signed-out list says first: whose view it is, and how to see the rest. */
export const SIGNED_OUT_NOTE =
  'Signed out: what visitors get from now on, as anyone may read it; `namecard login` lists the entries with their ids and how each ended';

/** One stretch of the timeline: where it starts and ends, and whether it is on now. */
function stretchLine(segment: Segment, first: boolean, when: (ms: number) => string): string[] {
  const span =
    segment.to === null
      ? `from ${when(segment.from)}`
      : first
        ? `until ${when(segment.to)}`
        : `${when(segment.from)} to ${when(segment.to)}`;
  return [first ? out.green('*') : ' ', showType(segment.type), span, first ? 'on now' : ''];
}

/** The stretches as aligned columns: a mark, the profile, the span, and `on now` for the first. */
function stretchLines(status: CardStatus, zone: string): string[] {
  const when = (ms: number) => formatWhen(ms, status.now, zone);
  const stretches = foldSeries(status.timeline, status.series ?? []);
  const rows = stretches.map((segment, index) => stretchLine(segment, index === 0, when));
  const width = (column: number) => Math.max(...rows.map((row) => row[column]!.length));
  const [typeWidth, spanWidth] = [width(1), width(2)];
  return rows.map(([mark, type, span, state]) =>
    `${mark} ${type!.padEnd(typeWidth)}  ${span!.padEnd(spanWidth)}  ${out.green(state!)}`.trimEnd(),
  );
}

/** `list --json` signed out: the server's now, the card when named, the timeline, the series. */
function visitorsJson(status: CardStatus, config: CliConfig) {
  const { card, timeline, series } = statusJson(status, config);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    now: status.now,
    signed_in: false,
    ...(card === undefined ? {} : { card }),
    timeline: timeline.map((s) => ({ ...s, starts_at: iso(s.from), ends_at: iso(s.to) })),
    series,
  };
}

/**
 * Prints the visitors' view of the run's card (named, else main): one GET of its status, anyone
 * may make it.
 *
 * @param zone the IANA zone the times are shown in
 * @throws NetworkError, TimeoutError, ApiError (exit 1)
 */
export async function runVisitorsList(
  settings: CliConfig,
  options: { json?: boolean },
  zone: string,
): Promise<void> {
  const card = runCardOf(settings);
  const config = showingCard(settings, card);
  const { fetch } = createLightTransport(config.supabaseUrl, config.timeoutMs);
  const status = await readStatus(config, fetch, card.slug);
  if (options.json) {
    printJson(visitorsJson(status, config));
    return;
  }
  print(
    out.yellow(SIGNED_OUT_NOTE),
    out.dim(zoneHeader(zone, status.now)),
    ...(config.cardShown === undefined ? [] : [`Card: ${terminalSafe(config.cardShown)}`]),
    ...stretchLines(status, zone),
    ...seriesLines(status, zone),
  );
}
