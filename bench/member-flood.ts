// Measurement 7, second part: visitors while any signed-in account floods the API with the
// costliest call it can make. Any account may make a card of its own and give it profiles, and
// the costliest call a member has is the card's visits per day (`namecard_visit_days` with its
// most day starts, 401: two index probes per day, profile and channel, whatever the visits), so
// the flood is 50 clients calling it for their own card with 64 profiles. Over PostgreSQL every
// request, the visitor's lookups too, goes through PostgREST's one pool (docs/emulator.md): the
// lookups of bare /go and of /go/?c=main, both `rpc/namecard_go` of the card main (a bare /go/
// asks for main), are timed alike, one at a time, alternating.
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

/** The profiles the flooding account gives its card (the bench data's count). */
const PROFILES = 64;
/** A member's most day starts for `namecard_visit_days` (400 days and the end of the last). */
const DAY_STARTS = 401;
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
 * Times the visitor's lookups one request at a time until `until()` is true, bare /go and
 * /go/?c=main in turn (`fetchActiveEntry`, the GET each page sends, 10 s time-out).
 */
export async function visitorLookups(
  emulator: Pick<BenchEmulator, 'url' | 'anonKey'>,
  until: () => boolean,
): Promise<VisitorLookups> {
  const samples = { go: [] as number[], card: [] as number[] };
  const failures = { go: 0, card: 0 };
  for (let turn = 0; !until(); turn++) {
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
 * through the API it makes its own card and gives it PROFILES profiles.
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
  const [card] = await emulator.query<{ id: number }>(
    'select id from public.namecard_card where slug = $1',
    [FLOOD_CARD],
  );
  const profiles = Array.from({ length: PROFILES - 2 }, (_, i) => ({
    card_id: card!.id,
    name: `f${i}`,
    label: `Flood ${i}`,
    url: `https://card.example/f${i}`,
  }));
  const added = await asMember(emulator, token, 'namecard_profile', profiles);
  if (made !== 200 || added !== 201) throw new Error(`member set-up answered ${made}, ${added}`);
  return token;
}

/** The costliest call: the visits of the account's card for 400 days (day starts at midnight UTC). */
function costliestCall(now: number) {
  const first = Math.floor(now / DAY) * DAY - (DAY_STARTS - 2) * DAY;
  const dayStarts = Array.from({ length: DAY_STARTS }, (_, i) => first + i * DAY);
  return {
    label: `namecard_visit_days, ${DAY_STARTS} day starts, a card of ${PROFILES} profiles`,
    path: 'rpc/namecard_visit_days',
    body: { day_starts: dayStarts, card: FLOOD_CARD },
  };
}

/**
 * The member flood on a running emulator: sets the account up, times its costliest call alone
 * (median of 3), the visitor's lookups quiet for `seconds`, then again while `clients` clients (in
 * a worker thread) send the call with the account's token.
 */
export async function measureMemberFlood(
  emulator: BenchEmulator,
  settings: { clients: number; seconds: number },
): Promise<MemberFloodResult> {
  const token = await floodingAccount(emulator);
  const call = costliestCall(Date.now());
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    status = await asMember(emulator, token, call.path, call.body);
    times.push(msSince(start));
  }
  let deadline = Date.now() + settings.seconds * 1000;
  const quiet = await visitorLookups(emulator, () => Date.now() > deadline);
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
  const flood = await visitorLookups(emulator, () => Date.now() > deadline);
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
