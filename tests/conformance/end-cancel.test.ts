import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, dbNow as databaseNow } from '../support/emulator.js';
import { startWithCallers } from '../support/clients.js';
import { createTestClient } from '../support/supabase.js';
import { OWNER } from '../support/accounts.js';
import { insertFromDbNow } from '../support/entries.js';
import { MAIN_CARD as card } from '../../shared/core/cards.js';

// Set, end now and cancel of the card main through /rest/v1/rpc with supabase-js, on both
// databases: its members who may write only (the owner here), on the database's clock, rows
// marked and never deleted (history stays complete).

const HOUR = 3_600_000;

type Segment = { type: string; from: number; to: number | null };

/** What the write functions answer besides their own part: namecard_status's row. */
interface Answer {
  now: number;
  active: Mark | null;
  timeline: Segment[];
}

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
  const dbNow = () => databaseNow(emulator);
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
  const store = (type: string, startIn: number | null, endIn: number) =>
    insertFromDbNow(emulator, type, startIn, endIn);

  beforeAll(async () => {
    ({ emulator, anon, owner, stranger } = await startWithCallers(kind));
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
    const { data, error, status } = await owner.rpc('namecard_end_now', { card });
    expect(error).toBeNull();
    expect(status).toBe(200);
    // One answer: the entries it stopped, and what visitors get afterwards.
    const answer = data as Answer & { ended: Mark[]; already_stopped: Mark[] };
    expect(answer.ended.map((row) => [row.id, row.stop_kind])).toEqual([
      [pause, 'ended'],
      [photo, 'ended'],
    ]);
    expect(answer.already_stopped).toEqual([]);
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
    const { data: read } = await anon
      .rpc('namecard_status', { card }, { get: true })
      .select('timeline');
    const { timeline } = (read as { timeline: Segment[] }[])[0]!;
    // The answer's status is namecard_status's, decided at the call's own instant.
    expect(answer.active).toBeNull();
    expect(answer.now).toBeGreaterThanOrEqual(before - 1000);
    expect(answer.timeline.slice(1)).toEqual(timeline.slice(1));
    expect(answer.timeline[0]).toMatchObject({ type: 'main', from: answer.now });
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
    const { data, error } = await owner.rpc('namecard_end_now', { card });
    expect(error).toBeNull();
    expect((data as { ended: Mark[] }).ended).toEqual([]);
    expect(await all()).toEqual(before);
  });

  test('cancel: a scheduled entry never starts, a running one ends now; both stay, marked', async () => {
    const running = await store('photo', null, HOUR);
    const later = await store('photo', 2 * HOUR, 3 * HOUR);
    const one = await owner.rpc('namecard_cancel', { entry_id: later, card });
    expect(one.error).toBeNull();
    expect((one.data as { cancelled: Mark }).cancelled).toMatchObject({
      id: later,
      stop_kind: 'cancelled',
    });
    const two = await owner.rpc('namecard_cancel', { entry_id: running, card });
    expect(two.error).toBeNull();
    const rows = await all();
    expect(rows).toHaveLength(2);
    const [r, l] = rows;
    expect(l).toMatchObject({ stop_kind: 'cancelled', stamp_end: l!.stamp_start });
    expect(l!.planned_end).toBeGreaterThan(l!.stamp_end);
    expect(r).toMatchObject({ stop_kind: 'cancelled', stamp_end: r!.stopped_at });
    const { data } = await anon.rpc('namecard_go', { card }, { get: true }).select('id');
    expect(data).toEqual([]);
  });

  test.each([
    ['an unknown entry', async () => 999_999, 404, 'PT404', 'There is no entry 999999'],
    ['an ended entry', async () => store('photo', null, -HOUR), 409, 'PT409', 'has already ended'],
  ])('cancel refuses %s (HTTP %i) and changes nothing', async (_what, make, http, code, words) => {
    const id = await make();
    const before = await all();
    const { error, status } = await owner.rpc('namecard_cancel', { entry_id: id, card });
    expect(status).toBe(http);
    expect(error?.code).toBe(code);
    expect(error?.message).toContain(words);
    expect(await all()).toEqual(before);
  });

  // The writes name their card: a caller who is no member of it (anon without a card token, a
  // signed-in stranger) is told that none of their cards has that name, as for a card that does
  // not exist, and nothing changes.
  test.each([
    ['anon', () => anon],
    ['a signed-in stranger', () => stranger],
  ])('%s may run neither: 404 PT404 no such card, nothing changes', async (_who, caller) => {
    const id = await store('photo', null, HOUR);
    const before = await all();
    for (const refused of [
      await caller().rpc('namecard_end_now', { card }),
      await caller().rpc('namecard_cancel', { entry_id: id, card }),
    ]) {
      expect(refused.status).toBe(404);
      expect(refused.error).toMatchObject({
        code: 'PT404',
        message: 'None of your cards is called main',
        details: 'no such card',
      });
    }
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
      body: JSON.stringify({ entry_id: 'abc', card }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('22P02');
  });

  test('set stores the entry as the caller and answers it with what visitors get now, in one call', async () => {
    const now = await dbNow();
    const { data, error, status } = await owner.rpc('namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end: now + HOUR,
      card,
    });
    expect(error).toBeNull();
    expect(status).toBe(200);
    const answer = data as Answer & { entry: Mark & { created_by: string | null } };
    const [row] = await all();
    expect(answer.entry).toMatchObject({ id: row!.id, type: 'photo', stamp_end: now + HOUR });
    expect(answer.entry.created_by).toBe((await owner.auth.getUser()).data.user!.id);
    expect(answer.active).toMatchObject({ id: row!.id, type: 'photo' });
    expect(answer.timeline.map((s) => [s.type, s.to])).toEqual([
      ['photo', now + HOUR],
      ['main', null],
    ]);
  });

  test('set is refused to whoever is no member of the card (404 PT404) and for entries the table refuses', async () => {
    const now = await dbNow();
    const entry = { type: 'photo', stamp_start: null, stamp_end: now + HOUR, card };
    for (const caller of [stranger, anon]) {
      const refused = await caller.rpc('namecard_set', entry);
      expect(refused.status).toBe(404);
      expect(refused.error?.code).toBe('PT404');
    }
    const unknown = await owner.rpc('namecard_set', { ...entry, type: 'nosuchprofile' });
    expect(unknown.status).toBe(409);
    expect(unknown.error).toMatchObject({
      code: '23503',
      message: 'unknown profile: nosuchprofile',
    });
    const backwards = await owner.rpc('namecard_set', { ...entry, stamp_start: now + 2 * HOUR });
    expect(backwards.error?.code).toBe('23514');
    expect(await all()).toEqual([]);
  });

  // Deterministic: another transaction holds the entry's lock while End now starts, then
  // cancels it and commits. Over PostgreSQL only: PGlite has one connection, so End now could
  // not start before the other transaction ended.
  if (kind === 'postgres') {
    test('end now that waited for a cancel stops nothing and answers what the cancel did', async () => {
      const id = await store('photo', null, 10 * HOUR);
      const [original] = await all();
      const holder = emulator.query(
        `begin;
           select id from public.namecard where id = ${id} for update;
           select pg_sleep(0.6);
           update public.namecard set stopped_at = (extract(epoch from now()) * 1000)::bigint,
             stop_kind = 'cancelled', planned_end = stamp_end,
             stamp_end = (extract(epoch from now()) * 1000)::bigint
           where id = ${id};
           commit;`,
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      const end = await owner.rpc('namecard_end_now', { card });
      await holder;
      expect(end.error).toBeNull();
      const answer = end.data as { ended: Mark[]; already_stopped: Mark[] };
      expect(answer.ended).toEqual([]);
      expect(answer.already_stopped).toEqual([
        expect.objectContaining({ id, stop_kind: 'cancelled', planned_end: original!.stamp_end }),
      ]);
      const [row] = await all();
      expect(row).toMatchObject({ stop_kind: 'cancelled', planned_end: original!.stamp_end });
    });
  }

  // Two owners (or the CLI and the web) at once on the same running entry: one of them stops
  // it, the other is told what that one did, and the entry's planned end stays the original.
  test('end now and cancel racing on one running entry: one wins, the other is told, planned_end kept (25 rounds)', async () => {
    const second = createTestClient(emulator.url, emulator.anonKey);
    expect((await second.auth.signInWithPassword(OWNER)).error).toBeNull();
    for (let round = 0; round < 25; round++) {
      await emulator.query('delete from public.namecard');
      const id = await store('photo', null, 10 * HOUR);
      const [original] = await all();
      const [end, cancel] = await Promise.all([
        owner.rpc('namecard_end_now', { card }),
        second.rpc('namecard_cancel', { entry_id: id, card }),
      ]);
      const [row] = await all();
      // Whatever the order, the row keeps its original end as planned_end.
      expect(row!.planned_end).toBe(original!.stamp_end);
      expect(end.error).toBeNull();
      const ended = (end.data as { ended: Mark[]; already_stopped: Mark[] }).ended;
      const told = (end.data as { already_stopped: Mark[] }).already_stopped;
      if (row!.stop_kind === 'ended') {
        // End won: it says so, and cancel was refused naming what end did.
        expect(ended.map((r) => r.id)).toEqual([id]);
        expect(cancel.status).toBe(409);
        expect(cancel.error?.code).toBe('PT409');
        expect(cancel.error?.message).toBe(`Entry ${id} was already ended early`);
      } else {
        // Cancel won: end stopped nothing and was told that the entry was cancelled.
        expect(row!.stop_kind).toBe('cancelled');
        expect(cancel.error).toBeNull();
        expect(ended).toEqual([]);
        // Told only when end saw the entry in force before cancel committed; either way
        // it stopped nothing. Its status is decided at its own instant, which may come a
        // few ms before cancel's stop: then the entry is still active there, until that stop.
        for (const r of told) expect(r).toMatchObject({ id, stop_kind: 'cancelled' });
        const active = (end.data as Answer).active;
        if (active) expect(active).toMatchObject({ id, stamp_end: row!.stamp_end });
      }
    }
  });
});
