import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { expectRefused, makeCard, person, rest, type Person } from '../support/cards.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// A profile's label reaches terminals, pages and calendar files: the database refuses one that
// holds a control character (C0, DEL or C1), whoever writes it and by whichever route, with
// PostgREST's answer to a check (400 23514) naming the check, and stores nothing. Any other
// character a person may type is a label.

const CHECK = 'namecard_profile_label_form';

const CONTROL: [string, string][] = [
  ['ESC', 'Photo \u001b[31mred'],
  ['BEL (C0)', 'Photo\u0007'],
  ['a newline', 'Photo\nstudio'],
  ['a tab', 'Photo\tstudio'],
  ['DEL', 'Photo\u007f'],
  ['C1 NEL', 'Photo\u0085'],
  ['C1 CSI', 'Photo \u009b31m'],
  ['the last C1', 'Photo\u009f'],
];

describe.each(DB_KINDS)('profile labels over %s', (kind) => {
  let emulator: RunningEmulator;
  let owner: Person;
  let cardId: number;

  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
    owner = await person(emulator, 'owner@labels.test');
    cardId = await makeCard(emulator, owner, 'labels');
  });
  afterAll(() => emulator?.stop());

  test.each(CONTROL)(
    'a new profile whose label holds %s: 400 23514 naming the check',
    async (_, label) => {
      const answer = await expectRefused(
        emulator,
        () =>
          rest(emulator, owner, 'POST', 'namecard_profile', {
            card_id: cardId,
            name: 'shop',
            label,
            url: 'https://shop.example/',
          }),
        400,
        '23514',
      );
      expect((answer.body as { message: string }).message).toContain(CHECK);
    },
  );

  test.each(CONTROL)('a label changed to hold %s: 400 23514 naming the check', async (_, label) => {
    const answer = await expectRefused(
      emulator,
      () =>
        rest(emulator, owner, 'PATCH', `namecard_profile?card_id=eq.${cardId}&name=eq.photo`, {
          label,
        }),
      400,
      '23514',
    );
    expect((answer.body as { message: string }).message).toContain(CHECK);
  });

  test('any other character is a label: accents, symbols, scripts, emoji', async () => {
    const label = 'Café № 5 · 写真 ☕ — Ünïcödé';
    const made = await rest(emulator, owner, 'POST', 'namecard_profile', {
      card_id: cardId,
      name: 'cafe',
      label,
      url: 'https://cafe.example/',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const changed = await rest(
      emulator,
      owner,
      'PATCH',
      `namecard_profile?card_id=eq.${cardId}&name=eq.photo`,
      { label: 'Fotó ✓' },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(
      await emulator.query(
        `select name, label from public.namecard_profile where card_id = $1 and name in ('cafe', 'photo') order by name`,
        [cardId],
      ),
    ).toEqual([
      { name: 'cafe', label },
      { name: 'photo', label: 'Fotó ✓' },
    ]);
  });
});
