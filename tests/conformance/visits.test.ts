import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';
import { startWithCallers } from '../support/clients.js';

// Visit counts: anon counts one visit with a CORS-simple POST (text/plain body, the
// anon key as ?apikey=, no other header) to /rest/v1/rpc/namecard_count_visit; the profile
// counted is the one namecard_active answers, whatever the body says; only owners read the
// counts; the emulator limits counting per client address.

const BUCKET_MS = 15 * 60_000;

interface Count {
  bucket: number;
  type: string;
  via: string;
  visits: number;
}

/** One visit as /go sends it: POST text/plain, apikey in the query, no other header. */
async function countVisit(emulator: RunningEmulator, body: string, from?: string) {
  return fetch(`${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'text/plain;charset=UTF-8',
      ...(from ? { 'X-Forwarded-For': from } : {}),
    },
    body,
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

  test('anon counts visits by channel with a text/plain POST; anything but qr/nfc is link', async () => {
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

  test('counts sent together are all kept, the running total with them', async () => {
    await emulator.query(
      `insert into public.namecard_visit (bucket, type, via, visits, running)
       values (0, 'main', 'qr', 7, 7)`,
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

  test('counts the profile namecard_active answers, whatever the body says', async () => {
    await emulator.query(
      `insert into public.namecard (type, stamp_end)
       values ('photo', (extract(epoch from now()) * 1000)::bigint + 3600000)`,
    );
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
        body: 'type=main&via=qr',
      },
    );
    expect(form.status).toBe(404);
    expect((await counts(emulator)).reduce((n, r) => n + r.visits, 0)).toBe(2);
  });

  test('anon and a signed-in non-owner read no counts; the owner reads them', async () => {
    await countVisit(emulator, 'nfc');
    const asAnon = await anon.from('namecard_visit').select('bucket,type,via,visits');
    expect(asAnon.data).toBeNull();
    expect(asAnon.status).toBe(401);
    expect(asAnon.error?.code).toBe('42501');

    const asStranger = await stranger.from('namecard_visit').select('bucket,type,via,visits');
    expect(asStranger).toMatchObject({ data: [], error: null, status: 200 });

    const asOwner = await owner.from('namecard_visit').select('type,via,visits');
    expect(asOwner).toMatchObject({
      data: [{ type: 'main', via: 'nfc', visits: 1 }],
      error: null,
    });
  });

  test('namecard_visit_days sums the buckets per given day for owners only', async () => {
    const day = 86_400_000;
    const start = Date.UTC(2030, 5, 1);
    await emulator.query(
      `insert into public.namecard_visit (bucket, type, via, visits, running) values
         ($1, 'main', 'qr', 2, 2), ($2, 'main', 'qr', 3, 5), ($3, 'photo', 'nfc', 4, 4),
         ($4, 'main', 'link', 9, 9)`,
      // Day 1's first and last bucket, day 2's first, and one bucket past the end.
      [start, start + day - BUCKET_MS, start + day, start + 2 * day],
    );
    const days = [start, start + day, start + 2 * day];
    const asOwner = await owner.rpc('namecard_visit_days', { day_starts: days });
    expect(asOwner.error).toBeNull();
    expect(asOwner.data).toEqual([
      { day: 1, type: 'main', via: 'qr', visits: 5 },
      { day: 2, type: 'photo', via: 'nfc', visits: 4 },
    ]);
    const asStranger = await stranger.rpc('namecard_visit_days', { day_starts: days });
    expect(asStranger).toMatchObject({ data: [], error: null });
    // anon has no EXECUTE: PostgreSQL's 42501, which PostgREST answers 401 for anon.
    const asAnon = await anon.rpc('namecard_visit_days', { day_starts: days });
    expect(asAnon.data).toBeNull();
    expect(asAnon.status).toBe(401);
    expect(asAnon.error?.code).toBe('42501');
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
      .insert({ bucket: 0, type: 'main', via: 'qr', visits: 1000 });
    expect(insert.status).toBe(401);
    const ownerInsert = await owner
      .from('namecard_visit')
      .insert({ bucket: 0, type: 'main', via: 'qr', visits: 1000 });
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
    // (tests/security/anon-inventory.test.ts): namecard_instant_allowed(bigint), the bound of
    // the instants anon may ask about; namecard_preview(bigint[],text), at most 10 such instants;
    // namecard_profile_labels(text[]) and namecard_profile_url(text), the label and destination
    // of a profile visitors can meet now or later; namecard_series_in_force(bigint), the
    // lookup's series part from the materialised occurrences at one bounded instant; and
    // namecard_status_now(), the status with no argument. All of these answer for the first card
    // only. Since cards (issue 40): namecard_go(text), /go's lookup of a card by its slug, and
    // namecard_count_card_visit(text,text), its count, which answer what /go needs and nothing of
    // a slug never given; namecard_card_status(text) and namecard_preview(bigint[],text), which
    // answer the first card's to anyone (as the view and preview did) and another card's to its
    // members only. Since card tokens (issue 41): the functions that take a token first and
    // act on its card only (docs/security.md, "Card tokens"); the names in code-point order.
    expect(granted.map((r) => r.fn).sort()).toEqual([
      'namecard_card_status(text)',
      'namecard_count_card_visit(text,text)',
      'namecard_count_visit(text)',
      'namecard_go(text)',
      'namecard_instant_allowed(bigint)',
      'namecard_preview(bigint[],text)',
      'namecard_profile_labels(text[])',
      'namecard_profile_url(text)',
      'namecard_series_in_force(bigint)',
      'namecard_status_now()',
      'namecard_token_cancel(text,bigint)',
      'namecard_token_end_now(text)',
      'namecard_token_entries(text,integer)',
      'namecard_token_preview(text,bigint[])',
      'namecard_token_profiles(text)',
      'namecard_token_series(text)',
      'namecard_token_set(text,text,bigint,bigint)',
      'namecard_token_set_series(text,text,smallint[],time without time zone,time without time zone,text,date,date)',
      'namecard_token_status(text)',
      'namecard_token_visit_days(text,bigint[])',
      'namecard_token_whoami(text)',
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
      `${emulator.url}/rest/v1/namecard_active?select=id,type&apikey=${emulator.anonKey}`,
      { headers: { 'X-Forwarded-For': '203.0.113.9' } },
    );
    expect(lookup.status).toBe(200);
  });
});
