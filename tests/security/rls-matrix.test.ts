import type { SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { startWithCallers } from '../support/clients.js';
import { DB_KINDS, MAIN_CARD_SQL } from '../support/emulator.js';
import { cardRowId } from '../support/entries.js';
import { createTestClient } from '../support/supabase.js';

// Who may do what to public.namecard through the REST API, on both databases: a card's members
// read its entries, anyone else reads none (an empty list, whatever columns they name); nobody
// inserts, updates or deletes through the table (set, end and cancel are functions that check the
// caller's role first). Each refusal carries PostgREST's status and code (42501: 401 for anon, 403
// for a signed-in role) and leaves the rows as they were. Every operation is tried twice: with a
// raw HTTP request and with supabase-js, as the product sends it.

const HOUR = 3_600_000;

type Who = 'anon' | 'non-owner' | 'owner';
type Op = 'select' | 'insert' | 'update' | 'delete';

const PERMISSION_DENIED = 'permission denied for table namecard';

interface Expected {
  who: Who;
  op: Op;
  status: number;
  /** The refusal's PostgREST code and message; none for a success. */
  code?: string;
  message?: string;
}

const MATRIX: Expected[] = [
  // Every reader gets 200: row-level security leaves a non-member no row to see.
  { who: 'anon', op: 'select', status: 200 },
  { who: 'non-owner', op: 'select', status: 200 },
  { who: 'owner', op: 'select', status: 200 },
  // No API role has an insert grant: the owner sets through namecard_set.
  { who: 'anon', op: 'insert', status: 401, code: '42501', message: PERMISSION_DENIED },
  { who: 'non-owner', op: 'insert', status: 403, code: '42501', message: PERMISSION_DENIED },
  { who: 'owner', op: 'insert', status: 403, code: '42501', message: PERMISSION_DENIED },
  // No role has update or delete grants: Postgres refuses before looking at any row.
  { who: 'anon', op: 'update', status: 401, code: '42501', message: PERMISSION_DENIED },
  { who: 'non-owner', op: 'update', status: 403, code: '42501', message: PERMISSION_DENIED },
  { who: 'owner', op: 'update', status: 403, code: '42501', message: PERMISSION_DENIED },
  { who: 'anon', op: 'delete', status: 401, code: '42501', message: PERMISSION_DENIED },
  { who: 'non-owner', op: 'delete', status: 403, code: '42501', message: PERMISSION_DENIED },
  { who: 'owner', op: 'delete', status: 403, code: '42501', message: PERMISSION_DENIED },
];

interface Row {
  id: number;
  stamp_end: number;
  type: string;
  created_by: string | null;
  created_at: Date;
}

/** The answer of one operation: HTTP status, PostgREST error (if any), rows returned. */
interface Outcome {
  status: number;
  error: { code: string; message: string } | null;
  data: unknown;
}

describe.each(DB_KINDS)('RLS on public.namecard over %s', (kind) => {
  let emulator: RunningEmulator;
  let ownerId: string;
  /** Bearer token per caller: the anon key, or a signed-in user's access token. */
  const tokens = {} as Record<Who, string>;
  const clients = {} as Record<Who, SupabaseClient>;
  let seeded: Row[];
  /** The card main's id, which every insert names. */
  let cardId: number;

  const rows = () =>
    emulator.query<Row>(
      'select id, stamp_end, type, created_by, created_at from public.namecard order by id',
    );

  beforeAll(async () => {
    const callers = await startWithCallers(kind);
    ({ emulator, ownerId } = callers);
    tokens.anon = emulator.anonKey;
    clients.anon = callers.anon;
    tokens.owner = callers.ownerToken;
    clients.owner = callers.owner;
    tokens['non-owner'] = callers.strangerToken;
    clients['non-owner'] = callers.stranger;
    cardId = await cardRowId(emulator);
  });
  afterAll(() => emulator?.stop());

  // Two entries of the card main, one active and one expired, written by the owner (as the
  // superuser).
  beforeEach(async () => {
    await emulator.query('truncate public.namecard restart identity');
    await emulator.query(
      `insert into public.namecard (card_id, stamp_end, type, created_by)
       values (${MAIN_CARD_SQL}, $1, 'photo', $3), (${MAIN_CARD_SQL}, $2, 'main', $3)`,
      [Date.now() + HOUR, Date.now() - HOUR, ownerId],
    );
    seeded = await rows();
  });

  /** Sends one operation as a raw PostgREST request, the way supabase-js would. */
  async function viaHttp(who: Who, op: Op, extra: { prefer?: string; query?: string } = {}) {
    const target = seeded[0]!.id;
    const request = {
      select: { method: 'GET', query: 'select=*&order=id.asc', body: undefined },
      insert: {
        method: 'POST',
        query: 'select=*',
        body: { card_id: cardId, stamp_end: Date.now() + 2 * HOUR, type: 'main' },
      },
      update: { method: 'PATCH', query: `id=eq.${target}&select=*`, body: { type: 'main' } },
      delete: { method: 'DELETE', query: `id=eq.${target}&select=*`, body: undefined },
    }[op];
    const headers: Record<string, string> = {
      apikey: emulator.anonKey,
      authorization: `Bearer ${tokens[who]}`,
      [op === 'select' ? 'accept-profile' : 'content-profile']: 'public',
      prefer: extra.prefer ?? 'return=representation',
    };
    if (request.body) headers['content-type'] = 'application/json';
    const res = await fetch(`${emulator.url}/rest/v1/namecard?${extra.query ?? request.query}`, {
      method: request.method,
      headers,
      body: request.body && JSON.stringify(request.body),
    });
    const text = await res.text();
    const json: unknown = text ? JSON.parse(text) : null;
    const ok = res.status < 300;
    return {
      status: res.status,
      error: ok ? null : (json as Outcome['error']),
      data: ok ? json : null,
    } satisfies Outcome;
  }

  /** Sends one operation through supabase-js, as the CLI and the site do. */
  async function viaSupabaseJs(who: Who, op: Op): Promise<Outcome> {
    const table = clients[who].from('namecard');
    const target = seeded[0]!.id;
    const { status, error, data } = await {
      select: () => table.select('*').order('id'),
      insert: () =>
        table
          .insert({ card_id: cardId, stamp_end: Date.now() + 2 * HOUR, type: 'main' })
          .select('*'),
      update: () => table.update({ type: 'main' }).eq('id', target).select('*'),
      delete: () => table.delete().eq('id', target).select('*'),
    }[op]();
    return { status, error, data };
  }

  /** The rows as the API renders them (timestamps as text). */
  const asApiRows = (list: Row[]) =>
    list.map((r) => ({ id: r.id, stamp_end: r.stamp_end, type: r.type, created_by: r.created_by }));

  function expectOutcome(outcome: Outcome, expected: Expected, via: string) {
    expect(outcome.status, via).toBe(expected.status);
    if (expected.code) {
      expect(outcome.error, via).toMatchObject({ code: expected.code, message: expected.message });
      expect(outcome.data, via).toBeNull();
    } else {
      expect(outcome.error, via).toBeNull();
    }
  }

  async function expectRowsUnchanged() {
    expect(await rows()).toEqual(seeded);
  }

  for (const via of ['HTTP', 'supabase-js'] as const) {
    describe(`through ${via}`, () => {
      const send = (who: Who, op: Op) =>
        via === 'HTTP' ? viaHttp(who, op) : viaSupabaseJs(who, op);

      test.each(MATRIX.filter((m) => m.op === 'select'))(
        '$who selects: $status, every entry for a member of the card, none for anyone else',
        async (expected) => {
          const outcome = await send(expected.who, 'select');
          expectOutcome(outcome, expected, via);
          expect(
            (outcome.data as Row[]).map((r) => ({
              id: r.id,
              stamp_end: r.stamp_end,
              type: r.type,
              created_by: r.created_by,
            })),
          ).toEqual(expected.who === 'owner' ? asApiRows(seeded) : []);
          if (expected.who !== 'owner') expect(JSON.stringify(outcome.data)).not.toContain(ownerId);
          await expectRowsUnchanged();
        },
      );

      test.each(MATRIX.filter((m) => m.code))(
        '$who cannot $op: $status $code "$message", rows unchanged',
        async (expected) => {
          expectOutcome(await send(expected.who, expected.op), expected, via);
          await expectRowsUnchanged();
        },
      );

      test("anon reads no entry through the visitor's columns either: 200, empty", async () => {
        const columns = 'id,type,stamp_start,stamp_end';
        const outcome =
          via === 'HTTP'
            ? await viaHttp('anon', 'select', { query: `select=${columns}&order=id.asc` })
            : await (async () => {
                const { status, error, data } = await clients.anon
                  .from('namecard')
                  .select(columns)
                  .order('id');
                return { status, error, data };
              })();
        expectOutcome(outcome, { who: 'anon', op: 'select', status: 200 }, via);
        expect(outcome.data).toEqual([]);
        await expectRowsUnchanged();
      });
    });
  }

  test('the owner sets through namecard_set: the stored row, created_by = the owner', async () => {
    const { data, error } = await clients.owner.rpc('namecard_set', {
      type: 'main',
      stamp_start: null,
      stamp_end: Date.now() + 2 * HOUR,
      card: 'main',
    });
    expect(error).toBeNull();
    const after = await rows();
    expect(after.slice(0, seeded.length)).toEqual(seeded);
    expect(after).toHaveLength(seeded.length + 1);
    const added = after.at(-1)!;
    expect(added).toMatchObject({ type: 'main', created_by: ownerId });
    expect(data).toMatchObject({ entry: { id: added.id, type: 'main' } });
  });

  describe('refusals do not depend on how the request is shaped', () => {
    const writes: { who: Who; op: 'update' | 'delete'; status: number }[] = [
      { who: 'anon', op: 'update', status: 401 },
      { who: 'owner', op: 'update', status: 403 },
      { who: 'anon', op: 'delete', status: 401 },
      { who: 'owner', op: 'delete', status: 403 },
    ];

    test.each(writes)(
      '$who $op with return=minimal, with no filter, or matching no row: $status 42501',
      async ({ who, op, status }) => {
        for (const extra of [
          { prefer: 'return=minimal' },
          { query: '' },
          { query: 'id=eq.999999' },
          { query: 'id=gt.0', prefer: 'return=minimal' },
        ]) {
          const outcome = await viaHttp(who, op, extra);
          expect(outcome.status, JSON.stringify(extra)).toBe(status);
          expect(outcome.error, JSON.stringify(extra)).toMatchObject({
            code: '42501',
            message: PERMISSION_DENIED,
          });
        }
        await expectRowsUnchanged();
      },
    );

    test('a non-owner inserting several rows at once stores none of them', async () => {
      const res = await fetch(`${emulator.url}/rest/v1/namecard`, {
        method: 'POST',
        headers: {
          apikey: emulator.anonKey,
          authorization: `Bearer ${tokens['non-owner']}`,
          'content-type': 'application/json',
          prefer: 'return=minimal',
        },
        body: JSON.stringify([
          { card_id: cardId, stamp_end: Date.now() + HOUR, type: 'photo' },
          { card_id: cardId, stamp_end: Date.now() + HOUR, type: 'main' },
        ]),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: '42501', message: PERMISSION_DENIED });
      await expectRowsUnchanged();
    });

    test('the owner cannot write created_by through the table: 403 42501, nothing stored', async () => {
      const { status, error } = await clients.owner.from('namecard').insert({
        card_id: cardId,
        stamp_end: Date.now() + HOUR,
        type: 'photo',
        created_by: ownerId,
      });
      expect(status).toBe(403);
      expect(error).toMatchObject({ code: '42501', message: PERMISSION_DENIED });
      await expectRowsUnchanged();
    });
  });

  describe('forged and stale tokens', () => {
    const insertWith = (bearer: string) =>
      fetch(`${emulator.url}/rest/v1/namecard`, {
        method: 'POST',
        headers: {
          apikey: emulator.anonKey,
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ card_id: cardId, stamp_end: Date.now() + HOUR, type: 'photo' }),
      });

    test("a token claiming the owner's identity but signed with another key: 401 PGRST301", async () => {
      const now = Math.floor(Date.now() / 1000);
      const forged = await new SignJWT({
        sub: ownerId,
        role: 'authenticated',
        aud: 'authenticated',
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(new TextEncoder().encode('not-the-secret-but-at-least-32-characters-long'));
      const res = await insertWith(forged);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('PGRST301');
      await expectRowsUnchanged();
    });

    test('an unsigned token (alg none) claiming service_role: 401 PGRST301', async () => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part({ role: 'service_role', exp: 4102444800 })}.`;
      const res = await insertWith(unsigned);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('PGRST301');
      await expectRowsUnchanged();
    });

    test("the owner's access token with its payload edited (role service_role): 401 PGRST301", async () => {
      const [header, payload, signature] = tokens.owner.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as object;
      const edited = Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString(
        'base64url',
      );
      const res = await insertWith(`${header}.${edited}.${signature}`);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('PGRST301');
      await expectRowsUnchanged();
    });
  });

  test('the service_role key bypasses RLS for reading, as in Supabase', async () => {
    const service = createTestClient(emulator.url, emulator.serviceRoleKey);
    const { status, data, error } = await service.from('namecard').select('*').order('id');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data?.map((r: { id: number }) => r.id)).toEqual(seeded.map((r) => r.id));
  });
});
