import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { ACTIVE_VIEW, STATUS_VIEW, VIEW_COLUMNS, viewUrl } from '../../shared/core/lookup.js';
import { startWithCallers } from '../support/clients.js';
import { DB_KINDS } from '../support/emulator.js';

// What a visitor (anon) may read: the entry's id, type, start and end, through the table or
// the views, never the owner's user id (created_by) or created_at. Column privileges refuse a
// query that names another column with 42501, which PostgREST answers 401 for anon.

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
    const { data, error } = await owner
      .from('namecard')
      .insert({ stamp_end, type: 'photo' })
      .select('id')
      .single();
    expect(error).toBeNull();
    entry = { id: data!.id as number, type: 'photo', stamp_start: null, stamp_end };
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
  ])('anon is refused %s: 401 42501, no owner id in the answer', async (path) => {
    const { status, text, json } = await asAnon(path);
    expect(status).toBe(401);
    expect(json).toMatchObject({ code: '42501', message: 'permission denied for table namecard' });
    expect(text).not.toContain(ownerId);
  });

  test('anon is refused created_by through supabase-js too', async () => {
    const { status, error, data } = await anon.from('namecard').select('id,created_by');
    expect(status).toBe(401);
    expect(data).toBeNull();
    expect(error?.code).toBe('42501');
  });

  test('anon reads the four visitor columns from the table and both views', async () => {
    expect(await asAnon(`namecard?select=${VIEW_COLUMNS}`)).toMatchObject({
      status: 200,
      json: [entry],
    });
    const { data, error } = await anon.from('namecard').select(VIEW_COLUMNS);
    expect(error).toBeNull();
    expect(data).toEqual([entry]);
    const active = await fetch(viewUrl(emulator.url, emulator.anonKey, ACTIVE_VIEW));
    expect(active.status).toBe(200);
    // With the destination of its profile: null while it follows the build's settings.
    expect(await active.json()).toEqual([{ ...entry, url: null }]);
    const status = await fetch(viewUrl(emulator.url, emulator.anonKey, STATUS_VIEW));
    expect(status.status).toBe(200);
    const [row] = (await status.json()) as { active: unknown; timeline: unknown[] }[];
    expect(row?.active).toEqual(entry);
    expect(row?.timeline).toEqual(expect.arrayContaining([expect.objectContaining({ to: null })]));
  });

  test("anon cannot read the owners' stop marks (stopped_at, stop_kind, planned_end): 401 42501", async () => {
    for (const column of ['stopped_at', 'stop_kind', 'planned_end']) {
      const { status, json } = await asAnon(`namecard?select=${column}`);
      expect(status, column).toBe(401);
      expect((json as { code?: string }).code, column).toBe('42501');
    }
  });

  test('anon cannot read namecard_access: 401 42501', async () => {
    const { status, json } = await asAnon('namecard_access?select=can_set');
    expect(status).toBe(401);
    expect(json).toMatchObject({
      code: '42501',
      message: 'permission denied for view namecard_access',
    });
    const viaJs = await anon.from('namecard_access').select('can_set');
    expect(viaJs.status).toBe(401);
    expect(viaJs.error?.code).toBe('42501');
  });

  test('the signed-in owner reads every column, created_by included', async () => {
    const { data, error } = await owner.from('namecard').select('*');
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        ...entry,
        created_by: ownerId,
        created_at: expect.any(String),
        // The stop marks of the timeline migration, null while the entry was never stopped.
        stopped_at: null,
        stop_kind: null,
        planned_end: null,
        // Its card since cards came (issue 40): an entry stored with no card is the first card's.
        card_id: 1,
      },
    ]);
  });

  test('namecard_access says can_set=true for the owner and false for a signed-in non-owner', async () => {
    const mine = await owner.from('namecard_access').select('can_set');
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual([{ can_set: true }]);
    const theirs = await stranger.from('namecard_access').select('can_set');
    expect(theirs.error).toBeNull();
    expect(theirs.data).toEqual([{ can_set: false }]);
  });
});
