import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { GO_FUNCTION, STATUS_FUNCTION, lookupUrl } from '../../shared/core/lookup.js';
import { startWithCallers } from '../support/clients.js';
import { DB_KINDS } from '../support/emulator.js';
import { cardRowId } from '../support/entries.js';

// What a visitor (anon) may read of the entries: what /go needs, the entry in force (id, type,
// start, end) and its destination, through the lookups namecard_go and namecard_status, never
// the owner's user id (created_by), created_at or the stop marks. Read from the table, the
// entries are their card's members' only: anon gets no row, whatever columns it names.

const HOUR = 3_600_000;

describe.each(DB_KINDS)("anon's columns over %s", (kind) => {
  let emulator: RunningEmulator;
  let anon: SupabaseClient;
  let owner: SupabaseClient;
  let stranger: SupabaseClient;
  let ownerId: string;
  let entry: { id: number; type: string; stamp_start: null; stamp_end: number };

  const asAnon = async (path: string) => {
    const res = await fetch(`${emulator.url}/rest/v1/${path}`, {
      headers: { apikey: emulator.anonKey },
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  };

  beforeAll(async () => {
    ({ emulator, anon, owner, ownerId, stranger } = await startWithCallers(kind));
    const stamp_end = Date.now() + HOUR;
    const { data, error } = await owner.rpc('namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end,
      card: MAIN_CARD,
    });
    expect(error).toBeNull();
    entry = {
      id: (data as { entry: { id: number } }).entry.id,
      type: 'photo',
      stamp_start: null,
      stamp_end,
    };
  });
  afterAll(() => emulator?.stop());

  test.each([
    'namecard?select=created_by',
    'namecard?select=created_at',
    'namecard?select=*',
    'namecard',
    'namecard?select=id,created_by',
    `namecard?select=id&created_by=eq.${'00000000-0000-0000-0000-000000000000'}`,
    'namecard?select=id&order=created_at.desc',
    'namecard?select=id,type,stamp_start,stamp_end',
  ])('anon reads %s: no row, no owner id in the answer', async (path) => {
    const { status, text, json } = await asAnon(path);
    expect(status).toBe(200);
    expect(json).toEqual([]);
    expect(text).not.toContain(ownerId);
  });

  test('anon reads no created_by through supabase-js either', async () => {
    const { status, error, data } = await anon.from('namecard').select('id,created_by');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([]);
  });

  test("anon's lookups answer the four visitor columns and the destination, nothing else", async () => {
    const go = await fetch(lookupUrl(emulator.url, emulator.anonKey, GO_FUNCTION, MAIN_CARD));
    expect(go.status).toBe(200);
    // With the destination of its profile: null while it follows the build's settings.
    expect(await go.json()).toEqual([{ ...entry, url: null }]);
    // Asked for every column, the lookup still has only these.
    const all = await asAnon(`rpc/${GO_FUNCTION}?card=${MAIN_CARD}`);
    expect(all.json).toEqual([{ ...entry, url: null }]);
    const status = await fetch(
      lookupUrl(emulator.url, emulator.anonKey, STATUS_FUNCTION, MAIN_CARD),
    );
    expect(status.status).toBe(200);
    const text = await status.text();
    const [row] = JSON.parse(text) as { active: unknown; timeline: unknown[] }[];
    expect(row?.active).toEqual(entry);
    expect(row?.timeline).toEqual(expect.arrayContaining([expect.objectContaining({ to: null })]));
    expect(text).not.toContain(ownerId);
  });

  test("anon reads none of the owners' stop marks (stopped_at, stop_kind, planned_end)", async () => {
    for (const column of ['stopped_at', 'stop_kind', 'planned_end']) {
      const { status, json } = await asAnon(`namecard?select=${column}`);
      expect(status, column).toBe(200);
      expect(json, column).toEqual([]);
      const go = await asAnon(`rpc/${GO_FUNCTION}?card=${MAIN_CARD}&select=${column}`);
      expect(go.status, column).toBe(400);
    }
  });

  test("anon's list of cards is empty: namecard_cards tells anon of no card and no role", async () => {
    const { status, json } = await asAnon('rpc/namecard_cards');
    expect(status).toBe(200);
    expect(json).toEqual([]);
  });

  test('the signed-in owner reads every column, created_by included', async () => {
    const { data, error } = await owner.from('namecard').select('*');
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        ...entry,
        created_by: ownerId,
        created_at: expect.any(String),
        // The stop marks, null while the entry was never stopped.
        stopped_at: null,
        stop_kind: null,
        planned_end: null,
        card_id: await cardRowId(emulator),
      },
    ]);
  });

  test('namecard_cards answers the owner role on main to the owner, and no card to a signed-in non-member', async () => {
    const mine = await owner.rpc('namecard_cards');
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual([expect.objectContaining({ slug: MAIN_CARD, role: 'owner' })]);
    const theirs = await stranger.rpc('namecard_cards');
    expect(theirs.error).toBeNull();
    expect(theirs.data).toEqual([]);
  });
});
