import type { RunningEmulator } from '../../emulator/index.js';
import { dbNow } from './emulator.js';

// Entries stored straight in the database (as its owner, past the API and its checks), for a
// test to set up what visitors get before it looks at a face.

type Database = Pick<RunningEmulator, 'query'>;

/**
 * Stores an entry in public.namecard with exact stamps.
 *
 * @param start epoch ms, or null: in force from when it is stored
 * @param end epoch ms
 * @param card the card's slug (default main)
 * @returns its id
 */
export async function insertEntry(
  db: Database,
  type: string,
  start: number | null,
  end: number,
  card = 'main',
): Promise<number> {
  const [row] = await db.query<{ id: string | number }>(
    `insert into public.namecard (card_id, type, stamp_start, stamp_end)
     select c.id, $1, $2, $3 from public.namecard_card as c where c.slug = $4
     returning id`,
    [type, start, end, card],
  );
  return Number(row!.id);
}

/**
 * Stores an entry starting `startIn` ms and ending `endIn` ms after the database's now (the
 * clock that decides what is active).
 *
 * @param startIn ms from now, or null: in force from when it is stored
 * @param card the card's slug (default main)
 * @returns its id
 */
export async function insertFromDbNow(
  db: Database,
  type: string,
  startIn: number | null,
  endIn: number,
  card = 'main',
): Promise<number> {
  const now = await dbNow(db);
  return insertEntry(db, type, startIn === null ? null : now + startIn, now + endIn, card);
}
