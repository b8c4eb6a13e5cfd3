// Measurement 7: visitors during floods. Over the bench's largest data (10^6 entries, 10^3 series
// of which 100 live, 50 profiles: tests/support/bench-data.ts) and what every caller's calls need
// (addCallerData: tokens, cards at their limits), every call the inventory of docs/security.md
// bounds that changes nothing is timed with its extreme arguments (tests/security/caller-calls.ts)
// over HTTP, each as the caller that may make it (anon, or a card token: its header with the anon
// key); then the visitor's lookups (`fetchActiveEntry`: bare /go's and /go/?c=main's GET of
// rpc/namecard_go, both of the card main, in turn) are timed for 50 visitors at once, each one
// request after another, first on a quiet emulator, then while 20 clients (in a worker thread)
// send the slowest of those calls again
// and again as its caller, then while a signed-in account floods its own costliest call
// (member-flood.ts).
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { TOKEN_HEADER } from '../shared/core/tokens.js';
import {
  addCallerData,
  callerCalls,
  unchangingEntries,
  type CallerCall,
  type CallerIds,
} from '../tests/security/caller-calls.js';
import { readInventory } from '../tests/security/caller-inventory.js';
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
  /** The clients sending the flooding call at once. */
  clients: number;
  /** The visitors looking up /go at once, each one request after another. */
  visitors: number;
  seconds: number;
}

/** One bounded call's median time over HTTP (request to answer), ms, as its caller. */
export interface AnonCallTime {
  entry: string;
  label: string;
  /** Who sent it: anon, or a card token. */
  caller: 'anon' | 'token';
  ms: number;
  status: number;
}

export interface AnonFloodResult extends AnonFloodSettings {
  db: DbKind;
  /**
   * Every bounded call that changes nothing with a request that anon or a card token sends,
   * slowest first.
   */
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

/** A call anon or a card token sends over HTTP (a person's needs a session: none has a request). */
type SentCall = CallerCall & {
  http: NonNullable<CallerCall['http']>;
  as: { kind: 'anon' | 'token' };
};

const isSent = (call: CallerCall): call is SentCall =>
  call.http !== undefined && call.as.kind !== 'person';

/** The headers a call's caller sends besides the anon key: a card token's header. */
const callerHeaders = (call: SentCall): Record<string, string> =>
  call.as.kind === 'token' ? { [TOKEN_HEADER]: call.as.token } : {};

/** Sends one call's request as its caller; resolves with its status. */
async function send(emulator: BenchEmulator, call: SentCall) {
  const { path, method, body } = call.http;
  const res = await fetch(`${emulator.url}/rest/v1/${path}`, {
    method,
    headers: {
      apikey: emulator.anonKey,
      authorization: `Bearer ${emulator.anonKey}`,
      'content-type': 'application/json',
      ...callerHeaders(call),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The database's clock now (epoch ms). */
async function dbClock(emulator: BenchEmulator): Promise<number> {
  const [{ now }] = (await emulator.query<{ now: number }>(
    'select (extract(epoch from clock_timestamp()) * 1000)::bigint as now',
  )) as [{ now: number }];
  return Number(now);
}

/**
 * The calls with a request of each bounded inventory entry that changes nothing (a write's would
 * cost its first call only, and change what visitors get), timed 5 times, slowest first.
 */
async function timeCalls(emulator: BenchEmulator, ids: CallerIds): Promise<AnonCallTime[]> {
  const bounded = readInventory().filter((e) => e.bounded);
  const unchanging = await unchangingEntries(
    emulator,
    bounded.map((e) => e.name),
  );
  const calls = callerCalls(await dbClock(emulator), ids);
  const times: AnonCallTime[] = [];
  for (const entry of bounded.filter((e) => unchanging.has(e.name))) {
    for (const call of (calls[entry.name] ?? []).filter(isSent)) {
      let status = await send(emulator, call);
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = process.hrtime.bigint();
        status = await send(emulator, call);
        samples.push(msSince(start));
      }
      const caller = call.as.kind;
      times.push({
        entry: entry.name,
        label: call.label,
        caller,
        ms: round(median(samples)),
        status,
      });
    }
  }
  return times.sort((a, b) => b.ms - a.ms);
}

/** The flood: `settings.clients` clients sending `call` as its caller while lookups are timed. */
async function flood(emulator: BenchEmulator, call: SentCall, settings: AnonFloodSettings) {
  const worker = new Worker(new URL('./anon-flood-clients.mjs', import.meta.url), {
    workerData: {
      url: `${emulator.url}/rest/v1/${call.http.path}`,
      method: call.http.method,
      body: call.http.body,
      headers: callerHeaders(call),
      anonKey: emulator.anonKey,
      clients: settings.clients,
      seconds: settings.seconds,
    },
  });
  const done = once(worker, 'message') as Promise<
    [{ sent: number; byStatus: Record<string, number>; socketErrors: number }]
  >;
  const deadline = Date.now() + settings.seconds * 1000;
  const figures = await visitorLookups(emulator, () => Date.now() > deadline, settings.visitors);
  const [posted] = await done;
  await worker.terminate();
  return { figures, ...posted };
}

/**
 * Loads the data into a fresh emulator (a database of its own on `server` for PostgreSQL) with
 * every caller's (addCallerData), times every bounded call a caller sends over HTTP, then the
 * visitor's lookups quiet and under the flood of the slowest, sent as its caller.
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
    const now = await dbClock(emulator);
    await loadBenchData(emulator, now, settings);
    const { ids } = await addCallerData(
      {
        query: (sql, params) => emulator.query(sql, params),
        createUser: (email, password, opts) =>
          emulator.createUser(email, password, opts?.owner ?? false),
      },
      now,
    );
    log(`${db} anon: data loaded in ${(msSince(started) / 1000).toFixed(1)} s`);
    const calls = await timeCalls(emulator, ids);
    const flooded = calls[0]!;
    // Built again at the clock of the flood: the earliest instant a caller may ask about moves on.
    const floodCall = callerCalls(await dbClock(emulator), ids)
      [flooded.entry]!.filter(isSent)
      .find((c) => c.label === flooded.label)!;
    log(
      `${db} anon: slowest call ${flooded.entry} (${flooded.label}, as ${flooded.caller}) ${flooded.ms} ms`,
    );
    let deadline = Date.now() + 1000;
    await visitorLookups(emulator, () => Date.now() > deadline, settings.visitors);
    deadline = Date.now() + settings.seconds * 1000;
    const quiet = await visitorLookups(emulator, () => Date.now() > deadline, settings.visitors);
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
