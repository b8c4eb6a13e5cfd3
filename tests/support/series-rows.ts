import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';

// Weekly series stored straight in the database (as its owner, past the API and its checks), for
// a test to set up what visitors get before it looks at a face. The table's own triggers still
// run: the weekdays, times and zone are checked, and the occurrences materialised.

type Database = Pick<RunningEmulator, 'query'>;

/** A weekly series as a test gives it. */
export interface StoredSeries {
  /** A profile's name. */
  type: string;
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  weekdays: readonly number[];
  /** `HH:MM`, local. */
  start_time: string;
  /** `HH:MM`, local; at or before the start runs past midnight. */
  end_time: string;
  /** IANA time zone. */
  time_zone: string;
  /** `YYYY-MM-DD` or null. */
  first_date?: string | null;
  /** `YYYY-MM-DD` or null. */
  last_date?: string | null;
}

/**
 * Stores a weekly series in public.namecard_series.
 *
 * @param card the card's slug (default `main`, the card a bare /go/ opens)
 * @returns its id (from the sequence entries take theirs from)
 * @throws the database's error for a series its checks refuse; an Error for an unknown card
 */
export async function insertSeries(
  db: Database,
  series: StoredSeries,
  card: string = MAIN_CARD,
): Promise<number> {
  const [row] = await db.query<{ id: string | number }>(
    `insert into public.namecard_series
       (card_id, type, weekdays, start_time, end_time, time_zone, first_date, last_date)
     select c.id, $1, $2::smallint[], $3::time, $4::time, $5, $6::date, $7::date
     from public.namecard_card as c where c.slug = $8
     returning id`,
    [
      series.type,
      `{${series.weekdays.join(',')}}`,
      series.start_time,
      series.end_time,
      series.time_zone,
      series.first_date ?? null,
      series.last_date ?? null,
      card,
    ],
  );
  if (!row) throw new Error(`insertSeries: no card ${card}`);
  return Number(row.id);
}
