import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { DB_KINDS } from '../support/emulator.js';
import { startWithCallers } from '../support/clients.js';
import { cardRowId, insertEntry } from '../support/entries.js';

// The PostgREST subset the product uses (table reads with filters, order, limit and counts,
// table writes, the gateway's key check and CORS) and row-level security over it: a card's
// rows are its members' alone.

const HOUR = 3_600_000;
const SHOP_URL = 'https://shop.example/';

describe.each(DB_KINDS)('PostgREST subset and RLS over %s', (kind) => {
  let emulator: RunningEmulator;
  let anon: SupabaseClient;
  let owner: SupabaseClient;
  let ownerId: string;
  let ownerToken: string;
  let visitor: SupabaseClient;
  /** The card main's id, which its rows name in card_id. */
  let mainId: number;
  const profileCount = async () =>
    Number(
      (await emulator.query<{ n: number }>('select count(*) as n from public.namecard_profile'))[0]!
        .n,
    );
  const rowCount = async () =>
    Number(
      (await emulator.query<{ n: number }>('select count(*) as n from public.namecard'))[0]!.n,
    );

  beforeAll(async () => {
    ({
      emulator,
      anon,
      owner,
      ownerId,
      ownerToken,
      stranger: visitor,
    } = await startWithCallers(kind));
    mainId = await cardRowId(emulator);
  });
  afterAll(() => emulator?.stop());

  // Writes through the REST tables, on the one table members write that way: a card's
  // profiles (owners only). Entries are written by rpc/namecard_set alone.
  describe('insert', () => {
    const shop = () => ({ card_id: mainId, name: 'shop', label: 'Shop', url: SHOP_URL });
    // A profile's DELETE only marks it removed (its trigger): gone for good, past the triggers.
    beforeEach(() =>
      emulator.query(
        `begin;
         set local session_replication_role = replica;
         delete from public.namecard_profile where name = 'shop';
         commit;`,
      ),
    );

    it('refuses an anonymous insert with 401 and 42501', async () => {
      const { error, status, data } = await anon.from('namecard_profile').insert(shop()).select();
      expect(status).toBe(401);
      expect(data).toBeNull();
      expect(error).toMatchObject({
        code: '42501',
        message: 'permission denied for table namecard_profile',
      });
    });

    it('refuses a signed-in non-owner with 403 and the RLS message', async () => {
      const before = await profileCount();
      const { error, status } = await visitor.from('namecard_profile').insert(shop()).select();
      expect(status).toBe(403);
      expect(error).toMatchObject({
        code: '42501',
        message: 'new row violates row-level security policy for table "namecard_profile"',
        details: null,
        hint: null,
      });
      expect(await profileCount()).toBe(before);
    });

    it('lets the owner insert: 201 with the stored row, created_by = the owner', async () => {
      const { data, error, status } = await owner
        .from('namecard_profile')
        .insert(shop())
        .select()
        .single();
      expect(error).toBeNull();
      expect(status).toBe(201);
      expect(data).toMatchObject({ ...shop(), removed_at: null, created_by: ownerId });
      expect(Date.parse(data!.created_at)).not.toBeNaN();
      const stored = await emulator.query(
        `select card_id, name, label, url, created_by from public.namecard_profile
         where name = 'shop'`,
      );
      expect(stored).toEqual([{ ...shop(), created_by: ownerId }]);
    });

    it('answers 201 with an empty body for return=minimal', async () => {
      const { error, status, data } = await owner.from('namecard_profile').insert(shop());
      expect(error).toBeNull();
      expect(status).toBe(201);
      expect(data).toBeNull();
    });

    it('rejects a missing label with 400 23502', async () => {
      const { label: _label, ...row } = shop();
      const { error, status } = await owner.from('namecard_profile').insert(row);
      expect(status).toBe(400);
      expect(error?.code).toBe('23502');
    });

    it('rejects an unknown column with 400 PGRST204', async () => {
      const { error, status } = await owner
        .from('namecard_profile')
        .insert({ ...shop(), colour: 'red' });
      expect(status).toBe(400);
      expect(error).toMatchObject({
        code: 'PGRST204',
        message: "Column 'colour' of relation 'namecard_profile' does not exist",
      });
    });

    it('does not let the owner choose created_by', async () => {
      const { error, status } = await owner
        .from('namecard_profile')
        .insert({ ...shop(), created_by: ownerId });
      expect(status).toBe(403);
      expect(error?.code).toBe('42501');
      expect(await profileCount()).toBe(2);
    });

    it("refuses every direct insert of an entry, the owner's too (403 42501): entries are set by rpc/namecard_set", async () => {
      const before = await rowCount();
      const { error, status } = await owner
        .from('namecard')
        .insert({ card_id: mainId, stamp_end: Date.now() + HOUR, type: 'photo' });
      expect(status).toBe(403);
      expect(error).toMatchObject({
        code: '42501',
        message: 'permission denied for table namecard',
      });
      expect(await rowCount()).toBe(before);
    });

    // Entries name a row of the profile table: an unknown one is refused as a missing
    // reference is, 409 23503, naming it.
    it("rejects an entry whose type is not one of the card's profiles with 409 23503", async () => {
      const { error, status } = await owner.rpc('namecard_set', {
        type: 'video',
        stamp_start: null,
        stamp_end: Date.now() + HOUR,
        card: MAIN_CARD,
      });
      expect(status).toBe(409);
      expect(error?.code).toBe('23503');
      expect(error?.message).toBe('unknown profile: video');
    });
  });

  describe('read', () => {
    it('finds the newest active entry with the server-side filter, order and limit', async () => {
      const now = Date.now();
      await emulator.query('truncate public.namecard');
      for (const [type, end] of [
        ['photo', now + HOUR],
        ['main', now + 2 * HOUR],
        ['photo', now - HOUR],
        ['main', now - 2 * HOUR],
      ] as const) {
        await insertEntry(emulator, type, null, end);
      }
      // anon is no member of any card: row-level security leaves it no row, whatever it asks.
      const asAnon = await anon
        .from('namecard')
        .select('*')
        .gt('stamp_end', now)
        .order('id', { ascending: false })
        .limit(1);
      expect(asAnon).toMatchObject({ status: 200, data: [], error: null });
      const { data, error, status } = await owner
        .from('namecard')
        .select('id,type,stamp_start,stamp_end')
        .eq('card_id', mainId)
        .gt('stamp_end', now)
        .order('id', { ascending: false })
        .limit(1);
      expect(error).toBeNull();
      expect(status).toBe(200);
      expect(data).toHaveLength(1);
      expect(data![0]).toEqual({
        id: expect.any(Number),
        stamp_start: null,
        stamp_end: now + 2 * HOUR,
        type: 'main',
      });
      // The owner, a member, reads every column.
      const full = await owner
        .from('namecard')
        .select('*')
        .gt('stamp_end', now)
        .order('id', { ascending: false })
        .limit(1);
      expect(full.error).toBeNull();
      expect(full.data![0]).toMatchObject({ stamp_end: now + 2 * HOUR, type: 'main' });
      expect(Object.keys(full.data![0]!).sort()).toEqual([
        'card_id',
        'created_at',
        'created_by',
        'id',
        'planned_end',
        'stamp_end',
        'stamp_start',
        'stop_kind',
        'stopped_at',
        'type',
      ]);
    });

    it('returns an empty array when no entry is active', async () => {
      const { data, error } = await owner
        .from('namecard')
        .select('id,type,stamp_start,stamp_end')
        .gt('stamp_end', Date.now() + 10 * HOUR)
        .order('id', { ascending: false })
        .limit(1);
      expect(error).toBeNull();
      expect(data).toEqual([]);
    });

    it('applies eq, neq, gte, lte, in and is filters together', async () => {
      const { data, error } = await owner
        .from('namecard')
        .select('type')
        .in('type', ['main', 'photo'])
        .neq('type', 'photo')
        .eq('type', 'main')
        .gte('stamp_end', 1)
        .lte('stamp_end', Date.now() + 100 * HOUR)
        .is('created_by', null)
        .order('stamp_end', { ascending: true });
      expect(error).toBeNull();
      expect(data).toEqual([{ type: 'main' }, { type: 'main' }]);
      // anon's same read: row-level security leaves it no row to filter.
      const asAnon = await anon
        .from('namecard')
        .select('type')
        .in('type', ['main', 'photo'])
        .is('created_by', null);
      expect(asAnon).toMatchObject({ status: 200, data: [], error: null });
    });

    it('sends Content-Range and, with count=exact, the total and 206 for a partial page', async () => {
      const asOwner = { apikey: emulator.anonKey, authorization: `Bearer ${ownerToken}` };
      const res = await fetch(`${emulator.url}/rest/v1/namecard?select=id&order=id.asc&limit=2`, {
        headers: { ...asOwner, prefer: 'count=exact' },
      });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe('0-1/4');
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');

      const { count, data } = await owner
        .from('namecard')
        .select('id,type,stamp_start,stamp_end', { count: 'exact' })
        .range(1, 2);
      expect(count).toBe(4);
      expect(data).toHaveLength(2);

      const plain = await fetch(`${emulator.url}/rest/v1/namecard?select=id&limit=1`, {
        headers: asOwner,
      });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-range')).toBe('0-0/*');

      // anon counts no row of a card it is no member of.
      const anonCount = await fetch(`${emulator.url}/rest/v1/namecard?select=id`, {
        headers: { apikey: emulator.anonKey, prefer: 'count=exact' },
      });
      expect(anonCount.headers.get('content-range')).toBe('*/0');
      expect(await anonCount.json()).toEqual([]);

      const empty = await fetch(`${emulator.url}/rest/v1/namecard?select=id&id=eq.-1`, {
        headers: asOwner,
      });
      expect(empty.headers.get('content-range')).toBe('*/*');
      expect(await empty.json()).toEqual([]);
    });

    // PostgREST 12 words it as PostgreSQL does (13 and later: PGRST205).
    it('answers 404 42P01 for an unknown table', async () => {
      const { error, status } = await anon.from('no_such_table').select('*');
      expect(status).toBe(404);
      expect(error).toMatchObject({
        code: '42P01',
        message: 'relation "public.no_such_table" does not exist',
      });
    });

    it('does not expose tables outside the public schema', async () => {
      for (const table of ['namecard_member', 'namecard_token', 'users']) {
        const { status, error } = await owner.from(table).select('*');
        expect(status, table).toBe(404);
        expect(error?.code, table).toBe('42P01');
      }
    });

    it('answers 400 PGRST100 for a filter that does not parse', async () => {
      const res = await fetch(`${emulator.url}/rest/v1/namecard?stamp_end=greater.5`, {
        headers: { apikey: emulator.anonKey },
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('PGRST100');
      expect(body.message).toMatch(/^"failed to parse filter \(greater\.5\)"/);
      expect(body).toHaveProperty('details');
      expect(body).toHaveProperty('hint', null);
    });

    it('answers 400 42703 for an unknown column', async () => {
      const { status, error } = await anon.from('namecard').select('colour');
      expect(status).toBe(400);
      expect(error).toMatchObject({
        code: '42703',
        message: 'column namecard.colour does not exist',
      });
    });

    it('answers 401 PGRST301 for a token that is not a JWT', async () => {
      const res = await fetch(`${emulator.url}/rest/v1/namecard`, {
        headers: { apikey: emulator.anonKey, authorization: 'Bearer not-a-jwt' },
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('PGRST301');
    });
  });

  describe('no update or delete through the API', () => {
    it('refuses update and delete by the owner, and the rows stay', async () => {
      const before = await emulator.query('select id, type from public.namecard order by id');
      const updated = await owner.from('namecard').update({ type: 'photo' }).gt('id', 0).select();
      expect(updated.status).toBe(403);
      expect(updated.error?.code).toBe('42501');
      const deleted = await owner.from('namecard').delete().gt('id', 0);
      expect(deleted.status).toBe(403);
      expect(deleted.error?.code).toBe('42501');
      expect(await emulator.query('select id, type from public.namecard order by id')).toEqual(
        before,
      );
    });

    it('refuses update and delete by anon with 401, and the rows stay', async () => {
      const before = await rowCount();
      expect((await anon.from('namecard').update({ type: 'photo' }).gt('id', 0)).status).toBe(401);
      expect((await anon.from('namecard').delete().gt('id', 0)).status).toBe(401);
      expect(await rowCount()).toBe(before);
    });
  });

  describe('gateway', () => {
    it('answers 401 "No API key found in request" without an apikey', async () => {
      for (const path of ['/rest/v1/namecard', '/auth/v1/settings']) {
        const res = await fetch(`${emulator.url}${path}`);
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ message: 'No API key found in request' });
      }
    });

    it('answers 401 "Invalid API key" for a wrong apikey', async () => {
      const res = await fetch(`${emulator.url}/rest/v1/namecard`, { headers: { apikey: 'nope' } });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ message: 'Invalid API key' });
    });

    it('accepts the apikey as a query parameter', async () => {
      const res = await fetch(
        `${emulator.url}/rest/v1/namecard?select=id&apikey=${emulator.anonKey}`,
      );
      expect(res.status).toBe(200);
    });

    it('answers a CORS preflight from another origin as hosted Supabase does: *, no credentials, the headers supabase-js sends, only the methods the product uses', async () => {
      const res = await fetch(`${emulator.url}/rest/v1/namecard`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'apikey,authorization,content-type,prefer,x-client-info',
        },
      });
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      const methods = res.headers
        .get('access-control-allow-methods')!
        .split(',')
        .map((m) => m.trim())
        .sort();
      // PATCH and DELETE since /manage edits profiles (a PATCH of namecard_profile).
      expect(methods).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST']);
      const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase();
      for (const h of [
        'apikey',
        'authorization',
        'content-type',
        'prefer',
        'x-client-info',
        'x-supabase-api-version',
        'range',
        'accept-profile',
        'content-profile',
      ]) {
        expect(allowed).toContain(h);
      }
      const get = await fetch(`${emulator.url}/rest/v1/namecard?limit=1`, {
        headers: { origin: 'http://localhost:5173', apikey: emulator.anonKey },
      });
      expect(get.headers.get('access-control-expose-headers')).toMatch(/Content-Range/i);
      expect(get.headers.get('access-control-allow-origin')).toBe('*');
      expect(get.headers.get('access-control-allow-credentials')).toBeNull();
      const auth = await fetch(`${emulator.url}/auth/v1/settings`, {
        headers: { origin: 'https://attacker.example', apikey: emulator.anonKey },
      });
      expect(auth.headers.get('access-control-allow-origin')).toBe('*');
      expect(auth.headers.get('access-control-allow-credentials')).toBeNull();
    });
  });
});
