import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { fetchActiveEntry } from '../../shared/core/lookup.js';
import { explainAsAnon } from '../support/as-anon.js';
import { loadBenchData } from '../support/bench-data.js';
import { createTestDatabase, dbNow, type TestDatabase, overPostgres } from '../support/emulator.js';
import { anonCalls, type AnonCall } from './anon-calls.js';
import { readInventory } from './anon-inventory.js';

// Visitors during anon's load, in the `timed` project (vitest.config.ts: it runs last and alone,
// so that no other test loads the machine while it measures), on PostgreSQL over the bench's
// largest data, through PostgREST's one pool as on hosted Supabase (no connections of the
// visitors' own): while 50 anon clients call the costliest call of docs/security.md's inventory
// again and again, with its extreme arguments, every lookup of bare /go and of /go/?c=main is
// answered within /go's own time-out (4 s; past it /go falls back to the card's snapshot). How
// much the flood slows them is the bench's to measure (bench/anon-flood.ts, docs/performance.md),
// as is the per-call bound (50 ms).

const RUNS = 5;
const FLOODERS = 50;
const FLOOD_MS = 10_000;
/** /go's time-out for its lookup (site/src/go), the bound a visitor's lookup is held to here. */
const GO_TIMEOUT_MS = 4_000;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

describe('visitors during an anon flood, at 10^6 entries and 10^3 series (PostgreSQL)', () => {
  let database: TestDatabase;
  let emulator: RunningEmulator;
  let client: pg.Client;

  /**
   * The costliest call anon may make over HTTP: each call of the inventory's bounded entries
   * with its extreme arguments, timed as the server reports it (planning and execution, median
   * of RUNS). Its 50 ms bound is the bench's to measure (bench/anon-flood.ts); the suite holds
   * the buffers each call reads (anon-cost.test.ts).
   */
  async function costliestCall(): Promise<{ entry: string; call: AnonCall; ms: number }> {
    const calls = anonCalls(await dbNow(emulator));
    const measured: { entry: string; call: AnonCall; ms: number }[] = [];
    for (const entry of readInventory().filter((e) => e.bounded)) {
      for (const call of (calls[entry.name] ?? []).filter((c) => c.http)) {
        await explainAsAnon(client, call.sql);
        const runs: number[] = [];
        for (let i = 0; i < RUNS; i++) runs.push((await explainAsAnon(client, call.sql)).ms);
        measured.push({ entry: entry.name, call, ms: median(runs) });
      }
    }
    expect(measured.length).toBeGreaterThan(10);
    return measured.sort((a, b) => b.ms - a.ms)[0]!;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    emulator = await startEmulator({ port: 0, ...overPostgres(database.url) });
    await loadBenchData(emulator, await dbNow(emulator));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 900_000);
  afterAll(async () => {
    await client?.end();
    await emulator?.stop();
    await database?.drop();
  });

  it(`answers every lookup of bare /go and /go/?c=main within /go's ${GO_TIMEOUT_MS} ms time-out while ${FLOODERS} anon clients call the costliest entry`, async () => {
    const costliest = await costliestCall();
    // Built again at the flood's clock: the earliest instant anon may ask about moves on.
    const call = anonCalls(await dbNow(emulator))[costliest.entry]!.find(
      (c) => c.label === costliest.call.label,
    )!;
    const { path, method, body } = call.http!;
    const url = `${emulator.url}/rest/v1/${path}`;
    const first = await fetch(url, {
      method,
      headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await first.arrayBuffer();
    expect(first.status, costliest.entry).toBe(200);

    // The anon clients in a worker thread (the bench's), so that their requests never delay
    // the lookups timed here.
    const worker = new Worker(new URL('../../bench/anon-flood-clients.mjs', import.meta.url), {
      workerData: {
        url,
        method,
        body,
        anonKey: emulator.anonKey,
        clients: FLOODERS,
        seconds: FLOOD_MS / 1000,
      },
    });
    const done = once(worker, 'message') as Promise<
      [{ sent: number; byStatus: Record<string, number>; socketErrors: number }]
    >;
    const deadline = Date.now() + FLOOD_MS;
    const lookups = { go: [] as number[], card: [] as number[] };
    const failures = { go: 0, card: 0 };
    for (let turn = 0; Date.now() < deadline; turn++) {
      const which = turn % 2 === 0 ? 'go' : 'card';
      const started = performance.now();
      try {
        await fetchActiveEntry({
          supabaseUrl: emulator.url,
          anonKey: emulator.anonKey,
          timeoutMs: GO_TIMEOUT_MS,
          ...(which === 'card' ? { card: 'main' } : {}),
        });
        lookups[which].push(performance.now() - started);
      } catch {
        failures[which]++;
      }
    }
    const [{ sent, byStatus, socketErrors }] = await done;
    await worker.terminate();
    // The flood happened, and every call of it was answered.
    expect(sent).toBeGreaterThan(FLOODERS);
    expect({ byStatus, socketErrors }).toEqual({ byStatus: { 200: sent }, socketErrors: 0 });
    const spread = (ms: number[]) =>
      `p50 ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms over ${ms.length}`;
    expect(lookups.go.length).toBeGreaterThan(5);
    expect(lookups.card.length).toBeGreaterThan(5);
    expect(
      failures,
      `/go ${spread(lookups.go)}; /go/?c=main ${spread(lookups.card)}; flood of ${costliest.entry}`,
    ).toEqual({ go: 0, card: 0 });
  }, 420_000);
});
