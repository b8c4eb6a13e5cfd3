import pg from 'pg';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import {
  BENCH_PEOPLE,
  addCallerData,
  type Caller,
  type CallerIds,
} from '../security/caller-calls.js';
import type { ApiCaller } from './as-caller.js';
import { loadBenchData } from './bench-data.js';
import { createTestDatabase, dbNow, overPostgres, type TestDatabase } from './emulator.js';

/** The bench's largest data with every caller's, on PostgreSQL behind PostgREST. */
export interface CallerBench {
  emulator: RunningEmulator;
  /** A superuser connection to the emulator's database, for EXPLAIN as a caller (explainAs). */
  client: pg.Client;
  /** The rows the calls name (callerCalls' ids). */
  ids: CallerIds;
  /** A call's caller as explainAs runs it (a person by their user id). */
  apiCaller(as: Caller): ApiCaller;
  /** Closes the connection, stops the emulator and drops its database. */
  stop(): Promise<void>;
}

/**
 * Starts an emulator over a new PostgreSQL database (PostgREST answering `/rest/v1`) and fills it
 * with the bench's largest data (loadBenchData) and what every caller's extreme calls need
 * (addCallerData). Takes a minute or two.
 * @throws when the database cannot be made or filled, after undoing what was started
 */
export async function startCallerBench(): Promise<CallerBench> {
  let database: TestDatabase | undefined;
  let emulator: RunningEmulator | undefined;
  let client: pg.Client | undefined;
  const stop = async () => {
    await client?.end();
    await emulator?.stop();
    await database?.drop();
  };
  try {
    database = await createTestDatabase();
    emulator = await startEmulator({ port: 0, ...overPostgres(database.url) });
    const now = await dbNow(emulator);
    await loadBenchData(emulator, now);
    const { people, ids } = await addCallerData(emulator, now);
    const connection = new pg.Client({ connectionString: database.url });
    await connection.connect();
    client = connection;
    return {
      emulator,
      client,
      ids,
      apiCaller: (as) =>
        as.kind === 'person'
          ? {
              kind: 'person',
              userId: as.email === BENCH_PEOPLE.owner ? people.owner : people.person,
            }
          : as,
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
