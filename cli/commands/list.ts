import { commandOf } from '../grammar/commander.js';
import { LIST_DEFAULT_LIMIT } from '../grammar/table.js';
import { InputError } from '../../shared/core/errors.js';
import { describeState, visitorsGet } from '../../shared/core/describe.js';
import { entryStates, type EntryState } from '../../shared/core/timeline.js';
import { out, print, printJson } from '../terminal/output.js';
import { resolveConfig, tableCard } from '../session/settings.js';
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
 * An entry's state in the list: one of the timeline's, or, signed out, `not-shown` for an
 * entry visitors will not get from now on, when the columns anyone may read cannot tell
 * whether it ran to its end, was ended early, cancelled, or is covered by a newer entry.
 */
type ListState = EntryState | { state: 'not-shown' };

/** The states the visitors' columns decide exactly: the timeline's, from now on. */
const KNOWN_SIGNED_OUT = new Set<EntryState['state']>(['on-now', 'scheduled', 'comes-back']);

/** What a signed-out list says first: whose view it is, and how to see the rest. */
const SIGNED_OUT_NOTE =
  'Signed out: states as visitors see them; `namecard login` shows which entries ended early or were cancelled';

/**
 * `namecard list`: entries newest first with their id, start, end and state in plain words
 * (`cancel` takes the id). Signed in (stored session or CI credentials) it reads every column
 * as the owner; signed out, the columns anyone may read, which say what visitors get from now
 * on but not how an entry stopped: those entries read `not shown from now on`, under a line
 * saying the list is signed out. States are worked out at the server's now (view
 * `namecard_status`).
 */
export async function runList(options: ListOptions): Promise<void> {
  const limit = parseLimit(options.limit ?? String(LIST_DEFAULT_LIMIT));
  const config = resolveConfig(options);
  const format = await import('../../shared/core/format.js');
  const zone =
    options.tz === undefined ? format.localTimeZone() : format.checkTimeZone(options.tz, '--tz');
  const listing = await readListing(config, limit);
  if (options.json) printJson(listJson(listing));
  else print(...listLines(listing, format, zone));
}

/** What `list` shows, read in one go: the entries, the status, the series and their next. */
interface Listing {
  signedIn: boolean;
  rows: NamecardRow[];
  /** The server's now (epoch ms): the instant the states are worked out at. */
  now: number;
  series: SeriesRow[];
  /** Each series' next occurrence (null when cancelled or past its dates), in order. */
  seriesNext: (Occurrence | null)[];
  /** A series in one line (set-series.ts, loaded with the series). */
  seriesLine: SeriesLine;
  stateOf: (id: number) => ListState;
}

/**
 * Reads the entries (every column signed in, the visitors' columns signed out), the status
 * and the series in parallel, and works out each entry's state at the server's now.
 */
async function readListing(
  config: ReturnType<typeof resolveConfig>,
  limit: number,
): Promise<Listing> {
  const [{ connect }, { findOwner }, { listEntries }, { readStatus }] = await Promise.all([
    import('../session/connect.js'),
    import('../session/session.js'),
    import('../../shared/supabase/data.js'),
    import('../terminal/outlook.js'),
  ]);
  // A card named by its slug is read by its members only: signed in, or refused.
  const { card } = config;
  const owner =
    card === undefined
      ? await findOwner(config)
      : await (await import('../session/session.js')).requireOwner(config);
  const { client, transport } = owner ?? connect(config);
  const [rows, status, { series }] = await transport.guard(() =>
    Promise.all([
      listEntries(client, {
        limit,
        owner: owner !== undefined,
        card: owner ? tableCard(config) : card,
      }),
      card === undefined && config.token === undefined
        ? readStatus(config, transport.fetch)
        : import('../../shared/supabase/cards.js').then((c) =>
            // A card token's status is its card's, whatever slug is given.
            c.fetchCardStatus(client, card ?? ''),
          ),
      import('../../shared/supabase/series.js').then(({ listSeries }) =>
        listSeries(client, owner ? tableCard(config) : card),
      ),
    ]),
  );
  const [{ seriesLine }, { nextOccurrences }] = await Promise.all([
    import('./set-series.js'),
    import('../../shared/calendar/series.js'),
  ]);
  const seriesNext = series.map((s) => nextOccurrences(s, status.now, 1)[0] ?? null);
  const exact = entryStates(rows, status.now);
  const stateOf = (id: number): ListState => {
    const state = exact.get(id) ?? { state: 'ended' };
    return owner || KNOWN_SIGNED_OUT.has(state.state) ? state : { state: 'not-shown' };
  };
  return {
    signedIn: owner !== undefined,
    rows,
    now: status.now,
    series,
    seriesNext,
    seriesLine,
    stateOf,
  };
}

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/** `list --json`: the server's now, whether signed in, the series and the entries with states. */
function listJson({ now, signedIn, series, seriesNext, rows, stateOf }: Listing) {
  return {
    now,
    signed_in: signedIn,
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
function colourOf(state: ListState): (text: string) => string {
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

/** `list` as text: the zone once, one aligned line per entry, then the series. */
function listLines(
  { now, signedIn, series, seriesNext, seriesLine, rows, stateOf }: Listing,
  format: typeof import('../../shared/core/format.js'),
  zone: string,
): string[] {
  const when = (ms: number) => format.formatWhen(ms, now, zone);
  const seriesLines = series.map((s, index) => seriesLine(s, seriesNext[index] ?? null, now, zone));
  if (rows.length === 0) {
    return [
      ...(series.length > 0
        ? [out.dim(format.zoneHeader(zone, now)), 'Series:', ...seriesLines]
        : []),
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
    ...(signedIn ? [] : [out.yellow(SIGNED_OUT_NOTE)]),
    out.dim(format.zoneHeader(zone, now)),
    ...rows.map((row, index) => {
      const state = stateOf(row.id);
      const mark = state.state === 'on-now' ? out.green('*') : ' ';
      const id = terminalSafe(row.id).padStart(idWidth);
      const type = showType(row.type).padEnd(typeWidth);
      const words = colourOf(state)(
        state.state === 'not-shown' ? 'not shown from now on' : describeState(state, now, zone),
      );
      return `${mark} ${id}  ${type}  ${spans[index]!.padEnd(spanWidth)}  ${words}`;
    }),
    ...(series.length > 0 ? ['Series:', ...seriesLines] : []),
  ];
}

export const listCommand = commandOf('list', ({ options }) => runList(options));
