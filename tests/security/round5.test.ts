import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { DB_KINDS, startTestEmulator, MAIN_CARD_SQL } from '../support/emulator.js';

// What bounds the work anyone may ask of the database, each rule as an attacker tries it, on both
// databases: anon cannot make the database expand an arbitrary range or walk the timeline as far
// as it likes, a signed-out session writes nothing by plain REST, no value a table allows stops
// the status, the lookups or the owners' writes, and a card has at most 100 live series.

const OWNER = { email: 'owner@round5.test', password: 'owner-password-5' };
const DAY = 86_400_000;
/** The first instant the tables refuse: 2200-01-01T00:00:00Z (epoch ms). */
const END_OF_2199 = 7_258_118_400_000;

interface Answer {
  status: number;
  body: unknown;
}

describe.each(DB_KINDS)('security round 5 over %s', { timeout: 300_000 }, (kind) => {
  let emulator: RunningEmulator;

  /** One PostgREST request as `token` (the anon key unless given), JSON in and out. */
  const rest = async (
    path: string,
    init: { method?: string; body?: unknown; token?: string; prefer?: string } = {},
  ): Promise<Answer> => {
    const token = init.token ?? emulator.anonKey;
    const res = await fetch(`${emulator.url}/rest/v1/${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        apikey: emulator.anonKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(init.prefer ? { prefer: init.prefer } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  const rpc = (fn: string, args: unknown, token?: string) =>
    rest(`rpc/${fn}`, { body: args, ...(token ? { token } : {}) });
  /** The owner's access token of a new session (password grant). */
  const signIn = async (): Promise<string> => {
    const res = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify(OWNER),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const dbNow = async () =>
    Number(
      (
        await emulator.query<{ now: number }>(
          'select (extract(epoch from now()) * 1000)::bigint as now',
        )
      )[0]!.now,
    );
  const refusal = (answer: Answer) => answer.body as { code?: string; message?: string };

  beforeAll(async () => {
    emulator = await startTestEmulator(kind, { owner: OWNER });
  });
  afterAll(() => emulator?.stop());

  describe('no anon function expands an arbitrary range', () => {
    it("refuses anon namecard_occurrences with 404 PT404: a series' expansion is its card's members'", async () => {
      const now = await dbNow();
      const answer = await rpc('namecard_occurrences', {
        card: MAIN_CARD,
        from_ms: now,
        to_ms: now + DAY,
      });
      expect(answer.status).toBe(404);
      expect(refusal(answer)).toMatchObject({ code: 'PT404', details: 'no such card' });
    });

    it('the rule itself is no function of the API: namecard_in_force_at and the exact expansion answer 404', async () => {
      const now = await dbNow();
      // The rule takes its card's id first (1: the card main).
      for (const [fn, args] of [
        ['namecard_in_force_at', { card: 1, at_ms: now, series: 'lookup' }],
        ['namecard_in_force_at', { card: 1, at_ms: 0, series: 'exact' }],
        ['namecard_series_at_of', { card: 1, at_ms: now }],
        ['namecard_occurrences_of', { card: 1, from_ms: 0, to_ms: END_OF_2199 - 1 }],
      ] as const) {
        const answer = await rpc(fn, args);
        expect(answer.status, JSON.stringify(args)).toBe(404);
        expect(refusal(answer).code, fn).toBe('PGRST202');
      }
    });

    it('refuses, as anon, every lookup at an instant over a day back or past 2199 (400 22023 naming it)', async () => {
      const now = await dbNow();
      const calls: [string, (at: number) => unknown][] = [
        ['namecard_preview', (at) => ({ at_ms: [at], card: MAIN_CARD })],
      ];
      for (const [fn, args] of calls) {
        for (const at of [0, now - 400 * DAY, now - 2 * DAY, END_OF_2199]) {
          const answer = await rpc(fn, args(at));
          expect(answer.status, `${fn}(${at})`).toBe(400);
          expect(refusal(answer), `${fn}(${at})`).toMatchObject({
            code: '22023',
            message: `at_ms must be an instant (epoch ms) from a day ago to the end of 2199, not ${at}`,
          });
        }
        // The bounds themselves are answered.
        for (const at of [now + 60_000 - DAY, END_OF_2199 - 1]) {
          expect((await rpc(fn, args(at))).status, `${fn}(${at})`).toBe(200);
        }
      }
    });
  });

  describe("the walk is not anon's, preview asks about at most 10 instants", () => {
    it('the timeline walk and its steps are no functions of the API: 404', async () => {
      const now = await dbNow();
      for (const [fn, args] of [
        // The walk takes its card's id first (1: the card main).
        ['namecard_timeline_until', { card: 1, at_ms: now, until_ms: null, max_segments: 1000 }],
        ['namecard_timeline_step', { card: 1, t: now, series: 'lookup', fast_until: now }],
        ['namecard_card_next_start', { card: 1, after_ms: now, newer_than: -1, before_ms: null }],
        ['namecard_timeline_text', { card: 1, now_ms: now, horizon: END_OF_2199 - 1 }],
      ] as const) {
        const answer = await rpc(fn, args);
        expect(answer.status, fn).toBe(404);
        expect(refusal(answer).code, fn).toBe('PGRST202');
      }
    });

    it('refuses preview with 11 instants (400 22023) and answers 10', async () => {
      const now = await dbNow();
      const instants = Array.from({ length: 11 }, (_, i) => now + (i + 1) * 3_600_000);
      const eleven = await rpc('namecard_preview', { at_ms: instants, card: MAIN_CARD });
      expect(eleven.status).toBe(400);
      expect(refusal(eleven)).toMatchObject({
        code: '22023',
        message: 'at_ms must hold at most 10 instants, not 11',
      });
      const ten = await rpc('namecard_preview', { at_ms: instants.slice(0, 10), card: MAIN_CARD });
      expect(ten.status).toBe(200);
      expect(ten.body).toHaveLength(10);
    });

    it('refuses a preview instant past 2199 (400 22023)', async () => {
      const answer = await rpc('namecard_preview', { at_ms: [END_OF_2199], card: MAIN_CARD });
      expect(answer.status).toBe(400);
      expect(refusal(answer).code).toBe('22023');
    });
  });

  describe('a signed-out session writes nothing by plain REST', () => {
    it('after POST /auth/v1/logout?scope=global the old access token stores and changes nothing', async () => {
      const token = await signIn();
      const before = await emulator.query(
        `select (select count(*) from public.namecard)::int as entries,
           (select count(*) from public.namecard_series)::int as series,
           (select json_agg(p order by p.name) from (select name, label, url
              from public.namecard_profile) as p) as profiles`,
      );
      // The session is live: the token writes (so that the refusals below are the session's).
      const live = await rest('namecard_profile?name=eq.photo', {
        method: 'PATCH',
        body: { label: 'Photos' },
        token,
        prefer: 'return=representation',
      });
      expect(live.status).toBe(200);
      expect(live.body).toEqual([expect.objectContaining({ name: 'photo', label: 'Photos' })]);
      const snapshot = await emulator.query(
        `select (select count(*) from public.namecard)::int as entries,
           (select count(*) from public.namecard_series)::int as series,
           (select json_agg(p order by p.name) from (select name, label, url
              from public.namecard_profile) as p) as profiles`,
      );
      expect(snapshot).not.toEqual(before);

      const out = await fetch(`${emulator.url}/auth/v1/logout?scope=global`, {
        method: 'POST',
        headers: { apikey: emulator.anonKey, authorization: `Bearer ${token}` },
      });
      expect(out.status).toBe(204);

      const now = await dbNow();
      const card_id = 1;
      const inserts: [string, unknown][] = [
        ['namecard', { card_id, type: 'photo', stamp_end: now + DAY }],
        [
          'namecard_profile',
          { card_id, name: 'stolen', label: 'Stolen', url: 'https://evil.example/' },
        ],
        [
          'namecard_series',
          {
            card_id,
            type: 'photo',
            weekdays: [1, 2, 3, 4, 5, 6, 7],
            start_time: '00:00',
            end_time: '23:59',
            time_zone: 'Europe/Berlin',
          },
        ],
      ];
      for (const [table, body] of inserts) {
        const answer = await rest(table, { body, token, prefer: 'return=representation' });
        // The owners' insert policy asks for a live session, and nobody inserts entries or series
        // through the table at all: 42501, PostgREST's 403.
        expect(answer.status, table).toBe(403);
        expect(refusal(answer).code, table).toBe('42501');
      }
      for (const change of [{ url: 'https://evil.example/' }, { label: 'Stolen' }]) {
        const answer = await rest('namecard_profile?name=eq.photo', {
          method: 'PATCH',
          body: change,
          token,
          prefer: 'return=representation',
        });
        // The update policy's USING asks for a live session: the row is not the token's to
        // change, so nothing matches and nothing is answered.
        expect(answer.body, JSON.stringify(change)).toEqual([]);
      }
      const set = await rpc(
        'namecard_set',
        { type: 'photo', stamp_start: null, stamp_end: now + DAY, card: MAIN_CARD },
        token,
      );
      expect(set.status).toBe(401);
      expect(
        await emulator.query(
          `select (select count(*) from public.namecard)::int as entries,
           (select count(*) from public.namecard_series)::int as series,
           (select json_agg(p order by p.name) from (select name, label, url
              from public.namecard_profile) as p) as profiles`,
        ),
      ).toEqual(snapshot);
    });
  });

  describe('no value a table allows stops the status, the lookups or the writes', () => {
    const SERIES = {
      type: 'photo',
      weekdays: [6],
      start_time: '10:00',
      end_time: '18:00',
      time_zone: 'Europe/Berlin',
    };

    it('refuses a series whose first date is 294276-12-25 (400 23514); plain REST stores no series at all', async () => {
      const token = await signIn();
      const far = await rpc(
        'namecard_set_series',
        { ...SERIES, first_date: '294276-12-25', card: MAIN_CARD },
        token,
      );
      expect(far.status).toBe(400);
      expect(refusal(far)).toMatchObject({ code: '23514' });
      expect(refusal(far).message).toContain('namecard_series_dates_range');
      const call = await rpc(
        'namecard_set_series',
        { ...SERIES, last_date: '2200-01-01', card: MAIN_CARD },
        token,
      );
      expect(call.status).toBe(400);
      expect(refusal(call).code).toBe('23514');
      const plain = await rest('namecard_series', {
        body: { ...SERIES, card_id: 1, first_date: '294276-12-25' },
        token,
      });
      expect(plain.status).toBe(403);
      expect(refusal(plain).code).toBe('42501');
      expect(await emulator.query('select id from public.namecard_series')).toEqual([]);
    });

    it('answers every function and view after the worst values the constraints allow are stored in every table', async () => {
      const last = END_OF_2199 - 1;
      await emulator.query(`
        insert into public.namecard_profile (card_id, name, label, url)
        values (${MAIN_CARD_SQL}, 'worst', repeat('W', 60), 'https://worst.example/' || repeat('a', 2026));
        insert into public.namecard (card_id, type, stamp_start, stamp_end)
        select ${MAIN_CARD_SQL}, x.type, x.s, x.e
        from (values ('worst', 0::bigint, ${last}::bigint), ('worst', null, ${last}),
          ('photo', ${last - 1}, ${last}), ('worst', 0, 1)) as x (type, s, e);
        insert into public.namecard (card_id, type, stamp_start, stamp_end, stopped_at, stop_kind, planned_end)
        values (${MAIN_CARD_SQL}, 'photo', 0, 1, ${last}, 'ended', ${last}),
          (${MAIN_CARD_SQL}, 'photo', null, ${last}, 0, 'cancelled', ${last});
        insert into public.namecard_series
          (card_id, type, weekdays, start_time, end_time, time_zone, first_date, last_date, stopped_at, stop_kind)
        select ${MAIN_CARD_SQL}, x.*
        from (values
          -- Past midnight in the most westerly zone: its last occurrence ends in 2200 (UTC).
          ('worst', '{1,2,3,4,5,6,7}'::smallint[], '23:59'::time, '00:00'::time, 'Etc/GMT+12', '1970-01-01'::date, '2199-12-31'::date, null::bigint, null),
          -- A whole day every day, endless, in the most easterly zone.
          ('worst', '{1,2,3,4,5,6,7}', '00:00', '00:00', 'Pacific/Kiritimati', null, null, null, null),
          ('photo', '{7}', '02:00', '02:30', 'Australia/Lord_Howe', '2199-12-31', '2199-12-31', null, null),
          ('worst', '{1}', '10:00', '11:00', 'Europe/Berlin', '1970-01-01', '2199-12-31', ${last}, 'cancelled'),
          ('worst', '{2}', '10:00', '11:00', 'Europe/Berlin', '1970-01-01', '2199-12-31', 0, 'cancelled')
        ) as x;
        insert into public.namecard_series_stop (card_id, series_id, occurrence_start, stopped_at)
        select ${MAIN_CARD_SQL}, s.id, 0, ${last} from public.namecard_series as s;
        insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
        select ${MAIN_CARD_SQL}, b.bucket, p.name, v.via, 1000000000000000, 1000000000000000
        from (values (0::bigint), (${END_OF_2199 - 900_000}::bigint)) as b (bucket)
        cross join (values ('main'), ('photo'), ('worst')) as p (name)
        cross join (values ('qr'), ('nfc'), ('link')) as v (via);
      `);
      const now = await dbNow();
      const token = await signIn();
      const ok = (what: string, answer: Answer) => {
        expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      };
      const card = MAIN_CARD;
      // What anyone may read or call.
      ok('namecard_go', await rest(`rpc/namecard_go?card=${card}`));
      const status = await rest(`rpc/namecard_status?card=${card}`);
      ok('namecard_status', status);
      expect((status.body as { timeline: unknown[] }[])[0]!.timeline.length).toBeGreaterThan(0);
      ok('preview', await rpc('namecard_preview', { at_ms: [now, now + DAY, last], card }));
      ok('schema_version', await rpc('namecard_schema_version', {}));
      ok('entries (signed out)', await rest('namecard?select=id,type,stamp_start,stamp_end'));
      ok('series (signed out)', await rest('namecard_series?select=id,first_date,last_date'));
      ok('stops (signed out)', await rest('namecard_series_stop?select=series_id,stopped_at'));
      const counted = await fetch(
        `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `via=qr&card=${card}`,
        },
      );
      expect(counted.status).toBe(204);
      // The owner's reads and writes.
      ok('status (owner)', await rest(`rpc/namecard_status?card=${card}`, { token }));
      ok('list (owner)', await rest('namecard?select=*&order=id.desc', { token }));
      ok('visit_days', await rpc('namecard_visit_days', { day_starts: [0, 900_000], card }, token));
      ok(
        'occurrences',
        await rpc('namecard_occurrences', { from_ms: now, to_ms: now + DAY, card }, token),
      );
      const set = await rpc(
        'namecard_set',
        { type: 'photo', stamp_start: null, stamp_end: now + DAY, card },
        token,
      );
      ok('set', set);
      ok(
        'set_series',
        await rpc('namecard_set_series', { ...SERIES, last_date: '2199-12-31', card }, token),
      );
      ok('end_now', await rpc('namecard_end_now', { card }, token));
      const [series] = await emulator.query<{ id: number }>(
        'select id from public.namecard_series where stopped_at is null order by id limit 1',
      );
      ok('cancel', await rpc('namecard_cancel', { entry_id: Number(series!.id), card }, token));
      ok('profile', await rest('namecard_profile?name=eq.worst', { token }));
    });

    it("answers every call of any card after the worst values are stored in that card's rows", async () => {
      const last = END_OF_2199 - 1;
      const token = await signIn();
      expect((await rpc('namecard_card_add', { slug: 'worst-card' }, token)).status).toBe(200);
      await emulator.query(`
        with c as (select id from public.namecard_card where slug = 'worst-card')
        insert into public.namecard_profile (card_id, name, label, url)
        select c.id, 'worst', repeat('W', 60), 'https://worst.example/' || repeat('a', 2026) from c;
        insert into public.namecard (card_id, type, stamp_start, stamp_end)
        select c.id, x.type, x.s, x.e
        from public.namecard_card as c
        cross join (values ('worst', 0::bigint, ${last}::bigint), ('worst', null, ${last}),
          ('photo', ${last - 1}, ${last}), ('worst', 0, 1)) as x (type, s, e)
        where c.slug = 'worst-card';
        insert into public.namecard_series
          (card_id, type, weekdays, start_time, end_time, time_zone, first_date, last_date, stopped_at, stop_kind)
        select c.id, x.*
        from public.namecard_card as c
        cross join (values
          ('worst', '{1,2,3,4,5,6,7}'::smallint[], '23:59'::time, '00:00'::time, 'Etc/GMT+12', '1970-01-01'::date, '2199-12-31'::date, null::bigint, null),
          ('worst', '{1,2,3,4,5,6,7}', '00:00', '00:00', 'Pacific/Kiritimati', null, null, null, null),
          ('worst', '{1}', '10:00', '11:00', 'Europe/Berlin', '1970-01-01', '2199-12-31', ${last}, 'cancelled')
        ) as x
        where c.slug = 'worst-card';
        insert into public.namecard_series_stop (card_id, series_id, occurrence_start, stopped_at)
        select s.card_id, s.id, 0, ${last}
        from public.namecard_series as s join public.namecard_card as c on c.id = s.card_id
        where c.slug = 'worst-card';
        insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
        select c.id, b.bucket, p.name, 'qr', 1000000000000000, 1000000000000000
        from public.namecard_card as c
        cross join (values (0::bigint), (${END_OF_2199 - 900_000}::bigint)) as b (bucket)
        cross join (values ('main'), ('photo'), ('worst')) as p (name)
        where c.slug = 'worst-card';
      `);
      const now = await dbNow();
      const card = 'worst-card';
      const ok = (what: string, answer: Answer) => {
        expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      };
      // What /go asks for the slug, as anon: the lookup and the count.
      ok('go', await rest(`rpc/namecard_go?card=${card}`));
      const counted = await fetch(
        `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `via=qr&card=${card}`,
        },
      );
      expect(counted.status).toBe(204);
      // The owner's reads and writes of that card.
      const status = await rpc('namecard_status', { card }, token);
      ok('status', status);
      expect((status.body as { timeline: unknown[] }[])[0]!.timeline.length).toBeGreaterThan(0);
      ok('preview', await rpc('namecard_preview', { at_ms: [now, now + DAY, last], card }, token));
      ok('visit_days', await rpc('namecard_visit_days', { day_starts: [0, 900_000], card }, token));
      ok(
        'set',
        await rpc(
          'namecard_set',
          { type: 'photo', stamp_start: null, stamp_end: now + DAY, card },
          token,
        ),
      );
      ok(
        'set_series',
        await rpc('namecard_set_series', { ...SERIES, last_date: '2199-12-31', card }, token),
      );
      ok('end_now', await rpc('namecard_end_now', { card }, token));
      const [series] = await emulator.query<{ id: number }>(
        `select s.id from public.namecard_series as s join public.namecard_card as c on c.id = s.card_id
         where c.slug = 'worst-card' and s.stopped_at is null order by s.id limit 1`,
      );
      ok('cancel', await rpc('namecard_cancel', { entry_id: Number(series!.id), card }, token));
      // The bounds hold for the card too: at most 10 instants, none past 2199.
      const eleven = await rpc(
        'namecard_preview',
        { at_ms: Array.from({ length: 11 }, (_, i) => now + i), card },
        token,
      );
      expect(eleven.status).toBe(400);
      expect(refusal(eleven).code).toBe('22023');
      const past = await rpc('namecard_preview', { at_ms: [END_OF_2199], card }, token);
      expect(past.status).toBe(400);
      expect(refusal(past).code).toBe('22023');
    });
  });

  describe('at most 100 live series a card', () => {
    it('refuses the 101st live series naming the limit and how to cancel, and the status answers with 100', async () => {
      const token = await signIn();
      // A clean card: only this test's series count.
      await emulator.query(
        `update public.namecard_series set stopped_at = (extract(epoch from now()) * 1000)::bigint,
           stop_kind = 'cancelled'
         where stopped_at is null or stopped_at > (extract(epoch from now()) * 1000)::bigint`,
      );
      await emulator.query(`
        insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
        select ${MAIN_CARD_SQL}, case when g % 2 = 0 then 'photo' else 'main' end, array[1 + g % 7]::smallint[],
          make_time(g % 24, 0, 0), make_time((g + 1) % 24, 0, 0), 'Europe/Berlin'
        from generate_series(1, 100) as g`);
      const series = {
        ...{ type: 'photo', weekdays: [3] },
        start_time: '09:00',
        end_time: '10:00',
      };
      const refused = await rpc(
        'namecard_set_series',
        { ...series, time_zone: 'Europe/Berlin', card: MAIN_CARD },
        token,
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: '23514',
        message: 'a card has at most 100 live weekly series, and this one has 100',
        hint: 'Cancel one first: namecard list shows their ids, namecard cancel <id> stops one.',
      });
      // Nor does plain REST store one: nobody inserts series through the table.
      const plain = await rest('namecard_series', {
        body: { ...series, time_zone: 'Europe/Berlin', card_id: 1 },
        token,
      });
      expect(plain.status).toBe(403);
      expect(refusal(plain).code).toBe('42501');
      const [count] = await emulator.query<{ live: number }>(
        'select count(*)::int as live from public.namecard_series where stopped_at is null',
      );
      expect(count!.live).toBe(100);
      const status = await rest(`rpc/namecard_status?card=${MAIN_CARD}`);
      expect(status.status).toBe(200);
      const [row] = status.body as { series_ahead: unknown[]; timeline: unknown[] }[];
      expect(row!.series_ahead).toHaveLength(100);
      expect(row!.timeline).toHaveLength(24);
      // Cancelling one makes room again.
      const [first] = await emulator.query<{ id: number }>(
        'select id from public.namecard_series where stopped_at is null order by id limit 1',
      );
      expect(
        (await rpc('namecard_cancel', { entry_id: Number(first!.id), card: MAIN_CARD }, token))
          .status,
      ).toBe(200);
      expect(
        (
          await rpc(
            'namecard_set_series',
            { ...series, time_zone: 'Europe/Berlin', card: MAIN_CARD },
            token,
          )
        ).status,
      ).toBe(200);
    });

    it("counts per card: a full card does not stop another's series, and the other's 101st is refused", async () => {
      const token = await signIn();
      const fill = (card: string, n: number) =>
        emulator.query(
          `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
           select c.id, 'main', array[1 + g % 7]::smallint[], make_time(g % 24, 0, 0),
             make_time((g + 1) % 24, 0, 0), 'UTC'
           from public.namecard_card as c cross join generate_series(1, $2::integer) as g
           where c.slug = $1`,
          [card, n],
        );
      const liveOf = async (card: string) =>
        (
          await emulator.query<{ live: number }>(
            `select count(*)::int as live from public.namecard_series as s
             join public.namecard_card as c on c.id = s.card_id
             where c.slug = $1 and s.stopped_at is null`,
            [card],
          )
        )[0]!.live;
      const series = { type: 'main', weekdays: [5], start_time: '07:00', end_time: '08:00' };
      expect((await rpc('namecard_card_add', { slug: 'second-card' }, token)).status).toBe(200);
      await fill('main', 100 - (await liveOf('main')));
      expect(await liveOf('main')).toBe(100);
      const first = await rpc(
        'namecard_set_series',
        { ...series, time_zone: 'UTC', card: MAIN_CARD },
        token,
      );
      expect(first.status).toBe(400);
      expect(refusal(first).code).toBe('23514');
      // The card main is full; the second card still takes series, up to its own 100.
      const second = { ...series, time_zone: 'UTC', card: 'second-card' };
      expect((await rpc('namecard_set_series', second, token)).status).toBe(200);
      await fill('second-card', 99);
      expect(await liveOf('second-card')).toBe(100);
      const over = await rpc('namecard_set_series', second, token);
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({
        code: '23514',
        message: 'a card has at most 100 live weekly series, and this one has 100',
      });
      expect(await liveOf('second-card')).toBe(100);
    });
  });
});
