// Measurement 7: visitors during floods. Over the bench's largest data (10^6 entries, 10^3 series
// of which 100 live, 64 profiles: tests/support/bench-data.ts), every call the inventory of
// docs/security.md lets anon make is timed with its extreme arguments (tests/security/anon-calls.ts)
// over HTTP; then the visitor's lookups (`fetchActiveEntry`: bare /go's and /go/?c=main's GET of
// rpc/namecard_go, both of the card main, in turn) are timed one request at a time, first on a quiet
// emulator, then while 50 anon clients (in a worker thread) call the costliest of them again and
// again, then while a signed-in account floods its own costliest call (member-flood.ts).
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { anonCalls, type AnonCall } from '../tests/security/anon-calls.js';
import { readInventory } from '../tests/security/anon-inventory.js';
import { loadBenchData, type BenchSizes } from '../tests/support/bench-data.js';
import { spawnEmulator, type BenchEmulator, type DbKind } from './emulator.js';
import {
  measureMemberFlood,
  visitorLookups,
  type MemberFloodResult,
  type VisitorLookups,
} from './member-flood.js';
import { freshDatabase, type PgServer } from './postgres.js';
import { median, msSince, round } from './stats.js';

export interface AnonFloodSettings extends BenchSizes {
  clients: number;
  seconds: number;
}

/** One anon call's median time over HTTP (request to answer), ms. */
export interface AnonCallTime {
  entry: string;
  label: string;
  ms: number;
  status: number;
}

export interface AnonFloodResult extends AnonFloodSettings {
  db: DbKind;
  /** Every anon call with a request, slowest first. */
  calls: AnonCallTime[];
  /** The call the clients flood with (the slowest). */
  flooded: AnonCallTime;
  /** Bare /go and /go/?c=main, quiet and during the anon flood. */
  quiet: VisitorLookups;
  flood: VisitorLookups;
  /** The flooding calls: answers by status, and socket errors. */
  sent: number;
  byStatus: Record<string, number>;
  socketErrors: number;
  /** The same lookups while a signed-in account floods its costliest call (member-flood.ts). */
  member: MemberFloodResult;
}

/** Sends one anon call's request; resolves with its status. */
async function send(emulator: BenchEmulator, http: NonNullable<AnonCall['http']>) {
  const res = await fetch(`${emulator.url}/rest/v1/${http.path}`, {
    method: http.method,
    headers: {
      apikey: emulator.anonKey,
      authorization: `Bearer ${emulator.anonKey}`,
      'content-type': 'application/json',
    },
    ...(http.body === undefined ? {} : { body: JSON.stringify(http.body) }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Each bounded inventory entry's calls that have a request, timed 5 times, slowest first. */
async function timeCalls(emulator: BenchEmulator): Promise<AnonCallTime[]> {
  const [{ now }] = (await emulator.query<{ now: number }>(
    'select (extract(epoch from clock_timestamp()) * 1000)::bigint as now',
  )) as [{ now: number }];
  const calls = anonCalls(Number(now));
  const times: AnonCallTime[] = [];
  for (const entry of readInventory().filter((e) => e.bounded)) {
    for (const call of calls[entry.name] ?? []) {
      if (!call.http) continue;
      let status = await send(emulator, call.http);
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = process.hrtime.bigint();
        status = await send(emulator, call.http);
        samples.push(msSince(start));
      }
      times.push({ entry: entry.name, label: call.label, ms: round(median(samples)), status });
    }
  }
  return times.sort((a, b) => b.ms - a.ms);
}

/** The flood: `settings.clients` anon clients calling `call` while lookups are timed. */
async function flood(emulator: BenchEmulator, call: AnonCall, settings: AnonFloodSettings) {
  const worker = new Worker(new URL('./anon-flood-clients.mjs', import.meta.url), {
    workerData: {
      url: `${emulator.url}/rest/v1/${call.http!.path}`,
      method: call.http!.method,
      body: call.http!.body,
      anonKey: emulator.anonKey,
      clients: settings.clients,
      seconds: settings.seconds,
    },
  });
  const done = once(worker, 'message') as Promise<
    [{ sent: number; byStatus: Record<string, number>; socketErrors: number }]
  >;
  const deadline = Date.now() + settings.seconds * 1000;
  const figures = await visitorLookups(emulator, () => Date.now() > deadline);
  const [posted] = await done;
  await worker.terminate();
  return { figures, ...posted };
}

/**
 * Loads the data into a fresh emulator (a database of its own on `server` for PostgreSQL),
 * times every anon call, then the visitor's lookups quiet and under the flood of the slowest.
 */
export async function measureAnonFlood(
  db: DbKind,
  server: PgServer | undefined,
  settings: AnonFloodSettings,
  log: (line: string) => void,
): Promise<AnonFloodResult> {
  const database = server ? await freshDatabase(server, 'namecard_bench_anon') : undefined;
  const emulator = await spawnEmulator(db, database?.url);
  try {
    const started = process.hrtime.bigint();
    const [{ now }] = (await emulator.query<{ now: number }>(
      'select (extract(epoch from now()) * 1000)::bigint as now',
    )) as [{ now: number }];
    await loadBenchData(emulator, Number(now), settings);
    log(`${db} anon: data loaded in ${(msSince(started) / 1000).toFixed(1)} s`);
    const calls = await timeCalls(emulator);
    const flooded = calls[0]!;
    // Built again at the clock of the flood: the earliest instant anon may ask about moves on.
    const [{ later }] = (await emulator.query<{ later: number }>(
      'select (extract(epoch from clock_timestamp()) * 1000)::bigint as later',
    )) as [{ later: number }];
    const floodCall = anonCalls(Number(later))[flooded.entry]!.find(
      (c) => c.label === flooded.label,
    )!;
    log(`${db} anon: slowest call ${flooded.entry} (${flooded.label}) ${flooded.ms} ms`);
    let deadline = Date.now() + 1000;
    await visitorLookups(emulator, () => Date.now() > deadline);
    deadline = Date.now() + settings.seconds * 1000;
    const quiet = await visitorLookups(emulator, () => Date.now() > deadline);
    const { figures, sent, byStatus, socketErrors } = await flood(emulator, floodCall, settings);
    log(
      `${db} anon: /go p50 ${quiet.go.p50} / p99 ${quiet.go.p99} ms quiet, ${figures.go.p50} / ${figures.go.p99} ms under ${settings.clients} clients; /go/?c= ${quiet.card.p50} / ${quiet.card.p99}, ${figures.card.p50} / ${figures.card.p99} ms (${sent} calls: ${JSON.stringify(byStatus)})`,
    );
    const member = await measureMemberFlood(emulator, settings);
    log(
      `${db} member: ${member.call.label} ${member.call.ms} ms; under ${member.clients} clients /go p50 ${member.flood.go.p50} / p99 ${member.flood.go.p99} ms, /go/?c= ${member.flood.card.p50} / ${member.flood.card.p99} ms (${member.sent} calls: ${JSON.stringify(member.byStatus)})`,
    );
    const result = { calls, flooded, quiet, flood: figures, sent, byStatus, socketErrors, member };
    return { db, ...settings, ...result };
  } finally {
    await emulator.stop();
    await database?.drop();
  }
}
