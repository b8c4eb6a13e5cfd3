// Measurement 4: the lookup request under load, 50 connections for 10 s (autocannon, in
// this process; the emulator runs in its own). Bounded: each run stops after its duration
// and after at most `maxRequests` requests.
import autocannon from 'autocannon';
import { MAIN_CARD } from '../shared/core/cards.js';
import { GO_FUNCTION, lookupUrl } from '../shared/core/lookup.js';
import type { DbKind } from './emulator.js';
import type { Fleet } from './fleet.js';
import { median } from './stats.js';

export interface LoadSettings {
  rows: number;
  connections: number;
  seconds: number;
  runs: number;
}

export interface LoadRun {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers plus socket errors and time-outs. */
  errors: number;
  non2xx: number;
  socketErrors: number;
  timeouts: number;
  requests: number;
}

export interface LoadResult extends LoadRun {
  db: DbKind;
  rows: number;
  connections: number;
  seconds: number;
  runs: LoadRun[];
}

/** Far above what one emulator serves in a run; only a guard against a runaway loop. */
const MAX_REQUESTS_PER_SECOND = 100_000;

async function loadOnce(url: string, anonKey: string, settings: LoadSettings): Promise<LoadRun> {
  const result = await autocannon({
    url,
    connections: settings.connections,
    duration: settings.seconds,
    // Not `amount`: it would override `duration`. This one caps the count and keeps the time.
    maxOverallRequests: settings.seconds * MAX_REQUESTS_PER_SECOND,
    timeout: 10,
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${anonKey}`,
      accept: 'application/json',
      'accept-profile': 'public',
    },
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    non2xx: result.non2xx,
    socketErrors: result.errors,
    timeouts: result.timeouts,
    requests: result.requests.total,
  };
}

export async function measureLoad(
  fleet: Fleet,
  settings: LoadSettings,
  log: (line: string) => void,
): Promise<LoadResult> {
  const table = await fleet.table(settings.rows);
  // The product's lookup URL: the same query every time, as many visitors in one second.
  const url = lookupUrl(table.emulator.url, table.emulator.anonKey, GO_FUNCTION, MAIN_CARD);
  const runs: LoadRun[] = [];
  for (let i = 0; i < settings.runs; i++) {
    const run = await loadOnce(url, table.emulator.anonKey, settings);
    runs.push(run);
    log(
      `${fleet.db} load run ${i + 1}: ${run.requestsPerSecond.toFixed(0)} req/s, p99 ${run.p99} ms, errors ${run.errors}`,
    );
  }
  const med = (pick: (r: LoadRun) => number) => median(runs.map(pick));
  return {
    db: fleet.db,
    rows: settings.rows,
    connections: settings.connections,
    seconds: settings.seconds,
    requestsPerSecond: med((r) => r.requestsPerSecond),
    p50: med((r) => r.p50),
    p99: med((r) => r.p99),
    // Errors are summed, not a median: any error in any run misses the goal.
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    socketErrors: runs.reduce((sum, r) => sum + r.socketErrors, 0),
    timeouts: runs.reduce((sum, r) => sum + r.timeouts, 0),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    runs,
  };
}
