import { EXTRA_PROFILES } from '../support/bench-data.js';

// The calls that cost an inventory entry (docs/security.md, "What anon may reach") the most,
// with its extreme allowed arguments: the SQL anon's request runs, for EXPLAIN and timing, and
// the request itself where it has one (the flood of tests/security/anon-load.test.ts).
// tests/security/anon-cost.test.ts fails for an entry with no call here.

const DAY = 86_400_000;
/** The last instant anyone may ask about: 2199-12-31T23:59:59.999Z (epoch ms). */
export const LAST_INSTANT = 7_258_118_399_999;

/**
 * Card tokens the cost test stores beside the bench's data (addBenchTokens): an editor token of
 * the first card (10^6 entries, its 100 live series), and one of a second card with no series,
 * for storing a series (the first card is at its cap of live series).
 */
export const BENCH_TOKEN = `nct_${'bench'.repeat(6)}aa`;
export const BENCH_SERIES_TOKEN = `nct_${'bench'.repeat(6)}bb`;

/**
 * Stores BENCH_TOKEN and BENCH_SERIES_TOKEN (their sha256, as namecard_token_create does), made
 * by an owner of both cards, as the superuser.
 */
export async function addBenchTokens(emulator: {
  query: (sql: string, params?: unknown[]) => Promise<unknown>;
  createUser: (
    email: string,
    password: string,
    opts?: { owner?: boolean },
  ) => Promise<{ id: string }>;
}): Promise<void> {
  const { id } = await emulator.createUser('bench-owner@tokens.test', 'bench-owner-password', {
    owner: true,
  });
  await emulator.query(
    `with card as (
       insert into public.namecard_card (slug, name, created_by) values ('bench-series', 'Bench series', $1)
       returning id
     ), member as (
       insert into private.namecard_member (card_id, user_id, role) select id, $1, 'owner' from card
     ), profiles as (
       insert into public.namecard_profile (card_id, name, label, url, created_by)
       select id, p.name, p.label, null, $1 from card,
         (values ('main', 'Main Profile'), ('photo', 'Photographer')) as p (name, label)
     )
     insert into private.namecard_token (card_id, name, role, hash, created_by)
     select public.namecard_first_card(), 'bench', 'editor', sha256(convert_to($2, 'UTF8')), $1::uuid
     union all
     select id, 'bench-series', 'editor', sha256(convert_to($3, 'UTF8')), $1::uuid from card`,
    [id, BENCH_TOKEN, BENCH_SERIES_TOKEN],
  );
}

/** One call of an entry: what it runs as anon, and the PostgREST request that runs it. */
export interface AnonCall {
  /** What makes it extreme, for messages. */
  label: string;
  /** SQL run as anon (literal arguments). */
  sql: string;
  /** The request (path below /rest/v1, method, body, headers), when it has one. */
  http?: { path: string; method: 'GET' | 'POST' | 'HEAD'; body?: unknown; prefer?: string };
}

/**
 * The extreme calls of every entry at the database's clock `now` (epoch ms): the earliest
 * instant anon may ask about is a day back, the latest the end of 2199. `now` is read shortly
 * before the calls run, so the earliest instant is taken a minute inside the bound.
 */
export function anonCalls(now: number): Record<string, AnonCall[]> {
  const earliest = now - DAY + 60_000;
  const instants = (at: number) => `array_fill(${at}::bigint, array[10])`;
  const spread = Array.from({ length: 10 }, (_, i) => earliest + i * 41 * DAY);
  const profiles = [
    'main',
    'photo',
    ...Array.from({ length: EXTRA_PROFILES }, (_, i) => `p${i + 1}`),
  ];
  // Today's start on a 15-minute boundary (UTC), for the visit days.
  const dayStart = Math.floor(now / DAY) * DAY;
  const rpc = (fn: string, body: unknown) => ({ path: `rpc/${fn}`, method: 'POST', body }) as const;
  return {
    'public.namecard_active': [
      {
        label: 'the lookup /go makes',
        sql: 'select * from public.namecard_active',
        http: { path: 'namecard_active?select=*', method: 'GET' },
      },
    ],
    'public.namecard_status': [
      {
        label: "status' one read",
        sql: 'select * from public.namecard_status',
        http: { path: 'namecard_status?select=*', method: 'GET' },
      },
    ],
    'public.namecard_status_now()': [
      {
        label: 'no argument',
        sql: 'select * from public.namecard_status_now()',
        http: rpc('namecard_status_now', {}),
      },
    ],
    'public.namecard_lookup_at(bigint)': [
      {
        label: 'a day back',
        sql: `select * from public.namecard_lookup_at(${earliest})`,
        http: rpc('namecard_lookup_at', { at_ms: earliest }),
      },
      {
        label: 'the end of 2199',
        sql: `select * from public.namecard_lookup_at(${LAST_INSTANT})`,
        http: rpc('namecard_lookup_at', { at_ms: LAST_INSTANT }),
      },
    ],
    'public.namecard_in_force_at(bigint,bigint,boolean)': [
      // Through PostgREST anon is refused (its exact branch is not anon's); inlined with a
      // constant, as the view does, it runs. Card 1 is the first card, the one anon reads.
      {
        label: 'a day back, inlined',
        sql: `select * from public.namecard_in_force_at(1, ${earliest}, true)`,
      },
      {
        label: 'the end of 2199, inlined',
        sql: `select * from public.namecard_in_force_at(1, ${LAST_INSTANT}, true)`,
      },
    ],
    'public.namecard_card_series_in_force(bigint,bigint)': [
      {
        label: 'a day back',
        sql: `select * from public.namecard_card_series_in_force(1, ${earliest})`,
        http: rpc('namecard_card_series_in_force', { card: 1, at_ms: earliest }),
      },
      {
        label: 'the end of 2199 (every live series expanded)',
        sql: `select * from public.namecard_card_series_in_force(1, ${LAST_INSTANT})`,
        http: rpc('namecard_card_series_in_force', { card: 1, at_ms: LAST_INSTANT }),
      },
    ],
    'public.namecard_series_in_force(bigint)': [
      {
        label: 'a day back',
        sql: `select * from public.namecard_series_in_force(${earliest})`,
        http: rpc('namecard_series_in_force', { at_ms: earliest }),
      },
      {
        label: 'the end of 2199 (every live series expanded)',
        sql: `select * from public.namecard_series_in_force(${LAST_INSTANT})`,
        http: rpc('namecard_series_in_force', { at_ms: LAST_INSTANT }),
      },
    ],
    'public.namecard_preview(bigint[],text)': [
      {
        label: '10 × a day back',
        sql: `select * from public.namecard_preview(${instants(earliest)})`,
        http: rpc('namecard_preview', { at_ms: Array(10).fill(earliest) }),
      },
      {
        label: '10 × the end of 2199',
        sql: `select * from public.namecard_preview(${instants(LAST_INSTANT)})`,
        http: rpc('namecard_preview', { at_ms: Array(10).fill(LAST_INSTANT) }),
      },
      {
        label: '10 instants 41 days apart',
        sql: `select * from public.namecard_preview(array[${spread.join(',')}]::bigint[])`,
        http: rpc('namecard_preview', { at_ms: spread }),
      },
    ],
    'public.namecard_instant_allowed(bigint)': [
      {
        label: 'the end of 2199',
        sql: `select public.namecard_instant_allowed(${LAST_INSTANT})`,
        http: rpc('namecard_instant_allowed', { at_ms: LAST_INSTANT }),
      },
    ],
    'public.namecard_profile_labels(text[])': [
      {
        label: '64 profiles no entry names',
        sql: `select public.namecard_profile_labels(array[${profiles.map((p) => `'${p}'`).join(',')}])`,
        http: rpc('namecard_profile_labels', { names: profiles }),
      },
    ],
    'public.namecard_profile_url(text)': [
      {
        label: 'a profile no entry names',
        sql: `select public.namecard_profile_url('p${EXTRA_PROFILES}')`,
        http: rpc('namecard_profile_url', { profile_name: `p${EXTRA_PROFILES}` }),
      },
    ],
    'public.namecard_count_visit(text)': [
      { label: 'one visit', sql: `select public.namecard_count_visit('qr')` },
    ],
    'public.namecard_count_card_visit(text,text)': [
      { label: 'one visit of main', sql: `select public.namecard_count_card_visit('qr', 'main')` },
      {
        label: 'a slug never given',
        sql: `select public.namecard_count_card_visit('qr', 'never-given')`,
      },
    ],
    'public.namecard_go(text)': [
      {
        label: "the first card's lookup by its slug",
        sql: `select * from public.namecard_go('main')`,
        http: { path: 'rpc/namecard_go?card=main', method: 'GET' },
      },
      {
        label: 'a slug never given',
        sql: `select * from public.namecard_go('never-given')`,
        http: { path: 'rpc/namecard_go?card=never-given', method: 'GET' },
      },
    ],
    'public.namecard_card_status(text)': [
      {
        label: "the first card's status by its slug",
        sql: `select * from public.namecard_card_status('main')`,
        http: rpc('namecard_card_status', { card: 'main' }),
      },
    ],
    'public.namecard_token_whoami(text)': [
      { label: 'a live token', sql: `select public.namecard_token_whoami('${BENCH_TOKEN}')` },
    ],
    'public.namecard_token_status(text)': [
      {
        label: "the first card's status by its token",
        sql: `select * from public.namecard_token_status('${BENCH_TOKEN}')`,
      },
    ],
    'public.namecard_token_entries(text,integer)': [
      {
        label: 'the newest 1000 of 10^6 entries',
        sql: `select * from public.namecard_token_entries('${BENCH_TOKEN}', 1000)`,
      },
    ],
    'public.namecard_token_series(text)': [
      {
        label: "the first card's 10^3 series",
        sql: `select public.namecard_token_series('${BENCH_TOKEN}')`,
      },
    ],
    'public.namecard_token_profiles(text)': [
      {
        label: "the first card's 64 profiles",
        sql: `select * from public.namecard_token_profiles('${BENCH_TOKEN}')`,
      },
    ],
    'public.namecard_token_visit_days(text,bigint[])': [
      {
        label: '400 days',
        sql: `select * from public.namecard_token_visit_days('${BENCH_TOKEN}', array(select ${dayStart}::bigint - g * ${DAY}::bigint from generate_series(400, 0, -1) as g))`,
      },
    ],
    'public.namecard_token_preview(text,bigint[])': [
      {
        label: '10 × the end of 2199',
        sql: `select * from public.namecard_token_preview('${BENCH_TOKEN}', ${instants(LAST_INSTANT)})`,
      },
    ],
    'public.namecard_token_set(text,text,bigint,bigint)': [
      {
        label: 'an entry for an hour, and the status after it',
        sql: `select public.namecard_token_set('${BENCH_TOKEN}', 'photo', null, ${now + 3_600_000})`,
      },
    ],
    'public.namecard_token_set_series(text,text,smallint[],time without time zone,time without time zone,text,date,date)':
      [
        {
          label: 'a daily series (400 days materialised), and the status after it',
          sql: `select public.namecard_token_set_series('${BENCH_SERIES_TOKEN}', 'photo', array[1,2,3,4,5,6,7]::smallint[], '10:00', '18:00', 'Europe/Berlin')`,
        },
      ],
    'public.namecard_token_end_now(text)': [
      {
        label: 'end now on the first card (timelines compared before and after)',
        sql: `select public.namecard_token_end_now('${BENCH_TOKEN}')`,
      },
    ],
    'public.namecard_token_cancel(text,bigint)': [
      {
        label: 'the newest entry of 10^6',
        sql: `select public.namecard_token_cancel('${BENCH_TOKEN}', (select max(id) from public.namecard))`,
      },
    ],
    'public.namecard_first_card()': [
      {
        label: 'no argument',
        sql: 'select public.namecard_first_card()',
        http: rpc('namecard_first_card', {}),
      },
    ],
    'public.namecard_schema_version()': [
      {
        label: 'no argument',
        sql: 'select public.namecard_schema_version()',
        http: rpc('namecard_schema_version', {}),
      },
    ],
    'public.namecard': [
      {
        label: 'the newest 20 (signed-out list)',
        sql: 'select id, type, stamp_start, stamp_end from public.namecard order by id desc limit 20',
      },
      { label: 'a count of every row', sql: 'select count(*) from public.namecard' },
      {
        label: 'a sort on an unindexed column',
        sql: 'select id, type, stamp_start, stamp_end from public.namecard order by type desc, stamp_start desc offset 100000 limit 1000',
      },
    ],
    'public.namecard_series': [
      {
        label: 'every row, sorted',
        sql: 'select id, type, weekdays, start_time, end_time, time_zone, first_date, last_date, stopped_at from public.namecard_series order by time_zone, id desc limit 1000',
      },
    ],
    'public.namecard_series_stop': [
      {
        label: 'every row, sorted',
        sql: 'select series_id, occurrence_start, stopped_at from public.namecard_series_stop order by stopped_at desc limit 1000',
      },
    ],
  };
}
