import { ApiError } from '../core/errors.js';
import { parseStatus, type CardStatus } from '../core/lookup.js';
import { isWellFormed, narrowRow } from '../core/rules.js';
import type { NamecardRow } from '../core/types.js';
import { isSeriesRow, type SeriesRow, type SeriesRule, type SeriesStop } from '../core/series.js';
import { cardIdOf } from './cards.js';
import { toError, type DataClient } from './errors.js';

// The owner's calls for weekly series through supabase-js: set one (with the status after it)
// and read them with their stopped occurrences. Cancel is `cancelEntry` (data.ts): ids are
// shared, so `namecard_cancel` takes an entry's or a series' id.

/** A stored series row with its `type` narrowed; times as `HH:MM`. */
function readSeries(row: SeriesRow): SeriesRow {
  return {
    ...narrowRow(row),
    start_time: row.start_time.slice(0, 5),
    end_time: row.end_time.slice(0, 5),
    stopped_at: row.stopped_at == null ? null : Number(row.stopped_at),
  };
}

/**
 * Stores a weekly series and learns what visitors get afterwards, in one request
 * (`public.namecard_set_series` through `/rest/v1/rpc`: the caller's role on the card is checked
 * first, then the table's checks apply).
 *
 * @param client a supabase-js client of an editor or owner (or an editor token)
 * @param series the series to store
 * @param card the card's slug
 * @returns the series as stored (with its `id`, which `cancel` takes) and the status after it
 * @throws ApiError (42501 non-editor, PT404 `no such card`, 22023 unknown zone, 23514 bad
 *   form, 23503 unknown profile); NetworkError when unreachable
 */
export async function setSeries(
  client: DataClient,
  series: SeriesRule,
  card: string,
): Promise<{ series: SeriesRow; status: CardStatus }> {
  const result = await client.rpc('namecard_set_series', { ...series, card });
  if (result.error) throw toError(client, result);
  const answer = result.data as Record<string, unknown> | null;
  if (!answer || !isSeriesRow(answer.series)) {
    throw new ApiError(result.status, 'no_row', 'The server did not return the stored series');
  }
  return { series: readSeries(answer.series), status: parseStatus(answer) };
}

/**
 * The card's series, newest first, and the occurrences stopped by "end now"; its members read
 * them.
 *
 * @param client a supabase-js client of a member (or a card token)
 * @param card the card's slug
 * @throws ApiError (PT404 `no such card`); NetworkError when unreachable
 */
export async function listSeries(
  client: DataClient,
  card: string,
): Promise<{ series: SeriesRow[]; stops: SeriesStop[] }> {
  const cardId = await cardIdOf(client, card);
  const [rows, stops] = await Promise.all([
    client
      .from('namecard_series')
      .select('id,type,weekdays,start_time,end_time,time_zone,first_date,last_date,stopped_at')
      .eq('card_id', cardId)
      .order('id', { ascending: false })
      .limit(1000),
    client
      .from('namecard_series_stop')
      .select('series_id,occurrence_start,stopped_at')
      .eq('card_id', cardId)
      .limit(10000),
  ]);
  if (rows.error) throw toError(client, rows);
  if (stops.error) throw toError(client, stops);
  return {
    series: (rows.data as unknown[]).filter(isSeriesRow).map(readSeries),
    stops: (stops.data as SeriesStop[]).map((s) => ({
      series_id: Number(s.series_id),
      occurrence_start: Number(s.occurrence_start),
      stopped_at: Number(s.stopped_at),
    })),
  };
}

/** One occurrence as the server expands it: an entry for the rule, with its series' id. */
export type ServerOccurrence = NamecardRow & {
  stamp_start: number;
  /** Epoch ms: the end the series gives it (`stamp_end` is earlier once it was stopped). */
  planned_end: number;
  series: true;
};

/**
 * The card's series' occurrences in force some time in `[from, to)`, as the server expands them
 * (`public.namecard_occurrences`, by PostgreSQL's time-zone rules, each cut where "end now" or
 * the series' cancellation stopped it): rows for the one rule, newest id wins. No Temporal here,
 * so /manage's first draw can use them.
 *
 * @param client a supabase-js client of a member (or a card token)
 * @param card the card's slug
 * @param from epoch ms, inclusive
 * @param to epoch ms, exclusive
 * @throws ApiError (PT404 `no such card`); NetworkError when unreachable
 */
export async function listOccurrences(
  client: DataClient,
  card: string,
  from: number,
  to: number,
): Promise<ServerOccurrence[]> {
  const result = await client.rpc('namecard_occurrences', {
    card,
    from_ms: Math.floor(from),
    to_ms: Math.ceil(to),
  });
  if (result.error) throw toError(client, result);
  if (!Array.isArray(result.data)) {
    throw new ApiError(
      result.status,
      'invalid_response',
      'The server answered no list of occurrences',
    );
  }
  return (result.data as Record<string, unknown>[]).filter(isWellFormed).map((row) => ({
    ...narrowRow(row),
    id: Number(row.id),
    stamp_start: Number(row.stamp_start),
    stamp_end: Number(row.stamp_end),
    planned_end: Number(row.planned_end),
    series: true,
  }));
}
