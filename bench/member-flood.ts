// Measurement 7, second part: visitors while any signed-in account floods the API with the
// costliest call it can make again and again. Any account may make a card of its own and give it
// the most live weekly series a card may have (100), and the costliest call that changes nothing
// a member has is the card's series occurrences over 400 days from 400 days back
// (`namecard_occurrences`: before the materialised window every series is expanded exactly, work
// in memory that costs seconds; docs/security.md), so the flood is 20 clients calling it for
// their own card with its token. Over PostgreSQL every request, the visitor's lookups too, goes
// through PostgREST's one pool (docs/emulator.md): the lookups of bare /go and of /go/?c=main,
// both `rpc/namecard_go` of the card main (a bare /go/ asks for main), are timed alike, for 50
// visitors at once, each alternating.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { MAIN_CARD } from '../shared/core/cards.js';
import { fetchActiveEntry } from '../shared/core/lookup.js';
import type { BenchEmulator } from './emulator.js';
import { median, msSince, quantile, round } from './stats.js';

/** Lookups timed one at a time: counts and quantiles in ms, failures (error or time-out). */
export interface LookupFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
}

/** Bare /go and /go/?c=<slug>, timed alternately. */
export interface VisitorLookups {
  go: LookupFigures;
  card: LookupFigures;
}

/** The member's flood: its call, the lookups quiet and under it, and the flood's answers. */
export interface MemberFloodResult {
  /** The call flooded, as a request describes it, and its median time alone (ms). */
  call: { label: string; ms: number; status: number };
  clients: number;
  seconds: number;
  quiet: VisitorLookups;
  flood: VisitorLookups;
  sent: number;
  byStatus: Record<string, number>;
  socketErrors: number;
}

/** The live weekly series the flooding account gives its card: a card's most. */
const SERIES = 100;
/** How far back and how long a span a signed-in member may ask about (days). */
const DAYS = 400;
const DAY = 86_400_000;
/** The card the account makes, and /go/?c= asks for the first card's slug. */
const FLOOD_CARD = 'flood';
const VISITOR_CARD = MAIN_CARD;

function figures(samples: number[], failures: number): LookupFigures {
  return {
    count: samples.length,
    p50: round(quantile(samples, 0.5)),
    p99: round(quantile(samples, 0.99)),
    max: round(samples.length > 0 ? Math.max(...samples) : 0),
    failures,
  };
}

/**
 * Times the visitor's lookups until `until()` is true: `visitors` visitors at once, each sending
 * one request after another, bare /go and /go/?c=main in turn (`fetchActiveEntry`, the GET each
 * page sends, 10 s time-out).
 */
export async function visitorLookups(
  emulator: Pick<BenchEmulator, 'url' | 'anonKey'>,
  until: () => boolean,
  visitors: number,
): Promise<VisitorLookups> {
  const samples = { go: [] as number[], card: [] as number[] };
  const failures = { go: 0, card: 0 };
  const visitor = async (first: number) => {
    for (let turn = first; !until(); turn++) {
      const which = turn % 2 === 0 ? 'go' : 'card';
      const start = process.hrtime.bigint();
      try {
        await fetchActiveEntry({
          supabaseUrl: emulator.url,
          anonKey: emulator.anonKey,
          timeoutMs: 10_000,
          card: which === 'card' ? VISITOR_CARD : MAIN_CARD,
        });
        samples[which].push(msSince(start));
      } catch {
        failures[which]++;
      }
    }
  };
  await Promise.all(Array.from({ length: visitors }, (_, i) => visitor(i)));
  return { go: figures(samples.go, failures.go), card: figures(samples.card, failures.card) };
}

/** A JSON request to the emulator's REST API as the signed-in account; resolves with its status. */
async function asMember(emulator: BenchEmulator, token: string, path: string, body: unknown) {
  const res = await fetch(`${emulator.url}/rest/v1/${path}`, {
    method: 'POST',
    headers: {
      apikey: emulator.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * An account as anyone may have one (made by the service, as sign-ups are closed), signed in;
 * through the API it makes its own card and gives it SERIES daily series of 8 hours, starting at
 * every hour in turn.
 * @returns its access token
 */
async function floodingAccount(emulator: BenchEmulator): Promise<string> {
  const account = { email: 'member-flood@bench.test', password: 'member-flood-password' };
  await emulator.createUser(account.email, account.password, false);
  const signIn = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const made = await asMember(emulator, token, 'rpc/namecard_card_add', {
    slug: FLOOD_CARD,
    name: 'Flood',
  });
  if (made !== 200) throw new Error(`namecard_card_add answered ${made}`);
  for (let i = 0; i < SERIES; i++) {
    const hour = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
    const stored = await asMember(emulator, token, 'rpc/namecard_set_series', {
      type: 'photo',
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      start_time: hour(i),
      end_time: hour(i + 8),
      time_zone: 'Europe/Berlin',
      card: FLOOD_CARD,
    });
    if (stored !== 200) throw new Error(`namecard_set_series answered ${stored}`);
  }
  return token;
}

/**
 * The costliest call: the occurrences of the account's card over DAYS days from DAYS days back
 * (ten minutes inside the bound, which moves on while the flood runs), at the database's clock `now` (epoch ms).
 */
function costliestCall(now: number) {
  const from = now - DAYS * DAY + 600_000;
  return {
    label: `namecard_occurrences, ${DAYS} days from ${DAYS} days back, a card of ${SERIES} daily series`,
    path: 'rpc/namecard_occurrences',
    body: { card: FLOOD_CARD, from_ms: from, to_ms: from + DAYS * DAY },
  };
}

/**
 * The member flood on a running emulator: sets the account up, times its costliest call alone
 * (median of 3), the visitor's lookups quiet for `seconds`, then again while `clients` clients (in
 * a worker thread) send the call with the account's token.
 */
export async function measureMemberFlood(
  emulator: BenchEmulator,
  settings: { clients: number; visitors: number; seconds: number },
): Promise<MemberFloodResult> {
  const token = await floodingAccount(emulator);
  const [{ now }] = (await emulator.query<{ now: number }>(
    'select (extract(epoch from clock_timestamp()) * 1000)::bigint as now',
  )) as [{ now: number }];
  const call = costliestCall(Number(now));
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    status = await asMember(emulator, token, call.path, call.body);
    times.push(msSince(start));
  }
  let deadline = Date.now() + settings.seconds * 1000;
  const quiet = await visitorLookups(emulator, () => Date.now() > deadline, settings.visitors);
  const worker = new Worker(new URL('./anon-flood-clients.mjs', import.meta.url), {
    workerData: {
      url: `${emulator.url}/rest/v1/${call.path}`,
      method: 'POST',
      body: call.body,
      anonKey: emulator.anonKey,
      bearer: token,
      clients: settings.clients,
      seconds: settings.seconds,
    },
  });
  const done = once(worker, 'message') as Promise<
    [{ sent: number; byStatus: Record<string, number>; socketErrors: number }]
  >;
  deadline = Date.now() + settings.seconds * 1000;
  const flood = await visitorLookups(emulator, () => Date.now() > deadline, settings.visitors);
  const [posted] = await done;
  await worker.terminate();
  return {
    call: { label: call.label, ms: round(median(times)), status },
    ...settings,
    quiet,
    flood,
    ...posted,
  };
}
