import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { explainAsAnon } from '../support/as-anon.js';
import { loadBenchData } from '../support/bench-data.js';
import { createTestDatabase, dbNow, type TestDatabase, overPostgres } from '../support/emulator.js';
import { addBenchTokens, anonCalls } from './anon-calls.js';
import { readInventory } from './anon-inventory.js';

// Issue 38: what an anon call costs is bounded by its arguments, measured over the bench's
// largest data (10^6 entries, 10^3 series of which 100 live, 64 profiles) with the extreme
// arguments each entry of the inventory allows. Here the measure is deterministic: the shared
// buffers a call reads (EXPLAIN (ANALYZE, BUFFERS) as anon), held to the bound docs/security.md
// writes beside the entry. The time bound (50 ms) is tests/security/anon-load.test.ts, in the
// `timed` project. On PostgreSQL, the database the bound is about.

describe('what each call anon may make costs, at 10^6 entries and 10^3 series (PostgreSQL)', () => {
  let database: TestDatabase;
  let emulator: RunningEmulator;
  let client: pg.Client;
  const inventory = readInventory();

  beforeAll(async () => {
    database = await createTestDatabase();
    emulator = await startEmulator({ port: 0, ...overPostgres(database.url) });
    await loadBenchData(emulator, await dbNow(emulator));
    await addBenchTokens(emulator);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 900_000);
  afterAll(async () => {
    await client?.end();
    await emulator?.stop();
    await database?.drop();
  });

  it('has an extreme call for every entry of the inventory, and none for anything else', async () => {
    const calls = anonCalls(await dbNow(emulator));
    expect(Object.keys(calls).sort()).toEqual(inventory.map((e) => e.name).sort());
  });

  it.each(inventory.map((e) => [e.name, e] as const))(
    '%s reads no more buffers than docs/security.md allows it',
    async (_name, entry) => {
      for (const call of anonCalls(await dbNow(emulator))[entry.name] ?? []) {
        await explainAsAnon(client, call.sql); // warm-up: plans and catalog caches
        const { buffers } = await explainAsAnon(client, call.sql);
        expect(buffers, `${entry.name}, ${call.label}`).toBeLessThanOrEqual(entry.buffers);
      }
    },
  );
});
