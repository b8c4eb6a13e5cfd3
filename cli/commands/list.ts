import { commandOf } from '../grammar/commander.js';
import { LIST_DEFAULT_LIMIT } from '../grammar/table.js';
import { InputError } from '../../shared/core/errors.js';
import { describeState, visitorsGet } from '../../shared/core/describe.js';
import { entryStates, type EntryState } from '../../shared/core/timeline.js';
import { out, print, printJson } from '../terminal/output.js';
import { resolveConfig, type CliConfig } from '../session/settings.js';
import type { OnCard } from '../session/cards.js';
import { showType, terminalSafe } from '../terminal/terminal-safe.js';
import type { Occurrence } from '../../shared/calendar/series.js';
import type { SeriesRow } from '../../shared/core/series.js';
import type { NamecardRow } from '../../shared/core/types.js';

type SeriesLine = typeof import('./set-series.js').seriesLine;

const MAX_LIMIT = 1000;

function parseLimit(value: string | undefined): number {
  if (value === undefined) return LIST_DEFAULT_LIMIT;
  const limit = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new InputError('--limit', `a whole number from 1 to ${MAX_LIMIT}`, value);
  }
  return limit;
}

/** The options of `namecard list` (global ones included), as typed. */
export interface ListOptions {
  limit?: string;
  /** `--tz <zone>`: the IANA zone the times are shown in (default: this machine's). */
  tz?: string;
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/**
 * `namecard list`: the run's card's entries newest first with their id, start, end and state in
 * plain words (`cancel` takes the id), then its weekly series, the states worked out at the
 * server's now (`namecard_status`). The entries are its members' to read (a card token is a
 * member of its card): signed out, the list is the visitors' view instead, what the card's
 * public status says visitors get from now on (cli/terminal/visitors-list.ts).
 *
 * @throws InputError naming `--limit` or `--tz`, CardConflictError (exit 2); SessionError,
 *   ApiError, NetworkError (exit 1)
 */
export async function runList(options: ListOptions): Promise<void> {
  const limit = parseLimit(options.limit ?? String(LIST_DEFAULT_LIMIT));
  const settings = resolveConfig(options);
  const format = await import('../../shared/core/format.js');
  const zone =
    options.tz === undefined ? format.localTimeZone() : format.checkTimeZone(options.tz, '--tz');
  const { findCaller } = await import('../session/caller.js');
  const caller = await findCaller(settings);
  if (caller === undefined) {
    const visitors = await import('../terminal/visitors-list.js');
    await visitors.runVisitorsList(settings, options, zone);
    return;
  }
  const { onRunCard } = await import('../session/cards.js');
  const on = await onRunCard(settings, { caller });
  const listing = await readListing(on, limit);
  if (options.json) printJson(listJson(listing, on.config));
  else print(...listLines(listing, format, zone, on.config));
}

/** What `list` shows, read in one go: the entries, the status, the series and their next. */
interface Listing {
  rows: NamecardRow[];
  /** The server's now (epoch ms): the instant the states are worked out at. */
  now: number;
  series: SeriesRow[];
  /** Each series' next occurrence (null when cancelled or past its dates), in order. */
  seriesNext: (Occurrence | null)[];
  /** A series in one line (set-series.ts, loaded with the series). */
  seriesLine: SeriesLine;
  stateOf: (id: number) => EntryState;
}

/**
 * Reads the card's entries (every column), its status and its series in parallel, and works
 * out each entry's state at the server's now.
 */
async function readListing({ caller, card, config }: OnCard, limit: number): Promise<Listing> {
  const [{ listEntries }, { readStatus }, { listSeries }] = await Promise.all([
    import('../../shared/supabase/data.js'),
    import('../terminal/outlook.js'),
    import('../../shared/supabase/series.js'),
  ]);
  const [rows, status, { series }] = await caller.run(({ client, transport }) =>
    transport.guard(() =>
      Promise.all([
        listEntries(client, { limit, card: card.slug }),
        readStatus(config, transport.fetch, card.slug),
        listSeries(client, card.slug),
      ]),
    ),
  );
  const [{ seriesLine }, { nextOccurrences }] = await Promise.all([
    import('./set-series.js'),
    import('../../shared/calendar/series.js'),
  ]);
  const seriesNext = series.map((s) => nextOccurrences(s, status.now, 1)[0] ?? null);
  const exact = entryStates(rows, status.now);
  const stateOf = (id: number): EntryState => exact.get(id) ?? { state: 'ended' };
  return { rows, now: status.now, series, seriesNext, seriesLine, stateOf };
}

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/**
 * `list --json`: the server's now, that it was read signed in, the card (when the outputs name
 * it), the series and the entries with states.
 */
function listJson({ now, series, seriesNext, rows, stateOf }: Listing, config: CliConfig) {
  return {
    now,
    signed_in: true,
    ...(config.cardShown === undefined ? {} : { card: config.cardShown }),
    series: series.map((s, index) => ({
      ...s,
      cancelled: s.stopped_at != null,
      next_starts_at: iso(seriesNext[index]?.stamp_start),
      next_ends_at: iso(seriesNext[index]?.stamp_end),
    })),
    entries: rows.map((row) => {
      const state = stateOf(row.id);
      return {
        ...row,
        stamp_start: row.stamp_start ?? null,
        starts_at: iso(row.stamp_start),
        ends_at: iso(row.stamp_end),
        active: state.state === 'on-now',
        state: state.state,
        ...('until' in state ? { until: iso(state.until) } : {}),
        ...(state.state === 'scheduled' ? { takes_effect_at: iso(state.from) } : {}),
        ...(state.state === 'comes-back' ? { comes_back_at: iso(state.at) } : {}),
        ...(state.state === 'ended-early' || state.state === 'cancelled'
          ? { stopped_at: iso(state.at) }
          : {}),
      };
    }),
  };
}

/** A state's colour: on now green, scheduled cyan, coming back yellow, the rest dim. */
export function colourOf(state: Pick<EntryState, 'state'>): (text: string) => string {
  switch (state.state) {
    case 'on-now':
      return out.green;
    case 'scheduled':
      return out.cyan;
    case 'comes-back':
      return out.yellow;
    default:
      return out.dim;
  }
}

/** `list` as text: the zone once, the card, one aligned line per entry, then the series. */
function listLines(
  { now, series, seriesNext, seriesLine, rows, stateOf }: Listing,
  format: typeof import('../../shared/core/format.js'),
  zone: string,
  config: CliConfig,
): string[] {
  const when = (ms: number) => format.formatWhen(ms, now, zone);
  const seriesLines = series.map((s, index) => seriesLine(s, seriesNext[index] ?? null, now, zone));
  const card = config.cardShown === undefined ? [] : [`Card: ${config.cardShown}`];
  if (rows.length === 0) {
    return [
      ...(series.length > 0
        ? [out.dim(format.zoneHeader(zone, now)), ...card, 'Series:', ...seriesLines]
        : card),
      `No entries yet: visitors go to ${visitorsGet(null)}.`,
    ];
  }
  const idWidth = Math.max(...rows.map((row) => terminalSafe(row.id).length));
  const typeWidth = Math.max(...rows.map((row) => showType(row.type).length));
  const spans = rows.map((row) => {
    const end = row.planned_end ?? row.stamp_end;
    return row.stamp_start == null
      ? `until ${when(end)}`
      : `${when(row.stamp_start)} to ${when(end)}`;
  });
  const spanWidth = Math.max(...spans.map((span) => span.length));
  return [
    out.dim(format.zoneHeader(zone, now)),
    ...card,
    ...rows.map((row, index) => {
      const state = stateOf(row.id);
      const mark = state.state === 'on-now' ? out.green('*') : ' ';
      const id = terminalSafe(row.id).padStart(idWidth);
      const type = showType(row.type).padEnd(typeWidth);
      const words = colourOf(state)(describeState(state, now, zone));
      return `${mark} ${id}  ${type}  ${spans[index]!.padEnd(spanWidth)}  ${words}`;
    }),
    ...(series.length > 0 ? ['Series:', ...seriesLines] : []),
  ];
}

export const listCommand = commandOf('list', ({ options }) => runList(options));
