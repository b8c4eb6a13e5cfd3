import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { explainAs, type ApiCaller } from '../support/as-caller.js';
import { loadBenchData } from '../support/bench-data.js';
import { createTestDatabase, dbNow, type TestDatabase, overPostgres } from '../support/emulator.js';
import {
  BENCH_PEOPLE,
  addCallerData,
  callerCalls,
  type Caller,
  type CallerIds,
} from './caller-calls.js';
import { readInventory } from './caller-inventory.js';

// What every call an API caller may make costs is bounded by its arguments and by the limits of
// what a card holds (docs/security.md, "Limits"), measured over the bench's largest data (the card
// main: 10^6 entries, 10^3 series of which 100 live, 50 profiles, 49 tokens; cards at their limits
// of live series, of series in force and of cards made) with the extreme arguments each entry of
// the inventory allows, each call made as the caller that may make it. The measure is
// deterministic: the shared buffers a call reads (EXPLAIN (ANALYZE, BUFFERS) as that caller), held
// to the bound docs/security.md writes beside the entry. The visitors' side, the time the costliest
// call's flood costs a visitor, is the bench's (docs/performance.md). On PostgreSQL.

describe('what each call an API caller may make costs, at the limits (PostgreSQL)', () => {
  let database: TestDatabase;
  let emulator: RunningEmulator;
  let client: pg.Client;
  let people: Record<keyof typeof BENCH_PEOPLE, string>;
  let ids: CallerIds;
  const inventory = readInventory();

  /** The caller as the explain sets it up. */
  const apiCaller = (as: Caller): ApiCaller =>
    as.kind === 'person'
      ? { kind: 'person', userId: as.email === BENCH_PEOPLE.owner ? people.owner : people.person }
      : as;

  beforeAll(async () => {
    database = await createTestDatabase();
    emulator = await startEmulator({ port: 0, ...overPostgres(database.url) });
    const now = await dbNow(emulator);
    await loadBenchData(emulator, now);
    ({ people, ids } = await addCallerData(emulator, now));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 900_000);
  afterAll(async () => {
    await client?.end();
    await emulator?.stop();
    await database?.drop();
  });

  it('has an extreme call for every entry of the inventory, and none for anything else', async () => {
    const calls = callerCalls(await dbNow(emulator), ids);
    expect(Object.keys(calls).sort()).toEqual(inventory.map((e) => e.name).sort());
  });

  it.each(inventory.map((e) => [e.name, e] as const))(
    '%s reads no more buffers than docs/security.md allows it',
    async (_name, entry) => {
      for (const call of callerCalls(await dbNow(emulator), ids)[entry.name] ?? []) {
        await explainAs(client, apiCaller(call.as), call.sql); // warm-up: plans and caches
        const { buffers } = await explainAs(client, apiCaller(call.as), call.sql);
        expect(buffers, `${entry.name}, ${call.label}`).toBeLessThanOrEqual(entry.buffers);
      }
    },
  );
});
