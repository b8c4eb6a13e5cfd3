import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { OWNER } from '../cli/helpers.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';
import { createTestClient } from '../support/supabase.js';

// End now and cancel through /rest/v1/rpc with supabase-js, on both databases: owners only,
// on the database's clock, rows marked and never deleted (issue 17).

const STRANGER = { email: 'stranger@end-cancel.test', password: 'stranger-password-1' };
const HOUR = 3_600_000;

interface Mark {
  id: number;
  type: string;
  stamp_start: number | null;
  stamp_end: number;
  stop_kind: string | null;
  stopped_at: number | null;
  planned_end: number | null;
}

describe.each(DB_KINDS)('end now and cancel over %s', (kind) => {
  let emulator: RunningEmulator;
  let anon: SupabaseClient;
  let owner: SupabaseClient;
  let stranger: SupabaseClient;

  /** The database's clock, epoch ms. */
  const dbNow = async () =>
    Number(
      (
        await emulator.query<{ n: string | number }>(
          'select (extract(epoch from clock_timestamp()) * 1000)::bigint as n',
        )
      )[0]!.n,
    );
  /** Every row with its stop marks, by id. */
  const all = async () =>
    (
      await emulator.query<Mark>(
        `select id, type, stamp_start, stamp_end, stop_kind, stopped_at, planned_end
         from public.namecard order by id`,
      )
    ).map((row) => ({
      ...row,
      id: Number(row.id),
      stamp_end: Number(row.stamp_end),
      stamp_start: row.stamp_start === null ? null : Number(row.stamp_start),
      stopped_at: row.stopped_at === null ? null : Number(row.stopped_at),
      planned_end: row.planned_end === null ? null : Number(row.planned_end),
    }));
  /** Stores an entry `startIn`/`endIn` ms from the database's now; returns its id. */
  const store = async (type: string, startIn: number | null, endIn: number) => {
    const now = await dbNow();
    const [row] = await emulator.query<{ id: number }>(
      `insert into public.namecard (type, stamp_start, stamp_end) values ($1, $2, $3) returning id`,
      [type, startIn === null ? null : now + startIn, now + endIn],
    );
    return Number(row!.id);
  };

  beforeAll(async () => {
    emulator = await startTestEmulator(kind, { owner: OWNER });
    await emulator.createUser(STRANGER.email, STRANGER.password);
    anon = createTestClient(emulator.url, emulator.anonKey);
    owner = createTestClient(emulator.url, emulator.anonKey);
    stranger = createTestClient(emulator.url, emulator.anonKey);
    expect((await owner.auth.signInWithPassword(OWNER)).error).toBeNull();
    expect((await stranger.auth.signInWithPassword(STRANGER)).error).toBeNull();
  });
  afterAll(() => emulator?.stop());
  beforeEach(async () => {
    await emulator.query('delete from public.namecard');
  });

  test('end now stops every entry in force (the winner and the one that would come back), keeps later ones', async () => {
    const photo = await store('photo', null, 10 * HOUR);
    const fair = await store('photo', 2 * HOUR, 3 * HOUR);
    const pause = await store('main', null, HOUR / 2);
    const before = await dbNow();
    const { data, error, status } = await owner.rpc('namecard_end_now');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect((data as Mark[]).map((row) => [row.id, row.stop_kind])).toEqual([
      [pause, 'ended'],
      [photo, 'ended'],
    ]);
    const rows = await all();
    expect(rows.map((row) => [row.id, row.stop_kind])).toEqual([
      [photo, 'ended'],
      [fair, null],
      [pause, 'ended'],
    ]);
    for (const row of rows.filter((r) => r.stop_kind)) {
      expect(row.stamp_end).toBe(row.stopped_at);
      expect(row.stopped_at).toBeGreaterThanOrEqual(before - 1000);
      expect(row.planned_end).toBeGreaterThan(row.stamp_end);
    }
    const { data: view } = await anon.from('namecard_status').select('timeline');
    type Segment = { type: string; from: number; to: number | null };
    const { timeline } = (view as { timeline: Segment[] }[])[0]!;
    const fairRow = rows.find((row) => row.id === fair)!;
    expect(timeline.map((s, i) => [s.type, i === 0 ? 'now' : s.from, s.to])).toEqual([
      ['main', 'now', fairRow.stamp_start],
      ['photo', fairRow.stamp_start, fairRow.stamp_end],
      ['main', fairRow.stamp_end, null],
    ]);
  });

  test('end now with nothing visitors would notice stores nothing and answers no rows', async () => {
    await store('main', null, HOUR);
    const before = await all();
    const { data, error } = await owner.rpc('namecard_end_now');
    expect(error).toBeNull();
    expect(data).toEqual([]);
    expect(await all()).toEqual(before);
  });

  test('cancel: a scheduled entry never starts, a running one ends now; both stay, marked', async () => {
    const running = await store('photo', null, HOUR);
    const later = await store('photo', 2 * HOUR, 3 * HOUR);
    const one = await owner.rpc('namecard_cancel', { entry_id: later });
    expect(one.error).toBeNull();
    expect(one.data).toMatchObject([{ id: later, stop_kind: 'cancelled' }]);
    const two = await owner.rpc('namecard_cancel', { entry_id: running });
    expect(two.error).toBeNull();
    const rows = await all();
    expect(rows).toHaveLength(2);
    const [r, l] = rows;
    expect(l).toMatchObject({ stop_kind: 'cancelled', stamp_end: l!.stamp_start });
    expect(l!.planned_end).toBeGreaterThan(l!.stamp_end);
    expect(r).toMatchObject({ stop_kind: 'cancelled', stamp_end: r!.stopped_at });
    const { data } = await anon.from('namecard_active').select('id');
    expect(data).toEqual([]);
  });

  test.each([
    ['an unknown entry', async () => 999_999, 404, 'PT404', 'There is no entry 999999'],
    ['an ended entry', async () => store('photo', null, -HOUR), 409, 'PT409', 'has already ended'],
  ])('cancel refuses %s (HTTP %i) and changes nothing', async (_what, make, http, code, words) => {
    const id = await make();
    const before = await all();
    const { error, status } = await owner.rpc('namecard_cancel', { entry_id: id });
    expect(status).toBe(http);
    expect(error?.code).toBe(code);
    expect(error?.message).toContain(words);
    expect(await all()).toEqual(before);
  });

  // Hosted PostgREST keeps functions the caller may not EXECUTE in its schema cache, so
  // PostgreSQL refuses the call: 42501, which PostgREST answers 401 for anon.
  test('anon may run neither: 401 42501 as hosted PostgREST answers, nothing changes', async () => {
    const id = await store('photo', null, HOUR);
    const before = await all();
    const end = await anon.rpc('namecard_end_now');
    expect(end.status).toBe(401);
    expect(end.error?.code).toBe('42501');
    expect(end.error?.message).toBe('permission denied for function namecard_end_now');
    const cancel = await anon.rpc('namecard_cancel', { entry_id: id });
    expect(cancel.status).toBe(401);
    expect(cancel.error?.code).toBe('42501');
    expect(cancel.error?.message).toBe('permission denied for function namecard_cancel');
    expect(await all()).toEqual(before);
  });

  test('a signed-in non-owner is refused both: 403 42501, nothing changes', async () => {
    const id = await store('photo', null, HOUR);
    const before = await all();
    const end = await stranger.rpc('namecard_end_now');
    expect(end.status).toBe(403);
    expect(end.error?.code).toBe('42501');
    const cancel = await stranger.rpc('namecard_cancel', { entry_id: id });
    expect(cancel.status).toBe(403);
    expect(cancel.error?.code).toBe('42501');
    expect(await all()).toEqual(before);
  });

  test('a bad entry id is refused as PostgREST does: 400 22P02', async () => {
    const res = await fetch(`${emulator.url}/rest/v1/rpc/namecard_cancel`, {
      method: 'POST',
      headers: {
        apikey: emulator.anonKey,
        authorization: `Bearer ${(await owner.auth.getSession()).data.session!.access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ entry_id: 'abc' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('22P02');
  });
});
