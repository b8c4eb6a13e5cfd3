// One emulator per table size and database, filled once and kept for every measurement
// of the run that needs that size: sizes are then measured side by side (interleaved
// rounds) instead of one after another, which keeps drift on a noisy machine out of the
// ratios.
import { spawnEmulator, type BenchEmulator, type DbKind } from './emulator.js';
import { freshDatabase, type PgServer } from './postgres.js';
import { msSince } from './stats.js';
import { MAIN_CARD_SQL } from '../tests/support/emulator.js';

/** An emulator whose `public.namecard` holds `rows` entries, all expired. */
export interface FilledTable {
  emulator: BenchEmulator;
  rows: number;
  /** Time to insert the rows and ANALYZE, ms. */
  fillMs: number;
  /** Whether an active entry (the newest row, type photo, ending in 7 days) exists now. */
  active: boolean;
}

const MINUTE = 60_000;

/**
 * Fills `public.namecard` with `rows` entries in one statement as superuser: ids in
 * insertion order, stamp_end rising with id and all in the past (the newest ended an
 * hour ago), types mixed. `created_by` is given as null so the default (auth.uid()) is
 * not evaluated a million times.
 */
export async function fill(
  emulator: BenchEmulator,
  rows: number,
  now = Date.now(),
): Promise<number> {
  const start = process.hrtime.bigint();
  await emulator.query(
    `insert into public.namecard (card_id, stamp_end, type, created_by)
     select ${MAIN_CARD_SQL}, $1::bigint - ($2::bigint - n + 60) * ${MINUTE},
            case when n % 3 = 0 then 'photo' else 'main' end,
            null
     from generate_series(1, $2::bigint) as n`,
    [now, rows],
  );
  await emulator.query('analyze public.namecard');
  return msSince(start);
}

/** Adds the active entry (or removes it again), then ANALYZE. */
export async function setActive(table: FilledTable, on: boolean, now = Date.now()): Promise<void> {
  if (table.active === on) return;
  if (on) {
    await table.emulator.query(
      `insert into public.namecard (card_id, stamp_end, type, created_by) values (${MAIN_CARD_SQL}, $1, 'photo', null)`,
      [now + 7 * 24 * 60 * MINUTE],
    );
  } else {
    await table.emulator.query(`delete from public.namecard where stamp_end > $1`, [now]);
  }
  await table.emulator.query('analyze public.namecard');
  table.active = on;
}

/** Lazily started, filled emulators for one database kind; stopped by bench/cleanup.ts. */
export class Fleet {
  private readonly tables = new Map<string, Promise<FilledTable>>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly stops: (() => Promise<void>)[] = [];

  constructor(
    readonly db: DbKind,
    private readonly server?: PgServer,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /**
   * The emulator holding `rows` expired entries (started and filled on first use, one at a
   * time). `tag` keeps tables apart that the same size is wanted for twice, e.g. the CLI's
   * table, into which `namecard set` inserts. `filler` fills it otherwise than {@link fill}
   * (the cards' table: bench/cards.ts), answering the time it took, ms.
   */
  table(
    rows: number,
    tag = '',
    filler?: (emulator: BenchEmulator, rows: number) => Promise<number>,
  ): Promise<FilledTable> {
    const key = `${rows}${tag}`;
    let table = this.tables.get(key);
    if (!table) {
      table = this.queue.then(() => this.start(rows, key, filler));
      this.queue = table.catch(() => {});
      this.tables.set(key, table);
    }
    return table;
  }

  private async start(
    rows: number,
    key: string,
    filler: (emulator: BenchEmulator, rows: number) => Promise<number> = fill,
  ): Promise<FilledTable> {
    const started = process.hrtime.bigint();
    let databaseUrl: string | undefined;
    if (this.db === 'postgres' && this.server) {
      const database = await freshDatabase(
        this.server,
        `namecard_bench_${key.replace(/\W/g, '_')}`,
      );
      this.stops.push(database.drop);
      databaseUrl = database.url;
    }
    const emulator = await spawnEmulator(this.db, databaseUrl);
    this.stops.push(emulator.stop);
    const fillMs = await filler(emulator, rows);
    this.log(
      `${this.db}: ${rows.toLocaleString('en-US')} rows ready in ${(msSince(started) / 1000).toFixed(1)} s (fill ${(fillMs / 1000).toFixed(1)} s)`,
    );
    return { emulator, rows, fillMs, active: false };
  }

  /** Stops this fleet's emulators and drops their databases (newest first). */
  async stop(): Promise<void> {
    await this.queue;
    while (this.stops.length > 0) await this.stops.pop()?.();
    this.tables.clear();
  }
}
