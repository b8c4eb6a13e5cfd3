import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import {
  expectRefused,
  makeCard,
  person,
  rest,
  rpc,
  type Answer,
  type Person,
} from '../support/cards.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';
import { cardRowId } from '../support/entries.js';

// What any account may make is capped, so that what every call on a card costs stays bounded:
// a card has at most 50 profiles (removed ones count: they stay for the history), an account
// makes at most 20 cards (removed ones count: a slug is never given again), a card has at most
// 50 live tokens and 100 live weekly series. Each refusal names the limit, and stores nothing.

describe.each(DB_KINDS)('limits over %s', { timeout: 180_000 }, (kind) => {
  let emulator: RunningEmulator;
  let owner: Person;

  const refused = (act: () => Promise<Answer>, status: number, code: string, details: string) =>
    expectRefused(emulator, act, status, code, details);
  const profile = (card_id: number, name: string) => ({
    card_id,
    name,
    label: `Profile ${name}`,
    url: `https://${name}.example/`,
  });

  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
    owner = await person(emulator, 'owner@limits.test');
  });
  afterAll(() => emulator?.stop());

  test('a card takes 50 profiles, removed ones counted; the 51st is refused naming the limit', async () => {
    const card_id = await makeCard(emulator, owner, 'profiles');
    // main and photo come with the card: 48 more make 50.
    const made = await rest(
      emulator,
      owner,
      'POST',
      'namecard_profile',
      Array.from({ length: 48 }, (_, i) => profile(card_id, `p${i}`)),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    for (const name of ['p0', 'p1', 'p2']) {
      const removed = await rpc(emulator, owner, 'namecard_remove_profile', {
        profile_name: name,
        card: 'profiles',
      });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    }
    const answer = await refused(
      () => rest(emulator, owner, 'POST', 'namecard_profile', profile(card_id, 'one-more')),
      400,
      '23514',
      'profile limit',
    );
    expect(answer.body).toMatchObject({
      message: 'A card has at most 50 profiles, removed ones included',
    });
    // Two at once are refused whole, and so is a bulk insert starting below the limit.
    await refused(
      () =>
        rest(emulator, owner, 'POST', 'namecard_profile', [
          profile(card_id, 'x1'),
          profile(card_id, 'x2'),
        ]),
      400,
      '23514',
      'profile limit',
    );
    const other = await makeCard(emulator, owner, 'profiles-bulk');
    await refused(
      () =>
        rest(
          emulator,
          owner,
          'POST',
          'namecard_profile',
          Array.from({ length: 49 }, (_, i) => profile(other, `q${i}`)),
        ),
      400,
      '23514',
      'profile limit',
    );
  });

  test('an account makes 20 cards, removed ones counted; the 21st is refused naming the limit', async () => {
    const maker = await person(emulator, 'maker@limits.test');
    for (let i = 1; i <= 20; i++) await makeCard(emulator, maker, `made-${i}`);
    for (const slug of ['made-1', 'made-2']) {
      const removed = await rpc(emulator, maker, 'namecard_card_remove', { card: slug });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    }
    const answer = await refused(
      () => rpc(emulator, maker, 'namecard_card_add', { slug: 'made-21' }),
      400,
      '23514',
      'card limit',
    );
    expect((answer.body as { message: string }).message).toMatch(/at most 20 cards/);
    // Another account's cards are its own to count.
    const other = await person(emulator, 'other-maker@limits.test');
    await makeCard(emulator, other, 'other-1');
  });

  test('a card has 50 live tokens; the 51st is refused naming the limit, and revoking one makes room', async () => {
    await makeCard(emulator, owner, 'tokens');
    for (let i = 0; i < 50; i++) {
      const made = await rpc(emulator, owner, 'namecard_token_create', {
        name: `t${i}`,
        card: 'tokens',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
    }
    const answer = await refused(
      () => rpc(emulator, owner, 'namecard_token_create', { name: 't50', card: 'tokens' }),
      409,
      'PT409',
      'token limit',
    );
    expect((answer.body as { message: string }).message).toMatch(/at most 50 tokens/);
    expect(
      (await rpc(emulator, owner, 'namecard_token_revoke', { name: 't0', card: 'tokens' })).status,
    ).toBe(200);
    expect(
      (await rpc(emulator, owner, 'namecard_token_create', { name: 't50', card: 'tokens' })).status,
    ).toBe(200);
  });

  test('a card has 100 live series; the 101st is refused naming the limit', async () => {
    await makeCard(emulator, owner, 'series');
    await emulator.query(
      `insert into public.namecard_series (card_id, type, weekdays, start_time, end_time, time_zone)
       select $1, 'photo', array[1 + g % 7]::smallint[], make_time(g % 24, 0, 0),
         make_time((g + 1) % 24, 0, 0), 'UTC'
       from generate_series(1, 100) as g`,
      [await cardRowId(emulator, 'series')],
    );
    const answer = await refused(
      () =>
        rpc(emulator, owner, 'namecard_set_series', {
          type: 'photo',
          weekdays: [3],
          start_time: '09:00',
          end_time: '10:00',
          time_zone: 'UTC',
          card: 'series',
        }),
      400,
      '23514',
      'series limit',
    );
    expect((answer.body as { message: string }).message).toBe(
      'a card has at most 100 live weekly series, and this one has 100',
    );
  });
});
