// Measurement 5: visitors first. The visitor's lookup (`fetchActiveEntry`, one GET of
// namecard_go) timed one request at a time, first on a quiet emulator, then while 16
// anonymous clients post 1 MiB bodies to /rest/v1/namecard for 10 s (such a flood
// once pushed lookups to p50 1.48 s, past /go's 4 s time-out at worst). The flooding
// clients run in a worker thread (flood-clients.mjs), the lookups on this thread, the
// emulator in its own process.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { MAIN_CARD } from '../shared/core/cards.js';
import { fetchActiveEntry } from '../shared/core/lookup.js';
import type { DbKind } from './emulator.js';
import type { FilledTable, Fleet } from './fleet.js';
import { msSince, quantile, round } from './stats.js';

export interface FloodSettings {
  rows: number;
  clients: number;
  /** Size of each posted body, bytes. */
  bodyBytes: number;
  seconds: number;
}

export interface LookupFigures {
  /** Lookups completed. */
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Lookups that failed (error answer, time-out, wrong row). */
  failures: number;
}

export interface FloodResult extends FloodSettings {
  db: DbKind;
  /** The same lookups with no flood, for comparison. */
  quiet: LookupFigures;
  flood: LookupFigures;
  /** The flooding posts: answers by status, and posts that ended in a socket error. */
  posts: { sent: number; byStatus: Record<string, number>; socketErrors: number };
}

/** Times lookups one at a time until `until()` is true. */
async function lookups(table: FilledTable, until: () => boolean): Promise<LookupFigures> {
  const samples: number[] = [];
  let failures = 0;
  while (!until()) {
    const start = process.hrtime.bigint();
    try {
      const entry = await fetchActiveEntry({
        supabaseUrl: table.emulator.url,
        anonKey: table.emulator.anonKey,
        card: MAIN_CARD,
        timeoutMs: 10_000,
      });
      if (entry !== null) throw new Error(`unexpected entry ${JSON.stringify(entry)}`);
      samples.push(msSince(start));
    } catch {
      failures++;
    }
  }
  return {
    count: samples.length,
    p50: round(quantile(samples, 0.5)),
    p99: round(quantile(samples, 0.99)),
    max: round(Math.max(...samples)),
    failures,
  };
}

export async function measureFlood(
  fleet: Fleet,
  settings: FloodSettings,
  log: (line: string) => void,
): Promise<FloodResult> {
  const table = await fleet.table(settings.rows);
  const seconds = settings.seconds;
  // Warm-up, then the quiet figures over the same duration.
  let deadline = Date.now() + 1000;
  await lookups(table, () => Date.now() > deadline);
  deadline = Date.now() + seconds * 1000;
  const quiet = await lookups(table, () => Date.now() > deadline);
  log(`${fleet.db} flood: quiet lookups p50 ${quiet.p50} ms, p99 ${quiet.p99} ms`);

  const worker = new Worker(new URL('./flood-clients.mjs', import.meta.url), {
    workerData: {
      url: `${table.emulator.url}/rest/v1/namecard`,
      anonKey: table.emulator.anonKey,
      clients: settings.clients,
      bodyBytes: settings.bodyBytes,
      seconds,
    },
  });
  const posted = once(worker, 'message') as Promise<[FloodResult['posts']]>;
  deadline = Date.now() + seconds * 1000;
  const flood = await lookups(table, () => Date.now() > deadline);
  const [{ sent, byStatus, socketErrors }] = await posted;
  await worker.terminate();
  log(
    `${fleet.db} flood: lookups p50 ${flood.p50} ms, p99 ${flood.p99} ms, max ${flood.max} ms during ${sent} posts (${JSON.stringify(byStatus)}, ${socketErrors} socket errors)`,
  );
  return {
    db: fleet.db,
    ...settings,
    quiet,
    flood,
    posts: { sent, byStatus, socketErrors },
  };
}
