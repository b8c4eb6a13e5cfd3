import {
  listOccurrences,
  listSeries,
  type ServerOccurrence,
} from '../../../shared/supabase/series.js';
import type { DataClient } from '../../../shared/supabase/data.js';

/**
 * The occurrences of the card's weekly series in force some time in `[from, to)`, for the page's
 * timeline. The first card's come from the server's expansion (`namecard_occurrences`); the
 * database has no such function for another card yet (only the service may call
 * `namecard_card_occurrences`), so another card's series are read (its members may) and expanded
 * here by the same rule in TypeScript (shared/calendar/series.ts, which a property test keeps
 * equal to the database's), loaded only then: the first card's page draws without Temporal.
 *
 * @param card the card's slug, or undefined for the first card
 * @param from epoch ms, inclusive
 * @param to epoch ms, exclusive
 */
export async function cardOccurrences(
  client: DataClient,
  card: string | undefined,
  from: number,
  to: number,
): Promise<ServerOccurrence[]> {
  if (card === undefined) return listOccurrences(client, from, to);
  const [{ occurrences }, { series, stops }] = await Promise.all([
    import('../../../shared/calendar/series.js'),
    listSeries(client, card),
  ]);
  return occurrences(series, stops, from, to);
}
