import { startEmulator } from '../emulator/index.js';
import { startThrowawayPostgres } from '../tests/support/postgres.js';
import { addSeries, LIVE_SERIES_LIMIT } from './lookup.js';
import { MAIN_CARD_SQL } from '../tests/support/emulator.js';

// A short, targeted measurement of the timeline walk (private.namecard_timeline_until, of the
// card main) at 10^6 entries on a throwaway PostgreSQL server: the data of
// tests/emulator/index-plan.test.ts (ended entries one per minute up to now, 10^5 one-minute
// entries from an hour on, so the first 24 segments alternate), each call timed by EXPLAIN ANALYZE (planning + execution) with
// plan_cache_mode = force_custom_plan, as PostgREST runs the API roles.
//
// With `series` > 0, that many weekly series are added (the lookup bench's: one to three
// weekdays, 1 to 9 hours, four zones; the newest LIVE_SERIES_LIMIT of them stay live, the others
// are cancelled), so that the walk meets their occurrences too.
//
// Run: node --import tsx bench/timeline-walk.ts [calls=30] [series=0]

const ROWS = 1_000_000;
const FUTURE = 100_000;
const MINUTE = 60_000;
const calls = Number(process.argv[2] ?? 30);
const series = Number(process.argv[3] ?? 0);

const server = await startThrowawayPostgres();
const emulator = await startEmulator({ port: 0, databaseUrl: server.url, rest: 'postgrest' });
try {
  const now = Date.now();
  const indexes = await emulator.query<{ indexdef: string; indexname: string }>(
    `select indexname, indexdef from pg_indexes where schemaname = 'public'
     and tablename = 'namecard' and indexname <> 'namecard_pkey'`,
  );
  for (const { indexname } of indexes) await emulator.query(`drop index public.${indexname}`);
  await emulator.query(
    `insert into public.namecard (card_id, stamp_end, type)
     select ${MAIN_CARD_SQL}, $1::bigint - ($2::bigint - g) * ${MINUTE} - 1, case when g % 2 = 0 then 'main' else 'photo' end
     from generate_series(1, $2::bigint) g`,
    [now, ROWS - FUTURE],
  );
  await emulator.query(
    `insert into public.namecard (card_id, stamp_start, stamp_end, type)
     select ${MAIN_CARD_SQL}, $1::bigint + 60 * ${MINUTE} + g * ${MINUTE}, $1::bigint + 60 * ${MINUTE} + g * ${MINUTE} + ${MINUTE} - 1, 'photo'
     from generate_series(1, $2::bigint) g`,
    [now, FUTURE],
  );
  for (const { indexdef } of indexes) await emulator.query(indexdef);
  await emulator.query('vacuum analyze public.namecard');
  if (series > 0) {
    const ms = await addSeries(emulator, series);
    const live = Math.min(series, LIVE_SERIES_LIMIT);
    console.log(`${series} series (${live} live) added in ${(ms / 1000).toFixed(1)} s`);
  }

  const explain = async (sql: string) => {
    const [row] = await emulator.query<{
      plan: [{ 'Planning Time': number; 'Execution Time': number }];
    }>(`select public.bench_explain($1) as plan`, [sql]);
    const { 'Planning Time': planning, 'Execution Time': execution } = row!.plan[0];
    return planning + execution;
  };
  await emulator.query(`
    create function public.bench_explain(q text) returns json language plpgsql as $f$
    declare result json;
    begin
      perform set_config('plan_cache_mode', 'force_custom_plan', true);
      execute 'explain (analyze, format json) ' || q into result;
      return result;
    end $f$`);

  if (process.env.PLAN) {
    const { readFileSync } = await import('node:fs');
    const q = readFileSync(process.env.PLAN, 'utf8')
      .replaceAll('at_ms', String(now))
      .replaceAll('max_segments', '24');
    await emulator.query("set plan_cache_mode = 'force_custom_plan'");
    const rows = await emulator.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q}`);
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [label, sql] of [
    [
      'namecard_timeline_until(main, now, null, 24)',
      `select * from private.namecard_timeline_until(${MAIN_CARD_SQL}, ${now}, null, 24)`,
    ],
    ['namecard_status(main)', "select now, active, timeline from public.namecard_status('main')"],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < calls; i++) times.push(await explain(sql));
    const segments = await emulator.query(sql.replace('select *', 'select count(*)::int as n'));
    console.log(
      `${label}: median ${median(times).toFixed(2)} ms, min ${Math.min(...times).toFixed(2)} ms over ${calls} calls`,
      label.startsWith('namecard_timeline') ? `(${JSON.stringify(segments[0])} segments)` : '',
    );
  }
  const [version] = await emulator.query<{ v: string }>('select version() as v');
  console.log(version!.v);
} finally {
  await emulator.stop();
  await server.stop();
}
