import type { RunningEmulator } from '../../emulator/index.js';

// Visit counts stored straight in the database (as its owner, past the counting function), for
// a test to read them back through a face: 15-minute buckets of public.namecard_visit with the
// running totals the counting function keeps.

type Database = Pick<RunningEmulator, 'query'>;

/** The length of a bucket, ms. */
export const VISIT_BUCKET_MS = 900_000;

/** Counts of one profile and channel at one instant, epoch ms (rounded down to its bucket). */
export interface StoredVisits {
  at: number;
  type: string;
  via: 'qr' | 'nfc' | 'link';
  visits: number;
}

/**
 * Replaces the card's visit counts with `counts`, each in its bucket, and sets the running totals
 * (per profile and channel, in bucket order) as the counting function keeps them.
 *
 * @param card the card's slug (default main)
 */
export async function storeVisits(
  db: Database,
  counts: readonly StoredVisits[],
  card = 'main',
): Promise<void> {
  const [row] = await db.query<{ id: string | number }>(
    'select id from public.namecard_card where slug = $1',
    [card],
  );
  const cardId = Number(row!.id);
  await db.query('delete from public.namecard_visit where card_id = $1', [cardId]);
  for (const c of counts) {
    await db.query(
      `insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
       values ($1, $2, $3, $4, $5, $5)`,
      [cardId, c.at - (c.at % VISIT_BUCKET_MS), c.type, c.via, c.visits],
    );
  }
  await db.query(
    `update public.namecard_visit as v set running = s.running
       from (
         select bucket, type, via,
           sum(visits) over (partition by type, via order by bucket) as running
         from public.namecard_visit where card_id = $1
       ) as s
       where v.card_id = $1 and (v.bucket, v.type, v.via) = (s.bucket, s.type, s.via)`,
    [cardId],
  );
}
