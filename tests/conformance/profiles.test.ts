import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD as card } from '../../shared/core/cards.js';
import { GO_FUNCTION, lookupUrl } from '../../shared/core/lookup.js';
import { VISIT_DAYS_PER_CALL } from '../../shared/supabase/data.js';
import { DB_KINDS, dbNow as databaseNow } from '../support/emulator.js';
import { startWithCallers } from '../support/clients.js';
import { cardRowId, insertFromDbNow } from '../support/entries.js';

// The profile table over PostgREST, on both databases: a card's members read its profiles and
// only its owners change them, removing marks a profile (old entries keep their label) and is
// refused for main and for a profile an entry in force or a scheduled entry names, and the
// lookup /go makes answers the destination of what is in force.

const HOUR = 3_600_000;
const SHOP = { name: 'shop', label: 'Shop', url: 'https://shop.example/' };

interface ProfileRow {
  name: string;
  label: string;
  url: string | null;
  removed_at: string | null;
}

describe.each(DB_KINDS)('profiles over %s', (kind) => {
  let emulator: RunningEmulator;
  let anon: SupabaseClient;
  let owner: SupabaseClient;
  let stranger: SupabaseClient;
  /** The profile shop as a row of the card main (card_id its id). */
  let shopRow: typeof SHOP & { card_id: number };

  const profiles = () =>
    emulator.query<ProfileRow>(
      'select name, label, url, removed_at from public.namecard_profile order by name',
    );
  /** The database's clock, epoch ms. */
  const dbNow = () => databaseNow(emulator);
  /** Stores an entry `startIn`/`endIn` ms from the database's now; returns its id. */
  const store = (type: string, startIn: number | null, endIn: number) =>
    insertFromDbNow(emulator, type, startIn, endIn);
  /** The lookup exactly as /go makes it: one GET, the anon key in the query. */
  const lookup = async () => {
    const res = await fetch(lookupUrl(emulator.url, emulator.anonKey, GO_FUNCTION, card));
    expect(res.status).toBe(200);
    return (await res.json()) as { id: number; type: string; url: string | null }[];
  };

  beforeAll(async () => {
    ({ emulator, anon, owner, stranger } = await startWithCallers(kind));
    shopRow = { ...SHOP, card_id: await cardRowId(emulator) };
  });
  afterAll(() => emulator?.stop());
  beforeEach(async () => {
    await emulator.query('delete from public.namecard');
    await emulator.query(`delete from public.namecard_visit`);
    // Through the owner's table rights, not the API: put the table back to the migration's rows.
    await emulator.query(`alter table public.namecard_profile disable trigger user`);
    await emulator.query(`delete from public.namecard_profile where name not in ('main', 'photo')`);
    await emulator.query(
      `update public.namecard_profile set url = null, removed_at = null,
         label = case name when 'main' then 'Main Profile' else 'Photographer' end`,
    );
    await emulator.query(`alter table public.namecard_profile enable trigger user`);
  });

  test('the migration creates main and photo with the spec labels, following the build', async () => {
    expect(await profiles()).toEqual([
      { name: 'main', label: 'Main Profile', url: null, removed_at: null },
      { name: 'photo', label: 'Photographer', url: null, removed_at: null },
    ]);
  });

  test('an owner adds, edits and lists profiles', async () => {
    const added = await owner.from('namecard_profile').insert(shopRow).select('name,label,url');
    expect(added.error).toBeNull();
    expect(added.data).toEqual([SHOP]);
    const edited = await owner
      .from('namecard_profile')
      .update({ url: 'https://shop.example/new', label: 'The shop' })
      .eq('name', 'shop')
      .select('name,label,url');
    expect(edited.data).toEqual([
      { name: 'shop', label: 'The shop', url: 'https://shop.example/new' },
    ]);
    const list = await owner.from('namecard_profile').select('name').order('name');
    expect(list.data).toEqual([{ name: 'main' }, { name: 'photo' }, { name: 'shop' }]);
  });

  test('anon lists no profile and writes none', async () => {
    const list = await anon.from('namecard_profile').select('name');
    expect(list).toMatchObject({ status: 200, data: [], error: null });
    const insert = await anon.from('namecard_profile').insert(shopRow);
    expect(insert.status).toBe(401);
    const update = await anon.from('namecard_profile').update({ url: SHOP.url }).eq('name', 'main');
    expect(update.status).toBe(401);
    const remove = await anon.from('namecard_profile').delete().eq('name', 'photo');
    expect(remove.status).toBe(401);
    const rpc = await anon.rpc('namecard_remove_profile', { profile_name: 'photo', card });
    expect(rpc.status).toBe(401);
    expect(rpc.error?.code).toBe('42501');
    expect((await profiles()).map((p) => [p.name, p.url, p.removed_at])).toEqual([
      ['main', null, null],
      ['photo', null, null],
    ]);
  });

  test('a signed-in non-owner lists nothing and changes nothing', async () => {
    const list = await stranger.from('namecard_profile').select('name');
    expect(list.error).toBeNull();
    expect(list.data).toEqual([]);
    const insert = await stranger.from('namecard_profile').insert(shopRow);
    expect(insert.status).toBe(403);
    expect(insert.error?.code).toBe('42501');
    const update = await stranger
      .from('namecard_profile')
      .update({ url: 'https://evil.example/' })
      .eq('name', 'main')
      .select();
    expect(update.data).toEqual([]);
    await stranger.from('namecard_profile').delete().eq('name', 'photo');
    const rpc = await stranger.rpc('namecard_remove_profile', { profile_name: 'photo', card });
    expect(rpc.status).toBe(404);
    expect(rpc.error?.code).toBe('PT404');
    expect((await profiles()).map((p) => [p.name, p.url, p.removed_at])).toEqual([
      ['main', null, null],
      ['photo', null, null],
    ]);
  });

  test('names, labels and URLs are checked by the database too', async () => {
    const bad: { name: string; label: string; url: string | null }[] = [
      { name: 'Shop', label: 'Shop', url: SHOP.url },
      { name: '1shop', label: 'Shop', url: SHOP.url },
      { name: 'a'.repeat(33), label: 'Shop', url: SHOP.url },
      { name: 'shop', label: '', url: SHOP.url },
      { name: 'shop', label: 'x'.repeat(61), url: SHOP.url },
      { name: 'shop', label: 'Shop', url: 'ftp://shop.example/' },
      { name: 'shop', label: 'Shop', url: '/relative' },
      { name: 'shop', label: 'Shop', url: 'https://user:pw@shop.example/' },
      { name: 'shop', label: 'Shop', url: `https://shop.example/${'a'.repeat(2048)}` },
      { name: 'shop', label: 'Shop', url: null },
    ];
    for (const row of bad) {
      const { error } = await owner
        .from('namecard_profile')
        .insert({ ...row, card_id: shopRow.card_id });
      expect(error?.code, JSON.stringify(row).slice(0, 80)).toBe('23514');
    }
    expect((await profiles()).map((p) => p.name)).toEqual(['main', 'photo']);
  });

  test('removing marks the profile; main and profiles in force or scheduled cannot be removed', async () => {
    await owner.from('namecard_profile').insert(shopRow);
    const running = await store('shop', null, HOUR);
    const scheduled = await store('shop', 2 * HOUR, 3 * HOUR);

    const inUse = await owner.rpc('namecard_remove_profile', { profile_name: 'shop', card });
    expect(inUse.error?.code).toBe('23503');
    expect(inUse.error?.message).toBe(`profile shop is in use by entries ${running}, ${scheduled}`);
    const viaDelete = await owner.from('namecard_profile').delete().eq('name', 'shop');
    expect(viaDelete.status).toBe(409);
    expect((await profiles()).find((p) => p.name === 'shop')?.removed_at).toBeNull();

    const main = await owner.rpc('namecard_remove_profile', { profile_name: 'main', card });
    expect(main.error?.code).toBe('23503');
    expect(main.error?.message).toMatch(/main profile cannot be removed/);

    // Once those entries no longer count, the profile is removed: marked, kept for history.
    await emulator.query(
      `update public.namecard set stamp_end = stamp_start, stop_kind = 'cancelled',
         stopped_at = 1, planned_end = stamp_end where id = $1`,
      [scheduled],
    );
    await emulator.query(
      `update public.namecard set stamp_end = 1, stop_kind = 'ended', stopped_at = 1,
         planned_end = stamp_end where id = $1`,
      [running],
    );
    const removed = await owner.rpc('namecard_remove_profile', { profile_name: 'shop', card });
    expect(removed.error).toBeNull();
    expect((removed.data as ProfileRow[])[0]).toMatchObject({ name: 'shop', label: 'Shop' });
    expect((removed.data as ProfileRow[])[0]!.removed_at).not.toBeNull();
    expect((await profiles()).map((p) => p.name)).toEqual(['main', 'photo', 'shop']);

    // A removed profile stays for old rows, but no new entry may name it, nor an unknown one.
    const now = await dbNow();
    for (const type of ['shop', 'nope']) {
      const { error, status } = await owner.rpc('namecard_set', {
        type,
        stamp_start: null,
        stamp_end: now + HOUR,
        card,
      });
      expect(status).toBe(409);
      expect(error?.message).toBe(`unknown profile: ${type}`);
    }
    // Marking removed goes through DELETE only (its checks), and an update can bring it back.
    const sneak = await owner
      .from('namecard_profile')
      .update({ removed_at: new Date().toISOString() })
      .eq('name', 'photo');
    expect(sneak.error?.code).toBe('42501');
    const back = await owner
      .from('namecard_profile')
      .update({ removed_at: null })
      .eq('name', 'shop')
      .select('name,removed_at');
    expect(back.data).toEqual([{ name: 'shop', removed_at: null }]);
  });

  test("the lookup answers the destination of what is in force, and the build's for main and photo", async () => {
    await owner.from('namecard_profile').insert(shopRow);
    expect(await lookup()).toEqual([]);
    const photo = await store('photo', null, HOUR);
    expect(await lookup()).toMatchObject([{ id: photo, type: 'photo', url: null }]);
    const shop = await store('shop', null, HOUR);
    expect(await lookup()).toMatchObject([{ id: shop, type: 'shop', url: SHOP.url }]);
    // A changed URL is answered at once: nothing is cached or built.
    await owner
      .from('namecard_profile')
      .update({ url: 'https://shop.example/sale' })
      .eq('name', 'shop');
    expect(await lookup()).toMatchObject([{ id: shop, url: 'https://shop.example/sale' }]);
  });

  test('visit counts are read for every profile of the table', async () => {
    await owner.from('namecard_profile').insert(shopRow);
    await store('shop', null, HOUR);
    // As /go counts: a form POST naming the channel and the card, the anon key in the query.
    const counted = await fetch(
      `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
      { method: 'POST', body: new URLSearchParams({ via: 'qr', card }) },
    );
    expect(counted.status).toBe(204);
    const now = await dbNow();
    const start = now - (now % 900_000);
    const { data, error } = await owner.rpc('namecard_visit_days', {
      day_starts: [start, start + 24 * HOUR],
      card,
    });
    expect(error).toBeNull();
    expect(data).toEqual([{ day: 1, type: 'shop', via: 'qr', visits: 1 }]);
  });
});

describe.each(DB_KINDS)('bounded arguments of the visits read over %s', (kind) => {
  let emulator: RunningEmulator;
  let owner: SupabaseClient;
  beforeAll(async () => {
    ({ emulator, owner } = await startWithCallers(kind));
  });
  afterAll(() => emulator?.stop());

  const DAY = 86_400_000;
  const days = (n: number) => Array.from({ length: n }, (_, i) => 1_800_000_000_000 + i * DAY);
  // A month a call: the clients ask a longer span in calls of VISIT_DAYS_PER_CALL starts.
  const most = VISIT_DAYS_PER_CALL;
  const tooMany = (n: number) =>
    `day_starts must hold at most ${most} values (${most - 1} days and the end of the last), not ${n}`;

  test.each([
    [days(most + 1), tooMany(most + 1)],
    [days(20_000), tooMany(20_000)],
    [[...days(3)].reverse(), 'day_starts must be in ascending order'],
    [
      [1_800_000_000_001, 1_800_000_900_001],
      'day_starts must be epoch milliseconds on 15-minute boundaries (multiples of 900000)',
    ],
  ])('refuses %# with 400 22023 and a message naming day_starts', async (dayStarts, message) => {
    const { error, status } = await owner.rpc('namecard_visit_days', {
      day_starts: dayStarts,
      card,
    });
    expect(status).toBe(400);
    expect(error?.code).toBe('22023');
    expect(error?.message).toBe(message);
  });

  test('a month of days and the end are still read in one call', async () => {
    const { error, status } = await owner.rpc('namecard_visit_days', {
      day_starts: days(most),
      card,
    });
    expect(error).toBeNull();
    expect(status).toBe(200);
  });
});
