import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import {
  expectRefused,
  makeCard,
  person,
  rest,
  rpc,
  type Answer,
  type Caller,
  type Person,
} from '../support/cards.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// A write into a card the caller may not write is refused the same way whatever that card holds:
// who may write is checked before anything reads the card's data. So a profile name the card has
// (published or not) and one it never had, a slug that exists and one never given, a card id
// that exists and one that does not, all get the same status and body, and nothing is stored.
// Tried by every caller that is no member of the card: another card's owner, a signed-in account
// of no card, anon, and another card's token.

const HOUR = 3_600_000;
/** A card id no card has. */
const NO_CARD_ID = 987_654;

/** Every caller that is no member of card B. */
const STRANGERS = [
  "another card's owner",
  'an account of no card',
  'anon',
  "another card's token",
] as const;

describe.each(DB_KINDS)(
  'writes into a card one is no member of over %s',
  { timeout: 180_000 },
  (kind) => {
    let emulator: RunningEmulator;
    let callers: Record<(typeof STRANGERS)[number], Caller>;
    let beta: number;
    let ownerB: Person;

    beforeAll(async () => {
      emulator = await startTestEmulator(kind);
      const ownerA = await person(emulator, 'owner-a@foreign.test');
      ownerB = await person(emulator, 'owner-b@foreign.test');
      const stranger = await person(emulator, 'stranger@foreign.test');
      await makeCard(emulator, ownerA, 'alpha');
      beta = await makeCard(emulator, ownerB, 'beta');
      // A profile of B's that no entry names: nobody but B's members may learn that it exists.
      const added = await rest(emulator, ownerB, 'POST', 'namecard_profile', {
        card_id: beta,
        name: 'unpublished',
        label: 'Unpublished',
        url: 'https://unpublished.example/',
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      const made = await rpc(emulator, ownerA, 'namecard_token_create', {
        name: 'ci',
        card: 'alpha',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      callers = {
        "another card's owner": ownerA,
        'an account of no card': stranger,
        anon: null,
        "another card's token": { cardToken: (made.body as { token: string }).token },
      };
    });
    afterAll(() => emulator?.stop());

    /**
     * Runs every attempt, each checked to store nothing, and expects one answer for all
     * of them (slugs written as `<slug>` in it, so that naming one slug or another is the same).
     */
    async function sameRefusal(attempts: [string, () => Promise<Answer>][]) {
      const answers: Record<string, Answer> = {};
      for (const [name, act] of attempts) {
        const answer = await act();
        expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(
          400,
        );
        // Refused again, now checking that nothing was stored.
        await expectRefused(emulator, act, answer.status, (answer.body as { code: string }).code);
        answers[name] = {
          status: answer.status,
          body: JSON.parse(
            JSON.stringify(answer.body).replace(/\b(beta|never-given)\b/g, '<slug>'),
          ) as unknown,
        };
      }
      const [first] = Object.values(answers);
      expect(answers).toEqual(
        Object.fromEntries(Object.keys(answers).map((name) => [name, first])),
      );
    }

    test.each(STRANGERS)(
      '%s, namecard_set: a known or unknown profile, an existing or never-given slug: one answer',
      async (name) => {
        const who = callers[name];
        const stamp_end = Date.now() + HOUR;
        const set = (type: string, card: string) => () =>
          rpc(emulator, who, 'namecard_set', { type, stamp_start: null, stamp_end, card });
        await sameRefusal([
          ['known profile, its card', set('unpublished', 'beta')],
          ['main, its card', set('main', 'beta')],
          ['unknown profile, its card', set('guess-1', 'beta')],
          ['known profile, a slug never given', set('unpublished', 'never-given')],
          ['unknown profile, a slug never given', set('guess-1', 'never-given')],
        ]);
      },
    );

    test.each(STRANGERS)(
      '%s, namecard_set_series: a known or unknown profile, an existing or never-given slug: one answer',
      async (name) => {
        const who = callers[name];
        const series = (type: string, card: string) => () =>
          rpc(emulator, who, 'namecard_set_series', {
            type,
            weekdays: [1],
            start_time: '10:00',
            end_time: '11:00',
            time_zone: 'UTC',
            card,
          });
        await sameRefusal([
          ['known profile, its card', series('unpublished', 'beta')],
          ['unknown profile, its card', series('guess-1', 'beta')],
          ['known profile, a slug never given', series('unpublished', 'never-given')],
          ['unknown profile, a slug never given', series('guess-1', 'never-given')],
        ]);
      },
    );

    test.each(STRANGERS)(
      '%s, plain REST into the entries, the series and the profiles: one answer each',
      async (name) => {
        const who = callers[name];
        const stamp_end = Date.now() + HOUR;
        const post = (table: string, body: object) => () =>
          rest(emulator, who, 'POST', table, body);
        await sameRefusal([
          ['known profile', post('namecard', { card_id: beta, type: 'unpublished', stamp_end })],
          ['unknown profile', post('namecard', { card_id: beta, type: 'guess-1', stamp_end })],
          ['no such card', post('namecard', { card_id: NO_CARD_ID, type: 'main', stamp_end })],
        ]);
        const rule = { weekdays: [1], start_time: '10:00', end_time: '11:00', time_zone: 'UTC' };
        await sameRefusal([
          [
            'known profile',
            post('namecard_series', { ...rule, card_id: beta, type: 'unpublished' }),
          ],
          ['unknown profile', post('namecard_series', { ...rule, card_id: beta, type: 'guess-1' })],
          ['no such card', post('namecard_series', { ...rule, card_id: NO_CARD_ID, type: 'main' })],
        ]);
        const profile = (card_id: number, name: string) =>
          post('namecard_profile', { card_id, name, label: 'Mine', url: 'https://mine.example/' });
        await sameRefusal([
          ['a name the card has', profile(beta, 'unpublished')],
          ['a name it has not', profile(beta, 'fresh')],
          ['no such card', profile(NO_CARD_ID, 'fresh')],
        ]);
      },
    );

    test("for the card's own owner the same attempts do differ: a known profile is stored, an unknown one named", async () => {
      const stamp_end = Date.now() + HOUR;
      const set = (type: string) =>
        rpc(emulator, ownerB, 'namecard_set', { type, stamp_start: null, stamp_end, card: 'beta' });
      expect((await set('unpublished')).status).toBe(200);
      const unknown = await set('guess-1');
      expect(unknown.status).toBe(409);
      expect(unknown.body).toMatchObject({ code: '23503', message: 'unknown profile: guess-1' });
    });
  },
);
