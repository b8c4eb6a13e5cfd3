import pg from 'pg';
import { inject } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.js';

export type DbKind = 'pglite' | 'postgres';

/**
 * The emulator's options for the PostgreSQL database at `databaseUrl`, with the real PostgREST
 * answering `/rest/v1`, as every PostgreSQL run of the tests and the bench has it.
 */
export const overPostgres = (databaseUrl: string) => ({
  databaseUrl,
  rest: 'postgrest' as const,
});

/** Every database the emulator supports; suites run `describe.each(DB_KINDS)`. */
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];

/**
 * Sign-in limits for tests, which sign in far more often from 127.0.0.1 than a person
 * would; a test of the limits themselves passes its own `rateLimits`.
 */
export const TEST_RATE_LIMITS = {
  signIn: 100_000,
  tokenRefresh: 100_000,
  visits: 100_000,
  invitations: 100_000,
  tokens: 100_000,
};

/**
 * Starts an emulator on a free port of 127.0.0.1 over a fresh database (sign-in
 * limits raised to TEST_RATE_LIMITS unless `opts.rateLimits` is given):
 * in-memory PGlite with the emulator's own REST layer, or a new uniquely named database in the
 * PostgreSQL server of `inject('databaseUrl')` (see global-setup.ts) with the real PostgREST
 * answering `/rest/v1` (unless `opts.rest` says otherwise); `stop()` stops PostgREST and drops
 * the database again.
 * @throws when the database cannot be created or the emulator does not start.
 */
export async function startTestEmulator(
  kind: DbKind,
  opts: Partial<EmulatorOptions> = {},
): Promise<RunningEmulator> {
  const options = { rateLimits: TEST_RATE_LIMITS, ...opts, port: 0 };
  if (kind === 'pglite') return startEmulator(options);
  const database = await createTestDatabase();
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator({ ...overPostgres(database.url), ...options });
  } catch (e) {
    await database.drop().catch(() => {});
    throw e;
  }
  return {
    ...emulator,
    async stop() {
      await emulator.stop();
      await database.drop();
    },
  };
}

export interface TestDatabase {
  /** Connection string of the new database (superuser). */
  url: string;
  /** Drops the database, ending any connection still open to it. Idempotent. */
  drop(): Promise<void>;
}

/**
 * Creates an empty, uniquely named database in the PostgreSQL server of
 * `inject('databaseUrl')`.
 * @throws the server's error when it cannot be reached or the database not created.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('databaseUrl');
  const name = `namecard_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    drop() {
      dropped ??= adminQuery(serverUrl, `drop database if exists "${name}" with (force)`);
      return dropped;
    },
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The database's clock, the clock that decides what is active (`public.namecard_go`).
 * @returns epoch ms
 */
export async function dbNow(emulator: Pick<RunningEmulator, 'query'>): Promise<number> {
  const [row] = await emulator.query<{ n: string | number }>(
    'select (extract(epoch from clock_timestamp()) * 1000)::bigint as n',
  );
  return Number(row!.n);
}

/**
 * Waits until the database's clock has passed `at` (epoch ms), asking it every 100 ms: a
 * schedule test waits for the moment itself, not for a guessed span of this machine's time.
 * @throws when it has not passed within `timeoutMs` (default 30 s), with both times.
 */
export async function untilDbTime(
  emulator: Pick<RunningEmulator, 'query'>,
  at: number,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await dbNow(emulator);
    if (now > at) return;
    if (Date.now() > deadline) {
      throw new Error(
        `the database's clock did not pass ${at} within ${timeoutMs} ms (now ${now})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The card main's id as SQL, for statements a test runs as the database's owner: a fresh
 * database has the card main (the cards migration makes it), which a bare /go/ opens.
 */
export const MAIN_CARD_SQL = `(select c.id from public.namecard_card as c where c.slug = 'main')`;
