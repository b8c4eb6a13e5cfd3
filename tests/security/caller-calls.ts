import { EXTRA_PROFILES } from '../support/bench-data.js';

// The calls that cost an inventory entry (docs/security.md, "What each caller may reach") the
// most, with its extreme allowed arguments, each made as the caller that may make it: the SQL the
// request runs (for EXPLAIN), and the request itself where the flood of
// tests/security/visitor-load.test.ts may send it. tests/security/caller-cost.test.ts fails for an
// entry with no call here.

const DAY = 86_400_000;
/** The last instant anyone may ask about: 2199-12-31T23:59:59.999Z (epoch ms). */
export const LAST_INSTANT = 7_258_118_399_999;

/** Card tokens stored beside the bench's data (their sha256, as namecard_token_create stores). */
export const BENCH_TOKENS = {
  /** An editor token of the card main (10^6 entries, its 100 live series, 50 profiles). */
  editor: `nct_${'bench'.repeat(6)}aa`,
  /** A viewer token of the card main. */
  viewer: `nct_${'bench'.repeat(6)}bb`,
  /** An editor token of the card `series`, which has one series fewer than its limit. */
  series: `nct_${'bench'.repeat(6)}cc`,
  /** An editor token of the card `busy`, whose 100 daily series are all in force now. */
  busy: `nct_${'bench'.repeat(6)}dd`,
} as const;

/** The open invitation code of main the calls accept (its sha256 stored). */
export const BENCH_INVITATION = 'bench-invitation';

/** The people the calls are made as: an owner of main (and of the other cards), and nobody's member. */
export const BENCH_PEOPLE = {
  owner: 'bench-owner@callers.test',
  person: 'bench-person@callers.test',
} as const;

/** Who makes a call: anon, a card token, or a signed-in person. */
export type Caller =
  { kind: 'anon' } | { kind: 'token'; token: string } | { kind: 'person'; email: string };

/** One call of an entry: who makes it, what it runs, and the request that runs it. */
export interface CallerCall {
  /** What makes it extreme, for messages. */
  label: string;
  as: Caller;
  /** SQL run as the caller (literal arguments). */
  sql: string;
  /** The request (path below /rest/v1, method, body), when the flood may send it. */
  http?: { path: string; method: 'GET' | 'POST'; body?: unknown };
}

const anon: Caller = { kind: 'anon' };
const editor: Caller = { kind: 'token', token: BENCH_TOKENS.editor };
const viewer: Caller = { kind: 'token', token: BENCH_TOKENS.viewer };
const owner: Caller = { kind: 'person', email: BENCH_PEOPLE.owner };
const person: Caller = { kind: 'person', email: BENCH_PEOPLE.person };

const rpc = (fn: string, body: unknown) => ({ path: `rpc/${fn}`, method: 'POST', body }) as const;

/** The rows the calls name by id: the cards by slug, and main's open invitation. */
export interface CallerIds {
  cards: Record<'main' | 'series' | 'busy' | 'ended', number>;
  invitation: number;
}

/**
 * The extreme calls of every entry at the database's clock `now` (epoch ms), keyed by the
 * inventory's names. The earliest instant anon (and a card token) may ask about is a day back, a
 * signed-in person 400 days back, each taken a minute inside the bound; the latest, the end of
 * 2199.
 * @param ids the ids of the rows the calls name (addCallerData answers them)
 */
export function callerCalls(now: number, ids: CallerIds): Record<string, CallerCall[]> {
  const earliest = now - DAY + 60_000;
  const earliestPerson = now - 400 * DAY + 60_000;
  const instants = (at: number) => `array_fill(${at}::bigint, array[10])`;
  const dayStart = Math.floor(now / 900_000) * 900_000;
  const month = `array(select ${dayStart}::bigint - g * ${DAY}::bigint from generate_series(31, 0, -1) as g)`;
  const card = (slug: keyof CallerIds['cards']) => ids.cards[slug];
  return {
    'private.namecard_cards_where(text)': [
      {
        label: "an owner's cards",
        as: owner,
        sql: `select private.namecard_cards_where('viewer')`,
      },
      { label: "a token's card", as: editor, sql: `select private.namecard_cards_where('editor')` },
    ],
    'private.namecard_pre_request()': [
      { label: 'a live token', as: editor, sql: 'select private.namecard_pre_request()' },
      { label: 'no token', as: anon, sql: 'select private.namecard_pre_request()' },
    ],
    'public.namecard': [
      {
        label: 'the newest 1000 of 10^6',
        as: viewer,
        sql: `select * from public.namecard where card_id = ${card('main')} order by id desc limit 1000`,
      },
      {
        label: 'the entries not ended',
        as: viewer,
        sql: `select * from public.namecard where card_id = ${card('main')} and stamp_end > ${now} order by id desc limit 1000`,
      },
      {
        label:
          "every card's entries sorted by profile, by anyone (no card named: no index serves it)",
        as: anon,
        sql: 'select * from public.namecard order by type limit 1000',
      },
    ],
    'public.namecard_caller()': [
      { label: 'a token', as: editor, sql: 'select public.namecard_caller()' },
      { label: 'a person', as: owner, sql: 'select public.namecard_caller()' },
    ],
    'public.namecard_cancel(bigint,text)': [
      {
        label: 'the newest entry of 10^6, and the status after it',
        as: editor,
        sql: `select public.namecard_cancel((select max(n.id) from public.namecard as n where n.card_id = ${card('main')}), 'main')`,
      },
    ],
    'public.namecard_card': [
      {
        label: "a person's cards",
        as: owner,
        sql: 'select * from public.namecard_card limit 1000',
      },
    ],
    'public.namecard_card_add(text,text)': [
      {
        label: 'the last card an account may make',
        as: person,
        sql: `select public.namecard_card_add('bench-last', 'Bench last')`,
      },
    ],
    'public.namecard_card_remove(text)': [
      { label: 'a card', as: owner, sql: `select public.namecard_card_remove('series')` },
    ],
    'public.namecard_card_rename(text,text)': [
      { label: 'main', as: owner, sql: `select public.namecard_card_rename('main', 'Renamed')` },
    ],
    'public.namecard_cards()': [
      { label: "an owner's cards", as: owner, sql: 'select * from public.namecard_cards()' },
    ],
    'public.namecard_count_visit(text,text)': [
      {
        label: 'a visit of main',
        as: anon,
        sql: `select public.namecard_count_visit('qr', 'main')`,
      },
      {
        label: 'a slug never given',
        as: anon,
        sql: `select public.namecard_count_visit('qr', 'never-given')`,
      },
      {
        label: 'a visit of a card whose 100 occurrences in force were ended',
        as: anon,
        sql: `select public.namecard_count_visit('qr', 'ended')`,
      },
    ],
    'public.namecard_end_now(text)': [
      {
        label: "main's entries in force (timelines compared before and after)",
        as: editor,
        sql: `select public.namecard_end_now('main')`,
        http: rpc('namecard_end_now', { card: 'main' }),
      },
      {
        label: '100 series occurrences in force',
        as: { kind: 'token', token: BENCH_TOKENS.busy },
        sql: `select public.namecard_end_now('busy')`,
      },
    ],
    'public.namecard_go(text)': [
      {
        label: "main's lookup",
        as: anon,
        sql: `select * from public.namecard_go('main')`,
        http: { path: 'rpc/namecard_go?card=main', method: 'GET' },
      },
      { label: 'a slug never given', as: anon, sql: `select * from public.namecard_go('never')` },
      {
        label: 'a card whose 100 occurrences in force were ended',
        as: anon,
        sql: `select * from public.namecard_go('ended')`,
        http: { path: 'rpc/namecard_go?card=ended', method: 'GET' },
      },
    ],
    'public.namecard_member_accept(text)': [
      {
        label: "main's open code",
        as: person,
        sql: `select public.namecard_member_accept('${BENCH_INVITATION}')`,
      },
    ],
    'public.namecard_member_invite(text,text,integer)': [
      {
        label: 'an editor',
        as: owner,
        sql: `select public.namecard_member_invite('editor', 'main')`,
      },
    ],
    'public.namecard_member_invites(text)': [
      {
        label: "main's open codes",
        as: owner,
        sql: `select * from public.namecard_member_invites('main')`,
      },
    ],
    'public.namecard_member_remove(text,text)': [
      {
        label: 'a member',
        as: owner,
        sql: `select public.namecard_member_remove('${BENCH_PEOPLE.person}', 'series')`,
      },
    ],
    'public.namecard_member_revoke_invite(bigint,text)': [
      {
        label: 'an open code',
        as: owner,
        sql: `select public.namecard_member_revoke_invite(${ids.invitation}, 'main')`,
      },
    ],
    'public.namecard_member_role(text,text,text)': [
      {
        label: 'a member',
        as: owner,
        sql: `select public.namecard_member_role('${BENCH_PEOPLE.person}', 'editor', 'series')`,
      },
    ],
    'public.namecard_members(text)': [
      { label: "main's members", as: owner, sql: `select * from public.namecard_members('main')` },
    ],
    'public.namecard_occurrences(text,bigint,bigint)': [
      {
        label: '400 days of 100 live series',
        as: viewer,
        sql: `select * from public.namecard_occurrences('main', ${earliest}, ${earliest + 400 * DAY})`,
        http: rpc('namecard_occurrences', {
          card: 'main',
          from_ms: earliest,
          to_ms: earliest + 400 * DAY,
        }),
      },
      {
        label: "a member's 400 days from 400 days back (before the materialised window: expanded)",
        as: owner,
        sql: `select * from public.namecard_occurrences('main', ${earliestPerson}, ${earliestPerson + 400 * DAY})`,
      },
    ],
    'public.namecard_preview(bigint[],text)': [
      {
        label: '10 × a day back',
        as: anon,
        sql: `select * from public.namecard_preview(${instants(earliest)}, 'main')`,
      },
      {
        label: '10 × the end of 2199',
        as: anon,
        sql: `select * from public.namecard_preview(${instants(LAST_INSTANT)}, 'main')`,
        http: rpc('namecard_preview', { at_ms: Array(10).fill(LAST_INSTANT), card: 'main' }),
      },
      {
        label: '10 × 400 days back, by anyone signed in (every entry ended since is read)',
        as: person,
        sql: `select * from public.namecard_preview(${instants(earliestPerson)}, 'main')`,
      },
      {
        label: '10 × now, of a card whose 100 occurrences in force were ended',
        as: anon,
        sql: `select * from public.namecard_preview(${instants(now)}, 'ended')`,
      },
    ],
    'public.namecard_profile': [
      {
        label: "main's 50 profiles",
        as: viewer,
        sql: `select * from public.namecard_profile where card_id = ${card('main')} limit 1000`,
      },
    ],
    'public.namecard_remove_profile(text,text)': [
      {
        label: 'a profile no entry names',
        as: owner,
        sql: `select * from public.namecard_remove_profile('p${EXTRA_PROFILES}', 'main')`,
      },
    ],
    'public.namecard_schema_version()': [
      { label: 'no argument', as: anon, sql: 'select public.namecard_schema_version()' },
    ],
    'public.namecard_series': [
      {
        label: "main's 10^3 series",
        as: viewer,
        sql: `select * from public.namecard_series where card_id = ${card('main')} order by id desc limit 1000`,
      },
    ],
    'public.namecard_series_stop': [
      {
        label: "main's stopped occurrences",
        as: viewer,
        sql: `select * from public.namecard_series_stop where card_id = ${card('main')} limit 1000`,
      },
    ],
    'public.namecard_set(text,bigint,bigint,text)': [
      {
        label: 'an entry for an hour, and the status after it',
        as: editor,
        sql: `select public.namecard_set('photo', null, ${now + 3_600_000}, 'main')`,
        http: rpc('namecard_set', {
          type: 'photo',
          stamp_start: null,
          stamp_end: now + 3_600_000,
          card: 'main',
        }),
      },
    ],
    'public.namecard_set_series(text,smallint[],time without time zone,time without time zone,text,text,date,date)':
      [
        {
          label:
            'a daily series (400 days materialised) beside 99 live ones, and the status after it',
          as: { kind: 'token', token: BENCH_TOKENS.series },
          sql: `select public.namecard_set_series('photo', array[1,2,3,4,5,6,7]::smallint[], '10:00', '18:00', 'Europe/Berlin', 'series')`,
        },
      ],
    'public.namecard_status(text)': [
      {
        label: "main's status",
        as: anon,
        sql: `select * from public.namecard_status('main')`,
        http: { path: 'rpc/namecard_status?card=main', method: 'GET' },
      },
      {
        label: 'a card whose 100 occurrences in force were ended',
        as: anon,
        sql: `select * from public.namecard_status('ended')`,
        http: { path: 'rpc/namecard_status?card=ended', method: 'GET' },
      },
    ],
    'public.namecard_token_create(text,text,text,integer)': [
      {
        label: "main's last token",
        as: owner,
        sql: `select public.namecard_token_create('bench-last', 'main')`,
      },
    ],
    'public.namecard_token_revoke(text,text)': [
      { label: 'a token', as: owner, sql: `select public.namecard_token_revoke('viewer', 'main')` },
    ],
    'public.namecard_tokens(text)': [
      { label: "main's tokens", as: owner, sql: `select * from public.namecard_tokens('main')` },
    ],
    'public.namecard_visit': [
      {
        label: "main's newest 1000 counters",
        as: viewer,
        sql: `select * from public.namecard_visit where card_id = ${card('main')} order by bucket desc limit 1000`,
      },
    ],
    'public.namecard_visit_days(bigint[],text)': [
      {
        label: '31 days × 50 profiles × 3 channels',
        as: viewer,
        sql: `select * from public.namecard_visit_days(${month}, 'main')`,
        http: rpc('namecard_visit_days', {
          day_starts: Array.from({ length: 32 }, (_, i) => dayStart - (31 - i) * DAY),
          card: 'main',
        }),
      },
    ],
  };
}

/**
 * Of the inventory's `names`, those whose calls change nothing: the relations (their calls here
 * read) and the functions PostgreSQL knows as stable or immutable. A flood of one costs each
 * call what the first cost; a write's flood would not (after the first `end`, nothing is left to
 * end).
 * @param emulator its superuser `query`
 */
export async function unchangingEntries(
  emulator: { query: (sql: string, params?: unknown[]) => Promise<unknown> },
  names: readonly string[],
): Promise<Set<string>> {
  const rows = (await emulator.query(
    `select n.name from unnest($1::text[]) as n (name)
     left join pg_proc as p
       on p.oid = case when n.name like '%(%' then to_regprocedure(n.name) end
     where p.oid is null or p.provolatile <> 'v'`,
    [names],
  )) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** What storing the callers' data needs of an emulator. */
interface CallerDataEmulator {
  query: (sql: string, params?: unknown[]) => Promise<unknown>;
  createUser: (
    email: string,
    password: string,
    opts?: { owner?: boolean },
  ) => Promise<{ id: string }>;
}

/**
 * Stores BENCH_TOKENS, as the superuser, each on its card by slug (a token of a card the database
 * does not hold is left out), made by `createdBy`, an owner of those cards: a token is as good as
 * its maker's right.
 */
export async function storeBenchTokens(
  emulator: Pick<CallerDataEmulator, 'query'>,
  createdBy: string,
): Promise<void> {
  const tokens = Object.entries(BENCH_TOKENS).map(([name, secret]) => ({ name, secret }));
  await emulator.query(
    `insert into private.namecard_token (card_id, name, role, hash, created_by)
     select c.id, t.name, case t.name when 'viewer' then 'viewer' else 'editor' end,
       sha256(convert_to(t.secret, 'UTF8')), $1
     from jsonb_to_recordset($2::jsonb) as t (name text, secret text)
     join public.namecard_card as c
       on c.slug = case t.name when 'series' then 'series' when 'busy' then 'busy' else 'main' end`,
    [createdBy, JSON.stringify(tokens)],
  );
}

/**
 * Stores, as the superuser, beside the bench's data in the card main (loadBenchData), what the
 * calls are made as and on, each at its limit where there is one (docs/security.md, "Limits"):
 * the owner of main (with 49 live tokens of main, its last one left to make, an open invitation,
 * visit counters for 31 days of each profile and channel, the latest occurrence over of each
 * live series ended early); `series`, a card with 99 live daily
 * series; `busy`, a card whose 100 daily series are all in force now; `ended`, one whose 100
 * daily series' occurrences in force were all stopped by `end`; a person who has made 19
 * cards (their last one left to make) and is a viewer of `series`; and BENCH_TOKENS.
 * @returns the people's user ids by BENCH_PEOPLE's keys, and the ids the calls name
 */
export async function addCallerData(
  emulator: CallerDataEmulator,
  now: number,
): Promise<{ people: Record<keyof typeof BENCH_PEOPLE, string>; ids: CallerIds }> {
  const owner = (
    await emulator.createUser(BENCH_PEOPLE.owner, 'bench-owner-password', { owner: true })
  ).id;
  const person = (await emulator.createUser(BENCH_PEOPLE.person, 'bench-person-password')).id;
  await emulator.query(
    `with cards as (
       insert into public.namecard_card (slug, name, created_by)
       values ('series', 'Series', $1), ('busy', 'Busy', $1), ('ended', 'Ended', $1) returning id
     ), members as (
       insert into private.namecard_member (card_id, user_id, role) select id, $1, 'owner' from cards
     )
     insert into public.namecard_profile (card_id, name, label)
     select id, p.name, p.label from cards, (values ('main', 'Main Profile'), ('photo', 'Photographer')) as p (name, label)`,
    [owner],
  );
  await emulator.query(
    `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
     select c.id, 'photo', '{1,2,3,4,5,6,7}', make_time(g % 24, 0, 0), make_time((g + 8) % 24, 0, 0), 'Europe/Berlin'
     from public.namecard_card as c, generate_series(1, 99) as g where c.slug = 'series'`,
  );
  await emulator.query(
    `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
     select c.id, 'main', '{1,2,3,4,5,6,7}', '00:00', '00:00', 'UTC'
     from public.namecard_card as c, generate_series(1, 100) as g where c.slug in ('busy', 'ended')`,
  );
  // `ended`: its 100 occurrences in force were stopped by `end` a minute ago.
  await emulator.query(
    `insert into public.namecard_series_stop (card_id, series_id, occurrence_start, stopped_at)
     select o.card_id, o.series_id, o.stamp_start, greatest(o.stamp_start, $1::bigint - 60000)
     from private.namecard_occurrence as o
     join public.namecard_card as c on c.id = o.card_id and c.slug = 'ended'
     where o.stamp_start <= $1 and o.planned_end > $1`,
    [now],
  );
  await emulator.query(
    `with made as (
       insert into public.namecard_card (slug, name, created_by)
       select 'person-' || g, 'Person ' || g, $1 from generate_series(1, 19) as g returning id
     )
     insert into private.namecard_member (card_id, user_id, role)
     select id, $1, 'owner' from made
     union all select id, $1, 'viewer' from public.namecard_card where slug = 'series'`,
    [person],
  );
  await storeBenchTokens(emulator, owner);
  await emulator.query(
    `insert into private.namecard_token (card_id, name, role, hash, created_by)
     select c.id, 'spare-' || g, 'viewer', sha256(convert_to('spare-' || g, 'UTF8')), $1
     from public.namecard_card as c, generate_series(1, 47) as g where c.slug = 'main'`,
    [owner],
  );
  await emulator.query(
    `insert into private.namecard_invitation (card_id, role, code_hash, expires_at, created_by)
     select c.id, 'viewer', sha256(convert_to($2, 'UTF8')), now() + interval '7 days', $1
     from public.namecard_card as c where c.slug = 'main'`,
    [owner, BENCH_INVITATION],
  );
  await emulator.query(
    `insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
     select p.card_id, b, p.name, v.via, 1, row_number() over (partition by p.name, v.via order by b)
     from public.namecard_profile as p
     join public.namecard_card as c on c.id = p.card_id and c.slug = 'main'
     cross join (values ('qr'), ('nfc'), ('link')) as v (via)
     cross join generate_series(($1::bigint - 32 * ${DAY}::bigint) / 900000 * 900000, $1::bigint, 10800000::bigint) as b`,
    [now],
  );
  // What `end` leaves behind in a card in use: the latest occurrence over of each live series of
  // main, ended a minute after it began.
  await emulator.query(
    `insert into public.namecard_series_stop (card_id, series_id, occurrence_start, stopped_at)
     select o.card_id, o.series_id, max(o.stamp_start), max(o.stamp_start) + 60000
     from private.namecard_occurrence as o
     join public.namecard_series as s on s.id = o.series_id and s.stopped_at is null
     join public.namecard_card as c on c.id = o.card_id and c.slug = 'main'
     where o.planned_end < $1
     group by o.card_id, o.series_id`,
    [now],
  );
  await emulator.query('vacuum analyze');
  const rows = (await emulator.query(
    `select (select jsonb_object_agg(slug, id) from public.namecard_card
       where slug in ('main', 'series', 'busy', 'ended')) as cards,
       (select max(id) from private.namecard_invitation) as invitation`,
  )) as { cards: CallerIds['cards']; invitation: number }[];
  const { cards, invitation } = rows[0]!;
  return { people: { owner, person }, ids: { cards, invitation: Number(invitation) } };
}
