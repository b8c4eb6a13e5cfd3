import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainAs } from '../support/as-caller.js';
import { startCallerBench, type CallerBench } from '../support/caller-bench.js';
import { dbNow } from '../support/emulator.js';
import { callerCalls } from './caller-calls.js';
import { readInventory } from './caller-inventory.js';

// What every call an API caller may make costs is bounded by its arguments and by the limits of
// what a card holds (docs/security.md, "Limits"), measured over the bench's largest data (the card
// main: 10^6 entries, 10^3 series of which 100 live, 50 profiles, 49 tokens; cards at their limits
// of live series, of series in force and of cards made) with the extreme arguments each entry of
// the inventory allows, each call made as the caller that may make it. The measure is
// deterministic: the shared buffers a call reads (EXPLAIN (ANALYZE, BUFFERS) as that caller), held
// to the bound docs/security.md writes beside the entry. The visitors' side is visitor-load.test.ts's
// (what they are answered during the costliest call's flood) and the bench's (the time it costs
// them, docs/performance.md). On PostgreSQL.

describe('what each call an API caller may make costs, at the limits (PostgreSQL)', () => {
  let bench: CallerBench;
  const inventory = readInventory();

  beforeAll(async () => {
    bench = await startCallerBench();
  }, 900_000);
  afterAll(() => bench?.stop());

  it('has an extreme call for every entry of the inventory, and none for anything else', async () => {
    const calls = callerCalls(await dbNow(bench.emulator), bench.ids);
    expect(Object.keys(calls).sort()).toEqual(inventory.map((e) => e.name).sort());
  });

  it.each(inventory.map((e) => [e.name, e] as const))(
    '%s reads no more buffers than docs/security.md allows it',
    async (_name, entry) => {
      const { emulator, client, ids, apiCaller } = bench;
      for (const call of callerCalls(await dbNow(emulator), ids)[entry.name] ?? []) {
        await explainAs(client, apiCaller(call.as), call.sql); // warm-up: plans and caches
        const { buffers } = await explainAs(client, apiCaller(call.as), call.sql);
        expect(buffers, `${entry.name}, ${call.label}`).toBeLessThanOrEqual(entry.buffers);
      }
    },
  );
});
