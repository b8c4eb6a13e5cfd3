import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { dbNow } from './emulator.js';

// Entries stored straight in the database (as its owner, past the API and its checks), for a
// test to set up what visitors get before it looks at a face.

type Database = Pick<RunningEmulator, 'query'>;

/**
 * The id of a card by its slug, which a row stored straight in the database names in `card_id`.
 *
 * @param slug the card's slug (default `main`, the card a bare /go/ opens)
 */
export async function cardRowId(db: Database, slug: string = MAIN_CARD): Promise<number> {
  const [row] = await db.query<{ id: string | number }>(
    'select id from public.namecard_card where slug = $1',
    [slug],
  );
  if (!row) throw new Error(`cardRowId: no card ${slug}`);
  return Number(row.id);
}

/**
 * Stores an entry in public.namecard with exact stamps.
 *
 * @param start epoch ms, or null: in force from when it is stored
 * @param end epoch ms
 * @param card the card's slug (default `main`, the card a bare /go/ opens)
 * @returns its id
 */
export async function insertEntry(
  db: Database,
  type: string,
  start: number | null,
  end: number,
  card: string = MAIN_CARD,
): Promise<number> {
  const [row] = await db.query<{ id: string | number }>(
    `insert into public.namecard (card_id, type, stamp_start, stamp_end)
     select id, $1, $2, $3 from public.namecard_card where slug = $4 returning id`,
    [type, start, end, card],
  );
  if (!row) throw new Error(`insertEntry: no card ${card}`);
  return Number(row.id);
}

/**
 * Stores an entry starting `startIn` ms and ending `endIn` ms after the database's now (the
 * clock that decides what is active).
 *
 * @param startIn ms from now, or null: in force from when it is stored
 * @returns its id
 */
export async function insertFromDbNow(
  db: Database,
  type: string,
  startIn: number | null,
  endIn: number,
): Promise<number> {
  const now = await dbNow(db);
  return insertEntry(db, type, startIn === null ? null : now + startIn, now + endIn);
}
