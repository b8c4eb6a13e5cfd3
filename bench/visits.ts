// Visit counting under load, and `stats` at scale. Run on its own:
//
//   npx tsx bench/visits.ts [--db postgres,pglite]
//
// 1. Counting: 50 visits/s for 10 s (one CORS-simple text/plain POST each, as /go's beacon
//    sends it) against the emulator in its own process, while lookups (the /go GET) run one
//    after another; none lost: the count stored equals the requests answered 204. Lookup p50
//    and p99 during the load are reported.
// 2. Stats: the owner's read of 30 days of counts (`fetchVisitCounts` + `summarizeVisits`, what
//    `namecard stats` runs: one call of namecard_visit_days, summed per day on the server),
//    timed at 10^3 and at 10^6 counted visits, with EXPLAIN (ANALYZE, BUFFERS) of its query.
//    Counts are per 15-minute bucket, so 10^6 visits are at most 30 × 96 × 2 × 3 = 17,280
//    rows read by the server, and at most 30 × 6 rows answered: goal under 2× the time at 10^3.
import { parseArgs } from 'node:util';
import { dayStarts, summarizeVisits, visitWindow } from '../shared/calendar/visits.js';
import { MAIN_CARD } from '../shared/core/cards.js';
import { fetchActiveEntry } from '../shared/core/lookup.js';
import { createNamecardClient } from '../shared/supabase/client.js';
import { fetchVisitCounts } from '../shared/supabase/data.js';
import { stopAll } from './cleanup.js';
import { spawnEmulator, type BenchEmulator, type DbKind } from './emulator.js';
import { freshDatabase, pgServer, type PgServer } from './postgres.js';
import { median, quantile } from './stats.js';
import { MAIN_CARD_SQL } from '../tests/support/emulator.js';

const RATE = 50;
const SECONDS = 10;
const OWNER = { email: 'owner@bench.visits', password: 'bench-owner-password-1' };

const log = (line: string) => process.stderr.write(`${line}\n`);

async function countUnderLoad(emulator: BenchEmulator) {
  await emulator.query('truncate public.namecard_visit');
  const url = `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`;
  const statuses: number[] = [];
  const sends: Promise<void>[] = [];
  const lookupsMs: number[] = [];
  let loading = true;
  const lookups = (async () => {
    while (loading) {
      const t0 = performance.now();
      await fetchActiveEntry({
        supabaseUrl: emulator.url,
        anonKey: emulator.anonKey,
        card: MAIN_CARD,
      });
      lookupsMs.push(performance.now() - t0);
    }
  })();
  const start = performance.now();
  const channels = ['qr', 'nfc', 'link'];
  for (let i = 0; i < RATE * SECONDS; i++) {
    // Evenly spaced: request i leaves at i / RATE seconds after the start.
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: channels[i % 3]!,
      }).then(
        async (res) => {
          await res.arrayBuffer();
          statuses.push(res.status);
        },
        () => void statuses.push(0),
      ),
    );
  }
  await Promise.all(sends);
  const elapsed = (performance.now() - start) / 1000;
  loading = false;
  await lookups;
  const accepted = statuses.filter((s) => s === 204).length;
  const [row] = await emulator.query<{ n: number | string | null }>(
    'select sum(visits) as n from public.namecard_visit',
  );
  const stored = Number(row?.n ?? 0);
  return {
    sent: statuses.length,
    accepted,
    refused: statuses.length - accepted,
    stored,
    lost: accepted - stored,
    seconds: Number(elapsed.toFixed(2)),
    lookups: lookupsMs.length,
    lookupP50: Number(quantile(lookupsMs, 0.5).toFixed(2)),
    lookupP99: Number(quantile(lookupsMs, 0.99).toFixed(2)),
  };
}

/** Fills 30 days of buckets so that they add up to `visits` (spread evenly, all combinations). */
async function fill(emulator: BenchEmulator, visits: number) {
  await emulator.query('truncate public.namecard_visit');
  const first = visitWindow(Date.now(), 30, 'UTC').from;
  const slots = 30 * 96 * 6;
  const rows = Math.min(slots, visits);
  // Row k: bucket first + floor(k/6) × 15 min, type and via from k mod 6; visits shared out.
  await emulator.query(
    `insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
     select ${MAIN_CARD_SQL}, bucket, type, via, visits,
            sum(visits) over (partition by type, via order by bucket) as running
     from (
       select $1::bigint + (k / 6)::bigint * 900000 as bucket,
              (array['main','photo'])[1 + (k % 6) / 3] as type,
              (array['qr','nfc','link'])[1 + k % 3] as via,
              ($3::bigint / $2::bigint) + case when k < $3::bigint % $2::bigint then 1 else 0 end
                as visits
       from generate_series(0, $2::bigint - 1) as k
     ) as counters`,
    [first, rows, visits],
  );
  await emulator.query('analyze public.namecard_visit');
}

async function statsAtScale(emulator: BenchEmulator) {
  const client = createNamecardClient(
    { supabaseUrl: emulator.url, anonKey: emulator.anonKey },
    { persistSession: false, autoRefreshToken: false },
  );
  const { error } = await client.auth.signInWithPassword(OWNER);
  if (error) throw error;
  const out: Record<string, unknown> = {};
  const times: Record<number, number[]> = { 1_000: [], 1_000_000: [] };
  const plans: Record<number, string> = {};
  for (const size of [1_000, 1_000_000]) {
    await fill(emulator, size);
    const window = visitWindow(Date.now(), 30, 'UTC');
    const rows = await emulator.query<Record<string, string>>(
      `explain (analyze, buffers) select * from public.namecard_visit_days($1::bigint[])`,
      [dayStarts(window)],
    );
    plans[size] = rows.map((r) => Object.values(r)[0]).join('\n');
    for (let round = 0; round < 7; round++) {
      const t0 = performance.now();
      const counts = await fetchVisitCounts(client, dayStarts(window), MAIN_CARD);
      const summary = summarizeVisits(counts, window);
      times[size]!.push(performance.now() - t0);
      if (round === 0) out[`total_${size}`] = summary.total;
    }
  }
  const small = median(times[1_000]!);
  const large = median(times[1_000_000]!);
  return {
    ...out,
    ms_at_1e3: Number(small.toFixed(1)),
    ms_at_1e6: Number(large.toFixed(1)),
    ratio: Number((large / small).toFixed(2)),
    goal: large < 2 * small ? 'met' : 'missed',
    plan_at_1e6: plans[1_000_000],
  };
}

const { values } = parseArgs({ options: { db: { type: 'string', default: 'postgres,pglite' } } });
const dbs = values.db.split(',') as DbKind[];
let server: PgServer | undefined;
try {
  for (const db of dbs) {
    let databaseUrl: string | undefined;
    if (db === 'postgres') {
      server ??= await pgServer();
      databaseUrl = (await freshDatabase(server, `namecard_bench_visits_${process.pid}`)).url;
    }
    const emulator = await spawnEmulator(db, databaseUrl);
    try {
      await emulator.createUser(OWNER.email, OWNER.password, true);
      log(`${db}: counting ${RATE} visits/s for ${SECONDS} s…`);
      const counting = await countUnderLoad(emulator);
      log(`${db}: counting ${JSON.stringify(counting)}`);
      log(`${db}: stats at 10^3 and 10^6 visits…`);
      const stats = await statsAtScale(emulator);
      const { plan_at_1e6: plan, ...figures } = stats;
      log(`${db}: stats ${JSON.stringify(figures)}`);
      log(`${db}: EXPLAIN at 10^6:\n${plan}`);
      process.stdout.write(`${JSON.stringify({ db, counting, stats }, null, 2)}\n`);
    } finally {
      await emulator.stop();
    }
  }
} finally {
  await server?.stop();
  await stopAll();
}
