import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD as card } from '../../shared/core/cards.js';
import { DB_KINDS, MAIN_CARD_SQL, startTestEmulator } from '../support/emulator.js';
import { startWithCallers } from '../support/clients.js';
import { insertFromDbNow } from '../support/entries.js';

// Visit counts: anon counts one visit of a card with a CORS-simple POST (a form naming the
// channel and the card, the anon key as ?apikey=, no other header) to
// /rest/v1/rpc/namecard_count_visit; the profile counted is the one namecard_go answers for that
// card, whatever the body says; only the card's members read the counts; the emulator limits
// counting per client address.

const BUCKET_MS = 15 * 60_000;

interface Count {
  bucket: number;
  type: string;
  via: string;
  visits: number;
}

/**
 * One visit of the card main as /go sends it: POST of a form (`via=qr&card=main`), apikey in the
 * query, no other header.
 */
async function countVisit(emulator: RunningEmulator, via: string, from?: string) {
  return fetch(`${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`, {
    method: 'POST',
    headers: from ? { 'X-Forwarded-For': from } : {},
    body: new URLSearchParams({ via, card }),
  });
}

const counts = async (emulator: RunningEmulator) =>
  (
    await emulator.query<Count>(
      'select bucket, type, via, visits from public.namecard_visit order by type, via',
    )
  ).map((r) => ({ ...r, bucket: Number(r.bucket), visits: Number(r.visits) }));

describe.each(DB_KINDS)('visit counts over %s', { timeout: 60_000 }, (kind) => {
  let emulator: RunningEmulator;
  let anon: SupabaseClient;
  let owner: SupabaseClient;
  let stranger: SupabaseClient;

  beforeAll(async () => {
    ({ emulator, anon, owner, stranger } = await startWithCallers(kind));
  });
  afterAll(() => emulator?.stop());
  beforeEach(async () => {
    await emulator.query('truncate public.namecard_visit; truncate public.namecard');
  });

  test('anon counts visits by channel with a form POST; anything but qr/nfc is link', async () => {
    const before = Date.now();
    for (const body of ['qr', 'qr', 'nfc', '', 'link', 'email', ' QR ']) {
      const res = await countVisit(emulator, body);
      expect(res.status).toBe(204);
    }
    const rows = await counts(emulator);
    expect(rows.map(({ type, via, visits }) => ({ type, via, visits }))).toEqual([
      { type: 'main', via: 'link', visits: 3 },
      { type: 'main', via: 'nfc', visits: 1 },
      { type: 'main', via: 'qr', visits: 3 },
    ]);
    // Each counter carries its running total (one bucket here, so the count itself).
    const running = await emulator.query<{ ok: boolean }>(
      'select bool_and(running = visits) as ok from public.namecard_visit',
    );
    expect(running).toEqual([{ ok: true }]);
    for (const row of rows) {
      expect(row.bucket % BUCKET_MS).toBe(0);
      expect(row.bucket).toBeGreaterThan(before - 2 * BUCKET_MS);
      expect(row.bucket).toBeLessThanOrEqual(Date.now());
    }
  });

  test('a visit of a slug no live card has answers 204 like any other and counts nothing', async () => {
    for (const slug of ['never-given', 'MAIN ', 'x']) {
      const res = await fetch(
        `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
        { method: 'POST', body: new URLSearchParams({ via: 'qr', card: slug }) },
      );
      expect(res.status, slug).toBe(204);
    }
    // A slug is matched as a link names it: lower case, blanks around ignored.
    expect((await counts(emulator)).map(({ type, via, visits }) => [type, via, visits])).toEqual([
      ['main', 'qr', 1],
    ]);
  });

  test('counts sent together are all kept, the running total with them', async () => {
    await emulator.query(
      `insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
       values (${MAIN_CARD_SQL}, 0, 'main', 'qr', 7, 7)`,
    );
    const answers = await Promise.all(Array.from({ length: 30 }, () => countVisit(emulator, 'qr')));
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(204));
    const rows = await emulator.query<{ visits: number; running: number }>(
      `select visits, running from public.namecard_visit where bucket > 0 and via = 'qr'`,
    );
    expect(rows.map((r) => ({ visits: Number(r.visits), running: Number(r.running) }))).toEqual([
      { visits: 30, running: 37 },
    ]);
  });

  test('counts the profile namecard_go answers, whatever the body says', async () => {
    await insertFromDbNow(emulator, 'photo', null, 3_600_000);
    expect((await countVisit(emulator, 'main')).status).toBe(204);
    expect((await countVisit(emulator, 'qr')).status).toBe(204);
    expect(
      (await counts(emulator)).map(({ type, via, visits }) => ({ type, via, visits })),
    ).toEqual([
      { type: 'photo', via: 'link', visits: 1 },
      { type: 'photo', via: 'qr', visits: 1 },
    ]);
    // A form POST with named arguments finds no function to choose the profile with.
    const form = await fetch(
      `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'type=main&via=qr&card=main',
      },
    );
    expect(form.status).toBe(404);
    expect((await counts(emulator)).reduce((n, r) => n + r.visits, 0)).toBe(2);
  });

  test('anon and a signed-in non-member read no counts; the owner reads them', async () => {
    await countVisit(emulator, 'nfc');
    const asAnon = await anon.from('namecard_visit').select('bucket,type,via,visits');
    expect(asAnon).toMatchObject({ data: [], error: null, status: 200 });

    const asStranger = await stranger.from('namecard_visit').select('bucket,type,via,visits');
    expect(asStranger).toMatchObject({ data: [], error: null, status: 200 });

    const asOwner = await owner.from('namecard_visit').select('type,via,visits');
    expect(asOwner).toMatchObject({
      data: [{ type: 'main', via: 'nfc', visits: 1 }],
      error: null,
    });
  });

  test("namecard_visit_days sums the buckets per given day for the card's members only", async () => {
    const day = 86_400_000;
    const start = Date.UTC(2030, 5, 1);
    await emulator.query(
      `insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
       select ${MAIN_CARD_SQL}, v.* from (values
         ($1::bigint, 'main', 'qr', 2, 2), ($2, 'main', 'qr', 3, 5), ($3, 'photo', 'nfc', 4, 4),
         ($4, 'main', 'link', 9, 9)) as v`,
      // Day 1's first and last bucket, day 2's first, and one bucket past the end.
      [start, start + day - BUCKET_MS, start + day, start + 2 * day],
    );
    const days = [start, start + day, start + 2 * day];
    const asOwner = await owner.rpc('namecard_visit_days', { day_starts: days, card });
    expect(asOwner.error).toBeNull();
    expect(asOwner.data).toEqual([
      { day: 1, type: 'main', via: 'qr', visits: 5 },
      { day: 2, type: 'photo', via: 'nfc', visits: 4 },
    ]);
    // Whoever is no member of the card (a stranger, anon without a card token) is told that
    // none of their cards has that name.
    for (const caller of [stranger, anon]) {
      const refused = await caller.rpc('namecard_visit_days', { day_starts: days, card });
      expect(refused.data).toBeNull();
      expect(refused.status).toBe(404);
      expect(refused.error).toMatchObject({ code: 'PT404', details: 'no such card' });
    }
  });

  test('a JSON body to the counting function is parsed bounded: too deep is 400, nothing counted', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await fetch(
      `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: deep },
    );
    expect(res.status).toBe(400);
    // An array body is a call per element, each an object with the same keys (PostgREST 12).
    expect(await res.json()).toMatchObject({
      code: 'PGRST102',
      message: 'All object keys must match',
    });
    expect(await counts(emulator)).toEqual([]);
  });

  test('no one writes the counts through the table, and anon calls no other function here', async () => {
    const insert = await anon
      .from('namecard_visit')
      .insert({ card_id: 1, bucket: 0, type: 'main', via: 'qr', visits: 1000 });
    expect(insert.status).toBe(401);
    const ownerInsert = await owner
      .from('namecard_visit')
      .insert({ card_id: 1, bucket: 0, type: 'main', via: 'qr', visits: 1000 });
    expect(ownerInsert.status).toBe(403);
    const ownerUpdate = await owner.from('namecard_visit').update({ visits: 5 }).eq('via', 'qr');
    expect(ownerUpdate.status).toBe(403);
    expect(await counts(emulator)).toEqual([]);
    const granted = await emulator.query<{ fn: string }>(
      `select p.oid::regprocedure::text as fn from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname like 'namecard%'
         and has_function_privilege('anon', p.oid, 'EXECUTE')
         and p.prosecdef
       order by 1`,
    );
    // Besides counting, anon may run only what the inventory of docs/security.md lists
    // (tests/security/anon-inventory.test.ts): what visitors of any card's link may learn
    // (namecard_go, namecard_status, namecard_preview: an unknown slug answers as a card with
    // nothing set), who calls and their cards (namecard_caller, namecard_cards: none for anon),
    // and the members' functions, which a card token (a request of the anon role with the header
    // x-namecard-token) calls as a member of its card and which refuse anon without one (no such
    // card); the names in code-point order.
    expect(granted.map((r) => r.fn).sort()).toEqual([
      'namecard_caller()',
      'namecard_cancel(bigint,text)',
      'namecard_cards()',
      'namecard_count_visit(text,text)',
      'namecard_end_now(text)',
      'namecard_go(text)',
      'namecard_occurrences(text,bigint,bigint)',
      'namecard_preview(bigint[],text)',
      'namecard_set(text,bigint,bigint,text)',
      'namecard_set_series(text,smallint[],time without time zone,time without time zone,text,text,date,date)',
      'namecard_status(text)',
      'namecard_visit_days(bigint[],text)',
    ]);
  });
});

describe.each(DB_KINDS)('the visit limit over %s', { timeout: 60_000 }, (kind) => {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await emulator?.stop();
    emulator = undefined;
  });

  test('an address over its visits per window gets 429 and counts no more; another address still counts', async () => {
    emulator = await startTestEmulator(kind, {
      rateLimits: { visits: 5, header: 'X-Forwarded-For' },
    });
    const flood = await Promise.all(
      Array.from({ length: 9 }, () => countVisit(emulator!, 'qr', '203.0.113.9')),
    );
    expect(flood.map((r) => r.status).sort()).toEqual([
      ...Array(5).fill(204),
      ...Array(4).fill(429),
    ]);
    const refused = flood.find((r) => r.status === 429)!;
    expect(await refused.json()).toMatchObject({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
    expect((await countVisit(emulator, 'qr', '198.51.100.4')).status).toBe(204);
    expect((await counts(emulator)).reduce((n, r) => n + r.visits, 0)).toBe(6);
    // The limit is for counting only: lookups from the limited address go on.
    const lookup = await fetch(
      `${emulator.url}/rest/v1/rpc/namecard_go?card=main&select=id,type&apikey=${emulator.anonKey}`,
      { headers: { 'X-Forwarded-For': '203.0.113.9' } },
    );
    expect(lookup.status).toBe(200);
  });
});
