import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { fetchActiveEntry } from '../../shared/core/lookup.js';
import { explainAs, requestHeadersOf } from '../support/as-caller.js';
import { startCallerBench, type CallerBench } from '../support/caller-bench.js';
import { dbNow } from '../support/emulator.js';
import { callerCalls, unchangingEntries, type CallerCall } from './caller-calls.js';
import { readInventory } from './caller-inventory.js';

// Visitors while a caller floods the API, in the `timed` project (vitest.config.ts: it runs last
// and alone, so that no other test loads the machine meanwhile), on PostgreSQL over the bench's
// largest data, through PostgREST's one pool as on hosted Supabase (no connections of the
// visitors' own): while 20 clients (the flood the visitors' goal names) send the costliest call docs/security.md's inventory bounds
// that changes nothing (so that every call of the flood costs what the first did), with its
// extreme arguments and as the caller that may make it (a card token's call carries
// x-namecard-token with the anon key), every visitor who opens /go of main or of another card is
// answered, with what the card's lookup answers. How much the flood slows them is the bench's to
// measure (bench/anon-flood.ts, docs/performance.md).

const FLOODERS = 20;
const FLOOD_SECONDS = 15;
/** The cards visitors open: a bare /go/ (main) and another card's link (/go/?c=busy). */
const VISITED = [MAIN_CARD, 'busy'] as const;
/** Only a guard against a request that never ends: how long a lookup takes is not held here. */
const HANG_GUARD_MS = 60_000;

/** What /go is answered for a card: the entry in force and its destination, or none. */
type GoAnswer = Record<'id' | 'type' | 'stamp_start' | 'stamp_end' | 'url', unknown> | null;

const goAnswer = (row: Record<string, unknown> | null | undefined): GoAnswer =>
  row
    ? {
        id: row.id,
        type: row.type,
        stamp_start: row.stamp_start ?? null,
        stamp_end: row.stamp_end,
        url: row.url ?? null,
      }
    : null;

describe('visitors while a caller floods the costliest bounded call that changes nothing (PostgreSQL)', () => {
  let bench: CallerBench;

  beforeAll(async () => {
    bench = await startCallerBench();
  }, 900_000);
  afterAll(() => bench?.stop());

  /** What the card's lookup answers now, read by the superuser beside PostgREST's pool. */
  async function lookupNow(card: string): Promise<GoAnswer> {
    const [row] = await bench.emulator.query<{ rows: Record<string, unknown>[] }>(
      `select coalesce(json_agg(g), '[]') as rows from public.namecard_go($1) as g`,
      [card],
    );
    return goAnswer(row!.rows[0]);
  }

  /**
   * The costliest call a caller may send over HTTP of the inventory's bounded entries that change
   * nothing, with its extreme arguments: the most shared buffers it reads, as
   * caller-cost.test.ts measures them.
   */
  async function costliestCall(): Promise<{ entry: string; call: CallerCall; buffers: number }> {
    const { emulator, client, ids, apiCaller } = bench;
    const bounded = readInventory().filter((e) => e.bounded);
    const unchanging = await unchangingEntries(
      emulator,
      bounded.map((e) => e.name),
    );
    const calls = callerCalls(await dbNow(emulator), ids);
    const measured: { entry: string; call: CallerCall; buffers: number }[] = [];
    for (const entry of bounded.filter((e) => unchanging.has(e.name))) {
      for (const call of (calls[entry.name] ?? []).filter((c) => c.http)) {
        await explainAs(client, apiCaller(call.as), call.sql); // warm-up: plans and caches
        const { buffers } = await explainAs(client, apiCaller(call.as), call.sql);
        measured.push({ entry: entry.name, call, buffers });
      }
    }
    expect(measured.length).toBeGreaterThan(3);
    return measured.sort((a, b) => b.buffers - a.buffers)[0]!;
  }

  it(`answers every visitor of main and of another card as its lookup does while ${FLOODERS} clients send the costliest bounded call`, async () => {
    const { emulator, ids, apiCaller } = bench;
    const costliest = await costliestCall();
    // Built again at the flood's clock: the earliest instant a caller may ask about moves on.
    const call = callerCalls(await dbNow(emulator), ids)[costliest.entry]!.find(
      (c) => c.label === costliest.call.label,
    )!;
    const { path, method, body } = call.http!;
    const url = `${emulator.url}/rest/v1/${path}`;
    const headers = requestHeadersOf(apiCaller(call.as));
    const alone = await fetch(url, {
      method,
      headers: { apikey: emulator.anonKey, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await alone.arrayBuffer();
    expect(alone.status, `${costliest.entry}, ${call.label}`).toBe(200);

    // The flooding clients in a worker thread (the bench's), so that their requests never wait
    // on the visitors' lookups made here.
    const worker = new Worker(new URL('../../bench/anon-flood-clients.mjs', import.meta.url), {
      workerData: {
        url,
        method,
        body,
        headers,
        anonKey: emulator.anonKey,
        clients: FLOODERS,
        seconds: FLOOD_SECONDS,
      },
    });
    let flooding = true;
    const done = (
      once(worker, 'message') as Promise<
        [{ sent: number; byStatus: Record<string, number>; socketErrors: number }]
      >
    ).finally(() => {
      flooding = false;
    });

    // Each visitor's answer must be what the card's lookup answered just before or just after
    // it (both, but for an entry or occurrence starting or ending in between).
    const visits: { card: string; answer: GoAnswer | string; expected: GoAnswer[] }[] = [];
    for (let turn = 0; flooding; turn++) {
      const card = VISITED[turn % VISITED.length]!;
      const before = await lookupNow(card);
      let answer: GoAnswer | string;
      try {
        answer = goAnswer(
          (await fetchActiveEntry({
            supabaseUrl: emulator.url,
            anonKey: emulator.anonKey,
            card,
            timeoutMs: HANG_GUARD_MS,
          })) as Record<string, unknown> | null,
        );
      } catch (error) {
        answer = String(error);
      }
      visits.push({ card, answer, expected: [before, await lookupNow(card)] });
    }
    const [{ sent, byStatus, socketErrors }] = await done;
    await worker.terminate();

    // The flood happened: every client had calls answered, each doing the call's whole work.
    const flood = `flood of ${costliest.entry} (${call.label}): ${sent} sent, ${JSON.stringify(byStatus)}, ${socketErrors} socket errors`;
    expect(byStatus[200] ?? 0, flood).toBeGreaterThan(FLOODERS);
    // Visitors of both cards came meanwhile, and each was answered what the card's lookup
    // answers: none failed, none got another answer.
    for (const card of VISITED) {
      expect(visits.filter((v) => v.card === card).length, card).toBeGreaterThanOrEqual(3);
    }
    const wrong = visits.filter(
      (v) => !v.expected.some((e) => JSON.stringify(e) === JSON.stringify(v.answer)),
    );
    expect(wrong, flood).toEqual([]);
  }, 600_000);
});
