import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD as card } from '../../shared/core/cards.js';
import {
  GO_FUNCTION,
  STATUS_FUNCTION,
  VIEW_COLUMNS,
  lookupUrl,
  type LookupFunction,
} from '../../shared/core/lookup.js';
import {
  DB_KINDS,
  dbNow as databaseNow,
  untilDbTime as untilDatabaseTime,
} from '../support/emulator.js';
import { startWithCallers } from '../support/clients.js';

// The lookups rpc/namecard_go and rpc/namecard_status through /rest/v1, as PostgREST serves a
// function's rows, and the schedule they answer by the database's own clock.

const HOUR = 3_600_000;

interface Entry {
  id: number;
  type: 'main' | 'photo';
  stamp_start: number | null;
  stamp_end: number;
}

describe.each(DB_KINDS)('the lookups over %s', { timeout: 60_000 }, (kind) => {
  let emulator: RunningEmulator;
  let anon: SupabaseClient;
  let owner: SupabaseClient;
  let ownerToken: string;

  /** The database's clock in epoch ms, the clock the lookups use. */
  const dbNow = () => databaseNow(emulator);
  /** Waits (with a deadline) until the database's clock has passed `at` (epoch ms). */
  const untilDbTime = (at: number) => untilDatabaseTime(emulator, at);
  /** Sets an entry of the card main as the owner through supabase-js, as the CLI does. */
  const insert = async (entry: Omit<Entry, 'id'>): Promise<Entry> => {
    const { data, error } = await owner.rpc('namecard_set', { ...entry, card });
    expect(error).toBeNull();
    const { id, type, stamp_start, stamp_end } = (data as { entry: Entry }).entry;
    return { id, type, stamp_start, stamp_end };
  };
  /** GETs a lookup of the card main exactly as the product does (anon key in the query). */
  const getLookup = async (fn: LookupFunction) => {
    const res = await fetch(lookupUrl(emulator.url, emulator.anonKey, fn, card));
    expect(res.status).toBe(200);
    const body = (await res.json()) as (Entry & { url?: string | null })[];
    if (fn !== GO_FUNCTION) return body as Entry[];
    // The lookup also answers the profile's destination: main and photo have none of their
    // own (they follow the build's settings), so it is null; the rest is the entry.
    return body.map(({ url, ...entry }) => {
      expect(url).toBeNull();
      return entry;
    });
  };
  const rows = () => emulator.query('select * from public.namecard order by id');
  /** The lookup of the card main below /rest/v1/rpc, with more of the query string. */
  const goPath = (query = '') => `${emulator.url}/rest/v1/rpc/${GO_FUNCTION}?card=${card}${query}`;

  beforeAll(async () => {
    ({ emulator, anon, owner, ownerToken } = await startWithCallers(kind));
  });
  afterAll(() => emulator?.stop());
  beforeEach(() => emulator.query('truncate public.namecard restart identity'));

  describe("served as PostgREST serves a function's rows", () => {
    it('answers GET with select, filters, order and limit, and HEAD with a count', async () => {
      const now = await dbNow();
      await insert({ type: 'main', stamp_start: null, stamp_end: now + HOUR });
      const newest = await insert({
        type: 'photo',
        stamp_start: now - HOUR,
        stamp_end: now + HOUR,
      });
      await insert({ type: 'main', stamp_start: now + HOUR, stamp_end: now + 2 * HOUR });

      expect(await getLookup(GO_FUNCTION)).toEqual([newest]);
      const get = async (query: string) => {
        const res = await fetch(goPath(`&${query}`), { headers: { apikey: emulator.anonKey } });
        return { status: res.status, body: (await res.json()) as unknown };
      };
      expect(await get('select=id,type')).toEqual({
        status: 200,
        body: [{ id: newest.id, type: 'photo' }],
      });
      expect(await get('select=id,type&type=eq.main')).toEqual({ status: 200, body: [] });
      expect(
        await get(`select=type,stamp_end,id&stamp_end=gt.${now}&order=id.desc&limit=1`),
      ).toEqual({
        status: 200,
        body: [{ type: 'photo', stamp_end: newest.stamp_end, id: newest.id }],
      });
      expect(await get('select=colour')).toMatchObject({
        status: 400,
        body: { code: '42703' },
      });

      const head = await fetch(goPath('&select=id'), {
        method: 'HEAD',
        headers: { apikey: emulator.anonKey, prefer: 'count=exact' },
      });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-range')).toBe('0-0/1');
      expect(await head.text()).toBe('');

      // supabase-js, as a face reads one row.
      const { data, error, status } = await anon
        .rpc(GO_FUNCTION, { card }, { get: true })
        .select(VIEW_COLUMNS)
        .maybeSingle();
      expect({ data, error, status }).toEqual({ data: newest, error: null, status: 200 });
    });

    it('refuses PATCH and DELETE on the lookups with 405 PGRST101, and rows into the entries with 42501, rows unchanged', async () => {
      const now = await dbNow();
      await insert({ type: 'main', stamp_start: null, stamp_end: now + HOUR });
      const before = await rows();
      for (const bearer of [emulator.anonKey, ownerToken]) {
        const headers = {
          apikey: emulator.anonKey,
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
        };
        for (const fn of [GO_FUNCTION, STATUS_FUNCTION]) {
          for (const method of ['PATCH', 'DELETE']) {
            const res = await fetch(`${emulator.url}/rest/v1/rpc/${fn}?card=${card}`, {
              method,
              headers,
              body: JSON.stringify({ type: 'photo' }),
            });
            expect(res.status, `${method} ${fn}`).toBe(405);
            expect(await res.json(), `${method} ${fn}`).toMatchObject({
              code: 'PGRST101',
              message: `Cannot use the ${method} method on RPC`,
            });
          }
        }
        const res = await fetch(`${emulator.url}/rest/v1/namecard`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type: 'photo', stamp_end: now + HOUR }),
        });
        expect(res.status).toBe(bearer === ownerToken ? 403 : 401);
        expect(await res.json()).toMatchObject({
          code: '42501',
          message: 'permission denied for table namecard',
        });
      }
      expect(await rows()).toEqual(before);
    });

    it('treats apikey in the query as the key only: not a filter, not an argument, on a table and a function', async () => {
      const now = await dbNow();
      const a = await insert({ type: 'main', stamp_start: null, stamp_end: now + HOUR / 2 });
      const b = await insert({ type: 'photo', stamp_start: null, stamp_end: now + HOUR });
      const key = encodeURIComponent(emulator.anonKey);
      const table = await fetch(
        `${emulator.url}/rest/v1/namecard?select=${VIEW_COLUMNS}&order=id.asc&apikey=${key}`,
        { headers: { prefer: 'count=exact', authorization: `Bearer ${ownerToken}` } },
      );
      expect(table.status).toBe(200);
      expect(table.headers.get('content-range')).toBe('0-1/2');
      expect(await table.json()).toEqual([a, b]);
      const lookup = await fetch(goPath(`&select=id&apikey=${key}`));
      expect(lookup.status).toBe(200);
      expect(await lookup.json()).toEqual([{ id: b.id }]);
      // A second apikey parameter is the gateway's business too, never a filter or an argument.
      const twice = await fetch(goPath(`&select=id&apikey=${key}&apikey=${key}`));
      expect(await twice.json()).toEqual([{ id: b.id }]);
    });
  });

  describe('the schedule', () => {
    it('refuses a start not before the end with 400 23514 and stores nothing', async () => {
      const now = await dbNow();
      for (const stamp_start of [now + HOUR, now + 2 * HOUR]) {
        const res = await fetch(`${emulator.url}/rest/v1/rpc/namecard_set`, {
          method: 'POST',
          headers: {
            apikey: emulator.anonKey,
            authorization: `Bearer ${ownerToken}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ type: 'photo', stamp_start, stamp_end: now + HOUR, card }),
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          code: '23514',
          message: expect.stringContaining('namecard_start_before_end'),
        });
      }
      const viaJs = await owner.rpc('namecard_set', {
        type: 'main',
        stamp_start: now + 2 * HOUR,
        stamp_end: now + HOUR,
        card,
      });
      expect(viaJs.status).toBe(400);
      expect(viaJs.error?.code).toBe('23514');
      expect(await rows()).toEqual([]);
    });

    /** The timeline namecard_status answers, its first start (the server's now) left out. */
    const timeline = async () => {
      const [status] = (await getLookup(STATUS_FUNCTION)) as unknown as {
        now: number;
        timeline: { type: string; from: number; to: number | null }[];
      }[];
      return status!.timeline.map((s, i) => [s.type, i === 0 ? 'now' : s.from, s.to]);
    };

    it('does not answer an entry starting tomorrow today; namecard_status has it next', async () => {
      const now = await dbNow();
      const today = await insert({ type: 'main', stamp_start: null, stamp_end: now + 48 * HOUR });
      const tomorrow = await insert({
        type: 'photo',
        stamp_start: now + 24 * HOUR,
        stamp_end: now + 25 * HOUR,
      });
      expect(await getLookup(GO_FUNCTION)).toEqual([today]);
      expect(await timeline()).toEqual([
        ['main', 'now', tomorrow.stamp_start],
        ['photo', tomorrow.stamp_start, tomorrow.stamp_end],
        ['main', tomorrow.stamp_end, null],
      ]);
      const [status] = (await getLookup(STATUS_FUNCTION)) as unknown as {
        now: number;
        active: unknown;
      }[];
      expect(status!.active).toEqual(today);
      expect(Math.abs(status!.now - (await dbNow()))).toBeLessThan(60_000);
    });

    it('switches namecard_go at the start and back at the end, by the database clock', async () => {
      const now = await dbNow();
      const base = await insert({ type: 'main', stamp_start: null, stamp_end: now + HOUR });
      const start = now + 4_000;
      const end = now + 7_000;
      const soon = await insert({ type: 'photo', stamp_start: start, stamp_end: end });
      // Read before the start (the database clock says so), then after each switch.
      const [before, clock] = [await getLookup(GO_FUNCTION), await dbNow()];
      if (clock < start) expect(before).toEqual([base]);
      const coming = await timeline();
      if (clock < start) {
        expect(coming).toEqual([
          ['main', 'now', start],
          ['photo', start, end],
          ['main', end, null],
        ]);
      }
      await untilDbTime(start);
      expect(await getLookup(GO_FUNCTION)).toEqual([soon]);
      expect(await timeline()).toEqual([
        ['photo', 'now', end],
        ['main', end, null],
      ]);
      await untilDbTime(end);
      expect(await getLookup(GO_FUNCTION)).toEqual([base]);
    });

    // What comes next is decided by the one rule at each instant, not by comparing a scheduled
    // entry with the active one alone: an older entry comes back after a newer one ends.
    it('namecard_status names an older entry coming back after a newer one ends, then the upcoming one', async () => {
      const now = await dbNow();
      const older = await insert({
        type: 'photo',
        stamp_start: now + HOUR,
        stamp_end: now + 3 * HOUR,
      });
      const active = await insert({ type: 'main', stamp_start: null, stamp_end: now + 2 * HOUR });
      const upcoming = await insert({
        type: 'photo',
        stamp_start: now + 4 * HOUR,
        stamp_end: now + 5 * HOUR,
      });
      expect(await getLookup(GO_FUNCTION)).toEqual([active]);
      expect(await timeline()).toEqual([
        ['main', 'now', active.stamp_end],
        ['photo', active.stamp_end, older.stamp_end],
        ['main', older.stamp_end, upcoming.stamp_start],
        ['photo', upcoming.stamp_start, upcoming.stamp_end],
        ['main', upcoming.stamp_end, null],
      ]);
      const { data } = await anon.rpc(STATUS_FUNCTION, { card }, { get: true }).select('timeline');
      expect((data as { timeline: unknown[] }[])[0]!.timeline).toHaveLength(5);
      // Without the newer active entry, the older one starts as planned.
      await emulator.query('delete from public.namecard where id = $1', [active.id]);
      expect(await getLookup(GO_FUNCTION)).toEqual([]);
      expect(await timeline()).toEqual([
        ['main', 'now', older.stamp_start],
        ['photo', older.stamp_start, older.stamp_end],
        ['main', older.stamp_end, upcoming.stamp_start],
        ['photo', upcoming.stamp_start, upcoming.stamp_end],
        ['main', upcoming.stamp_end, null],
      ]);
    });
  });
});
