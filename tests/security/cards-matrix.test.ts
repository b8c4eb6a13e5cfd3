import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import {
  cardRows,
  expectRefused,
  join,
  makeCard,
  nowMs,
  person,
  rest,
  rpc,
  type Answer,
  type Person,
} from '../support/cards.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// Who may do what on which card, through every route the API has, on both databases: a member of card A reads and writes nothing of card B; a viewer writes nothing;
// an editor cannot touch members or profiles; anon learns nothing beyond what /go needs for the
// slug it asks; an invitation code works once, for its card and role, until it expires; a
// signed-out session writes nothing. Each refusal leaves the rows as they were.

const HOUR = 3_600_000;

/**
 * The workers that read one card by its id, behind the entry points that check the caller
 * first: they live in schema private, which the API does not expose, so no caller names them.
 */
const PRIVATE_WORKERS = (card: number, series: number, at_ms: number) =>
  [
    ['namecard_series_in_force_of', { card, at_ms }],
    ['namecard_series_next_start_of', { card, series_id: series, after_ms: at_ms }],
    ['namecard_card_next_start', { card, after_ms: at_ms, newer_than: 0, before_ms: null }],
    ['namecard_profile_labels_of', { card, names: ['main', 'photo'] }],
    ['namecard_profile_url_of', { card, profile_name: 'photo' }],
    ['namecard_status_of', { card }],
    ['namecard_in_force_at', { card, at_ms, series: 'exact' }],
    [
      'namecard_occurrences_of',
      { card, from_ms: at_ms - 7 * 24 * HOUR, to_ms: at_ms + 7 * 24 * HOUR },
    ],
    ['namecard_answer', { card, part: {} }],
  ] as const;

describe.each(DB_KINDS)('cards and roles over %s', { timeout: 180_000 }, (kind) => {
  let emulator: RunningEmulator;
  /** Owner of card A (alpha), its editor, its viewer; owner of card B (beta); nobody's member. */
  let ownerA: Person;
  let editor: Person;
  let viewer: Person;
  let ownerB: Person;
  let stranger: Person;
  let cardB: number;
  let entryB: number;
  let seriesB: number;

  const snapshot = () => cardRows(emulator);

  /** Runs `act`, checks the answer, and that no row of any table changed. */
  const refused = (act: () => Promise<Answer>, status: number, code: string, details?: string) =>
    expectRefused(emulator, act, status, code, details);

  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
    const at = (name: string) => person(emulator, `${name}@cards.test`);
    [ownerA, editor, viewer, ownerB, stranger] = await Promise.all([
      at('owner-a'),
      at('editor'),
      at('viewer'),
      at('owner-b'),
      at('stranger'),
    ]);
    await makeCard(emulator, ownerA, 'alpha', 'Alpha studio');
    cardB = await makeCard(emulator, ownerB, 'beta');
    await join(emulator, ownerA, editor, 'alpha', 'editor');
    await join(emulator, ownerA, viewer, 'alpha', 'viewer');
    const now = await nowMs(emulator);
    for (const [owner, card] of [
      [ownerA, 'alpha'],
      [ownerB, 'beta'],
    ] as const) {
      const set = await rpc(emulator, owner, 'namecard_set', {
        type: 'photo',
        stamp_start: null,
        stamp_end: now + HOUR,
        card,
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      if (card === 'beta') entryB = (set.body as { entry: { id: number } }).entry.id;
      const series = await rpc(emulator, owner, 'namecard_set_series', {
        type: 'main',
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        start_time: '03:00',
        end_time: '04:00',
        time_zone: 'UTC',
        card,
      });
      expect(series.status, JSON.stringify(series.body)).toBe(200);
      if (card === 'beta') seriesB = (series.body as { series: { id: number } }).series.id;
      const counted = await fetch(
        `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
        { method: 'POST', body: new URLSearchParams({ via: 'qr', card }) },
      );
      expect(counted.status).toBe(204);
    }
  });
  afterAll(() => emulator?.stop());

  describe('a member of card A reads nothing of card B', () => {
    const TABLES = [
      'namecard',
      'namecard_series',
      'namecard_series_stop',
      'namecard_profile',
      'namecard_visit',
      'namecard_card',
    ];

    test.each(['owner-a', 'editor', 'viewer', 'stranger'])(
      '%s reads no row of B from any table or view',
      async (who) => {
        const caller = { 'owner-a': ownerA, editor, viewer, stranger }[who]!;
        for (const table of TABLES) {
          const column = table === 'namecard_card' ? 'id' : 'card_id';
          const rows = await rest(emulator, caller, 'GET', `${table}?select=*`);
          expect(rows.status, table).toBe(200);
          expect(
            (rows.body as Record<string, unknown>[]).filter((r) => r[column] === cardB),
            table,
          ).toEqual([]);
        }
        const cards = await rpc(emulator, caller, 'namecard_cards');
        expect((cards.body as { slug: string }[]).map((c) => c.slug)).toEqual(
          who === 'stranger' ? [] : ['alpha'],
        );
      },
    );

    test.each([
      [
        'namecard_occurrences',
        { card: 'beta', from_ms: Date.now(), to_ms: Date.now() + 7 * 24 * HOUR },
      ],
      ['namecard_visit_days', { day_starts: [0, 900000], card: 'beta' }],
      ['namecard_members', { card: 'beta' }],
      ['namecard_member_invites', { card: 'beta' }],
      ['namecard_tokens', { card: 'beta' }],
    ])('owner of A asking %s %j: 404 PT404, as for a slug never given', async (fn, args) => {
      const asked = await rpc(emulator, ownerA, fn, args);
      const never = await rpc(emulator, ownerA, fn, { ...args, card: 'never-given' });
      expect(asked.status).toBe(404);
      expect(asked.body).toMatchObject({ code: 'PT404', details: 'no such card' });
      expect(JSON.stringify(asked.body).replace('beta', 'never-given')).toBe(
        JSON.stringify(never.body),
      );
    });

    test('owner of A reaches none of the per-card workers, which take a card id: no route to them', async () => {
      const at_ms = await nowMs(emulator);
      for (const [fn, args] of PRIVATE_WORKERS(cardB, seriesB, at_ms)) {
        const answer = await rpc(emulator, ownerA, fn, args);
        expect(answer.status, fn).toBe(404);
        expect(answer.body, fn).toMatchObject({ code: 'PGRST202' });
      }
    });
  });

  describe('a member of card A writes nothing of card B', () => {
    test.each([
      [
        'namecard_set',
        { type: 'main', stamp_start: null, stamp_end: Date.now() + HOUR, card: 'beta' },
      ],
      [
        'namecard_set_series',
        {
          type: 'main',
          weekdays: [1],
          start_time: '01:00',
          end_time: '02:00',
          time_zone: 'UTC',
          card: 'beta',
        },
      ],
      ['namecard_end_now', { card: 'beta' }],
      ['namecard_remove_profile', { profile_name: 'photo', card: 'beta' }],
      ['namecard_member_invite', { role: 'owner', card: 'beta' }],
      ['namecard_member_role', { email: 'owner-b@cards.test', role: 'viewer', card: 'beta' }],
      ['namecard_member_remove', { email: 'owner-b@cards.test', card: 'beta' }],
      ['namecard_card_rename', { card: 'beta', name: 'Taken' }],
      ['namecard_card_remove', { card: 'beta' }],
    ])('%s %j naming B: 404 PT404, nothing changes', async (fn, args) => {
      await refused(() => rpc(emulator, ownerA, fn, args), 404, 'PT404', 'no such card');
    });

    test("cancel of B's entry and series, in A's name or in B's: 404, nothing changes", async () => {
      for (const id of [entryB, seriesB]) {
        await refused(
          () => rpc(emulator, ownerA, 'namecard_cancel', { entry_id: id, card: 'alpha' }),
          404,
          'PT404',
        );
        await refused(
          () => rpc(emulator, ownerA, 'namecard_cancel', { entry_id: id, card: 'beta' }),
          404,
          'PT404',
          'no such card',
        );
      }
    });

    test('plain REST writes into B are refused by row-level security, nothing changes', async () => {
      const refusedRls = (table: string, body: object) =>
        refused(() => rest(emulator, ownerA, 'POST', table, body), 403, '42501');
      await refusedRls('namecard', { card_id: cardB, type: 'main', stamp_end: Date.now() + HOUR });
      await refusedRls('namecard_series', {
        card_id: cardB,
        type: 'main',
        weekdays: [1],
        start_time: '01:00',
        end_time: '02:00',
        time_zone: 'UTC',
      });
      await refusedRls('namecard_profile', {
        card_id: cardB,
        name: 'evil',
        label: 'Evil',
        url: 'https://evil.example/',
      });
      const before = await snapshot();
      const patch = await rest(emulator, ownerA, 'PATCH', `namecard_profile?card_id=eq.${cardB}`, {
        url: 'https://evil.example/',
      });
      expect(patch).toEqual({ status: 200, body: [] });
      const remove = await rest(emulator, ownerA, 'DELETE', `namecard_profile?card_id=eq.${cardB}`);
      expect(remove).toEqual({ status: 200, body: [] });
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('a viewer writes nothing; an editor touches neither members nor profiles', () => {
    test('the viewer reads the card: status, entries, visits, profiles', async () => {
      const status = await rest(emulator, viewer, 'GET', 'rpc/namecard_status?card=alpha');
      expect(status.status).toBe(200);
      expect(status.body).toEqual([
        expect.objectContaining({ active: expect.objectContaining({ type: 'photo' }) }),
      ]);
      const visits = await rpc(emulator, viewer, 'namecard_visit_days', {
        day_starts: [0, Date.now() - (Date.now() % 900000) + 24 * HOUR],
        card: 'alpha',
      });
      expect(visits.body).toEqual([{ day: 1, type: 'photo', via: 'qr', visits: 1 }]);
    });

    test.each([
      ['namecard_set', { type: 'main', stamp_start: null, stamp_end: Date.now() + HOUR }, 'editor'],
      [
        'namecard_set_series',
        { type: 'main', weekdays: [1], start_time: '01:00', end_time: '02:00', time_zone: 'UTC' },
        'editor',
      ],
      ['namecard_end_now', {}, 'editor'],
      ['namecard_remove_profile', { profile_name: 'photo' }, 'owner'],
      ['namecard_member_invite', { role: 'viewer' }, 'owner'],
      ['namecard_members', {}, 'owner'],
      ['namecard_member_role', { email: 'viewer@cards.test', role: 'owner' }, 'owner'],
      ['namecard_card_rename', { name: 'Mine' }, 'owner'],
      ['namecard_card_remove', {}, 'owner'],
    ])('the viewer calling %s %j: 403 42501 needs %s, nothing changes', async (fn, args, need) => {
      await refused(
        () => rpc(emulator, viewer, fn, { ...args, card: 'alpha' }),
        403,
        '42501',
        `needs ${need}`,
      );
    });

    test.each([
      ['namecard_remove_profile', { profile_name: 'photo' }],
      ['namecard_member_invite', { role: 'editor' }],
      ['namecard_members', {}],
      ['namecard_member_role', { email: 'viewer@cards.test', role: 'editor' }],
      ['namecard_member_remove', { email: 'viewer@cards.test' }],
      ['namecard_card_rename', { name: 'Mine' }],
      ['namecard_card_remove', {}],
    ])('the editor calling %s %j: 403 42501 needs owner, nothing changes', async (fn, args) => {
      await refused(
        () => rpc(emulator, editor, fn, { ...args, card: 'alpha' }),
        403,
        '42501',
        'needs owner',
      );
    });

    test('neither writes a table directly; the editor changes no profile', async () => {
      const cardA = (
        await emulator.query<{ id: number }>(
          `select id from public.namecard_card where slug = 'alpha'`,
        )
      )[0]!.id;
      for (const who of [viewer, editor]) {
        await refused(
          () =>
            rest(emulator, who, 'POST', 'namecard_profile', {
              card_id: cardA,
              name: 'x',
              label: 'X',
              url: 'https://x.example/',
            }),
          403,
          '42501',
        );
        const before = await snapshot();
        const patch = await rest(
          emulator,
          who,
          'PATCH',
          `namecard_profile?card_id=eq.${cardA}&name=eq.photo`,
          { label: 'Mine' },
        );
        expect(patch).toEqual({ status: 200, body: [] });
        expect(await snapshot()).toEqual(before);
      }
      await refused(
        () =>
          rest(emulator, viewer, 'POST', 'namecard', {
            card_id: cardA,
            type: 'main',
            stamp_end: Date.now() + HOUR,
          }),
        403,
        '42501',
      );
    });

    test('the editor sets, ends and cancels on the card', async () => {
      const set = await rpc(emulator, editor, 'namecard_set', {
        type: 'main',
        stamp_start: null,
        stamp_end: Date.now() + HOUR,
        card: 'alpha',
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const id = (set.body as { entry: { id: number } }).entry.id;
      expect(set.body).toMatchObject({ active: { id, type: 'main' } });
      const cancelled = await rpc(emulator, editor, 'namecard_cancel', {
        entry_id: id,
        card: 'alpha',
      });
      expect(cancelled.status).toBe(200);
      const ended = await rpc(emulator, editor, 'namecard_end_now', { card: 'alpha' });
      expect(ended.status).toBe(200);
      expect(ended.body).toMatchObject({ active: null });
    });
  });

  describe('anon learns nothing beyond what /go needs for the slug it asks', () => {
    test('no table, list of cards, member or e-mail', async () => {
      expect((await rest(emulator, null, 'GET', 'namecard_card?select=*')).status).toBe(401);
      // The card tables anon reads as a card token's member: without a token, no row.
      for (const table of [
        'namecard',
        'namecard_series',
        'namecard_series_stop',
        'namecard_profile',
        'namecard_visit',
      ]) {
        const rows = await rest(emulator, null, 'GET', `${table}?select=*`);
        expect(rows, table).toEqual({ status: 200, body: [] });
      }
      // The caller's cards: anon (no token) has none.
      expect(await rpc(emulator, null, 'namecard_cards')).toEqual({ status: 200, body: [] });
      for (const [fn, args] of [
        ['namecard_members', { card: 'beta' }],
        ['namecard_member_invite', { role: 'owner', card: 'beta' }],
        ['namecard_card_add', { slug: 'anon' }],
      ] as const) {
        const answer = await rpc(emulator, null, fn, args);
        expect(answer.status, fn).toBe(401);
        expect(answer.body, fn).toMatchObject({ code: '42501' });
      }
      for (const [fn, args] of PRIVATE_WORKERS(cardB, seriesB, await nowMs(emulator))) {
        const answer = await rpc(emulator, null, fn, args);
        expect(answer.status, fn).toBe(404);
        expect(answer.body, fn).toMatchObject({ code: 'PGRST202' });
      }
    });

    test("/go's lookup answers the slug's entry in force; an unknown or removed slug, as nothing set", async () => {
      const go = (slug: string) => rest(emulator, null, 'GET', `rpc/namecard_go?card=${slug}`);
      expect(await go('beta')).toEqual({
        status: 200,
        body: [
          {
            id: entryB,
            type: 'photo',
            stamp_start: null,
            stamp_end: expect.any(Number),
            url: null,
          },
        ],
      });
      expect(await go('never-given')).toEqual({ status: 200, body: [] });
      const gone = await person(emulator, 'gone@cards.test');
      await makeCard(emulator, gone, 'gone');
      await rpc(emulator, gone, 'namecard_set', {
        type: 'photo',
        stamp_start: null,
        stamp_end: Date.now() + HOUR,
        card: 'gone',
      });
      expect((await go('gone')).body).toHaveLength(1);
      expect((await rpc(emulator, gone, 'namecard_card_remove', { card: 'gone' })).status).toBe(
        200,
      );
      expect(await go('gone')).toEqual({ status: 200, body: [] });
      // Its status: what a card with nothing set answers, as for a slug never given.
      const status = async (slug: string) => {
        const answer = await rest(emulator, null, 'GET', `rpc/namecard_status?card=${slug}`);
        expect(answer.status, slug).toBe(200);
        const [row] = answer.body as { now: number; timeline: { from: number }[] }[];
        return {
          ...row,
          now: 'now',
          timeline: row!.timeline.map((t) => ({
            ...t,
            from: t.from === row!.now ? 'now' : t.from,
          })),
        };
      };
      expect(await status('gone')).toEqual(await status('never-given'));
      expect(await status('gone')).toMatchObject({ active: null, timeline: [{ type: 'main' }] });
    });

    test('counting a visit of an unknown or removed slug counts nothing and answers alike', async () => {
      const before = await snapshot();
      for (const card of ['never-given', 'gone']) {
        const res = await fetch(
          `${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`,
          { method: 'POST', body: new URLSearchParams({ via: 'qr', card }) },
        );
        expect(res.status).toBe(204);
      }
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('invitations', () => {
    test('a code works once, for its card and role; it is kept as its sha256 only', async () => {
      const invited = await rpc(emulator, ownerB, 'namecard_member_invite', {
        role: 'viewer',
        card: 'beta',
      });
      expect(invited.status).toBe(200);
      const { code, role, card, expires } = invited.body as Record<string, string>;
      expect({ role, card }).toEqual({ role: 'viewer', card: 'beta' });
      expect(code).toMatch(/^nci_[A-Za-z0-9_-]{32}$/);
      const days = (Date.parse(expires!) - Date.now()) / (24 * HOUR);
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);
      const stored = await emulator.query<{ text: string }>(
        `select row_to_json(i)::text as text from private.namecard_invitation as i`,
      );
      expect(stored.map((r) => r.text).join()).not.toContain(code!.slice(4));
      const joiner = await person(emulator, 'joiner@cards.test');
      const accepted = await rpc(emulator, joiner, 'namecard_member_accept', { code });
      expect(accepted.body).toMatchObject({ slug: 'beta', role: 'viewer' });
      expect((await rpc(emulator, joiner, 'namecard_cards')).body).toEqual([
        { id: cardB, slug: 'beta', name: 'beta', role: 'viewer' },
      ]);
      // Used: refused to anyone, as an unknown code is, and nothing changes.
      const unknown = await rpc(emulator, stranger, 'namecard_member_accept', {
        code: 'nci_' + 'A'.repeat(32),
      });
      expect(unknown.status).toBe(404);
      await refused(
        () => rpc(emulator, stranger, 'namecard_member_accept', { code }),
        404,
        'PT404',
        'no such invitation',
      );
      expect((await rpc(emulator, stranger, 'namecard_member_accept', { code })).body).toEqual(
        unknown.body,
      );
      // Its role and card only: the viewer still writes nothing, and reads nothing of A.
      await refused(
        () => rpc(emulator, joiner, 'namecard_end_now', { card: 'beta' }),
        403,
        '42501',
        'needs editor',
      );
      expect(
        (
          await rpc(emulator, joiner, 'namecard_visit_days', {
            day_starts: [0, 900000],
            card: 'alpha',
          })
        ).status,
      ).toBe(404);
    });

    test('an expired code and a code of a removed card are refused as an unknown one', async () => {
      const late = await person(emulator, 'late@cards.test');
      const invited = await rpc(emulator, ownerB, 'namecard_member_invite', {
        role: 'editor',
        card: 'beta',
        valid_seconds: 60,
      });
      const { code } = invited.body as { code: string };
      await emulator.query(
        `update private.namecard_invitation set expires_at = now() - interval '1 second' where used_at is null`,
      );
      await refused(
        () => rpc(emulator, late, 'namecard_member_accept', { code }),
        404,
        'PT404',
        'no such invitation',
      );
      const owner = await person(emulator, 'short-lived@cards.test');
      await makeCard(emulator, owner, 'short-lived');
      const forRemoved = await rpc(emulator, owner, 'namecard_member_invite', {
        role: 'owner',
        card: 'short-lived',
      });
      await rpc(emulator, owner, 'namecard_card_remove', { card: 'short-lived' });
      await refused(
        () =>
          rpc(emulator, late, 'namecard_member_accept', {
            code: (forRemoved.body as { code: string }).code,
          }),
        404,
        'PT404',
        'no such invitation',
      );
      expect((await rpc(emulator, late, 'namecard_cards')).body).toEqual([]);
      expect((await rpc(emulator, null, 'namecard_member_accept', { code })).status).toBe(401);
    });

    test("a code dies with its maker's right to invite: a demoted or removed owner's spare codes are refused", async () => {
      const coOwner = await person(emulator, 'co-owner@cards.test');
      await join(emulator, ownerB, coOwner, 'beta', 'owner');
      const spare = async () => {
        const invited = await rpc(emulator, coOwner, 'namecard_member_invite', {
          role: 'owner',
          card: 'beta',
          valid_seconds: 7776000,
        });
        expect(invited.status, JSON.stringify(invited.body)).toBe(200);
        return (invited.body as { code: string }).code;
      };
      const [first, second] = [await spare(), await spare()];
      const demoted = await rpc(emulator, ownerB, 'namecard_member_role', {
        email: coOwner.email,
        role: 'viewer',
        card: 'beta',
      });
      expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
      await refused(
        () => rpc(emulator, coOwner, 'namecard_member_accept', { code: first }),
        404,
        'PT404',
        'no such invitation',
      );
      const roleOf = async (who: Person) =>
        (
          (await rpc(emulator, who, 'namecard_cards')).body as { slug: string; role: string }[]
        ).find((c) => c.slug === 'beta')?.role;
      expect(await roleOf(coOwner)).toBe('viewer');
      const removed = await rpc(emulator, ownerB, 'namecard_member_remove', {
        email: coOwner.email,
        card: 'beta',
      });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      await refused(
        () => rpc(emulator, coOwner, 'namecard_member_accept', { code: second }),
        404,
        'PT404',
        'no such invitation',
      );
      expect(await roleOf(coOwner)).toBeUndefined();
      expect(await roleOf(ownerB)).toBe('owner');
      // Nobody else can use them either, and the owners' list of open codes leaves them out.
      const other = await person(emulator, 'spare-finder@cards.test');
      await refused(
        () => rpc(emulator, other, 'namecard_member_accept', { code: second }),
        404,
        'PT404',
        'no such invitation',
      );
      const open = await rpc(emulator, ownerB, 'namecard_member_invites', { card: 'beta' });
      expect(open.status).toBe(200);
      expect(open.body as { maker: string }[]).not.toContainEqual(
        expect.objectContaining({ maker: coOwner.email }),
      );
    });

    test('owners list the open codes (never the code) and revoke one; others may do neither', async () => {
      const invited = await rpc(emulator, ownerB, 'namecard_member_invite', {
        role: 'editor',
        card: 'beta',
      });
      const { code, expires } = invited.body as { code: string; expires: string };
      const listed = await rpc(emulator, ownerB, 'namecard_member_invites', { card: 'beta' });
      expect(listed.status).toBe(200);
      const mine = (listed.body as Record<string, unknown>[]).find(
        (i) => Date.parse(String(i.expires_at)) === Date.parse(expires),
      );
      expect(mine).toMatchObject({ role: 'editor', maker: ownerB.email });
      expect(Object.keys(mine!).sort()).toEqual(
        ['created_at', 'expires_at', 'id', 'maker', 'role'].sort(),
      );
      expect(JSON.stringify(listed.body)).not.toContain(code.slice(4));
      const editorB = await person(emulator, 'editor-b@cards.test');
      await join(emulator, ownerB, editorB, 'beta', 'editor');
      for (const [who, status] of [
        [editorB, 403],
        [stranger, 404],
      ] as const) {
        await refused(
          () => rpc(emulator, who, 'namecard_member_invites', { card: 'beta' }),
          status,
          status === 403 ? '42501' : 'PT404',
        );
        await refused(
          () =>
            rpc(emulator, who, 'namecard_member_revoke_invite', {
              invitation_id: mine!.id,
              card: 'beta',
            }),
          status,
          status === 403 ? '42501' : 'PT404',
        );
      }
      // Another card's owner cannot reach it through their own card either.
      await refused(
        () =>
          rpc(emulator, ownerA, 'namecard_member_revoke_invite', {
            invitation_id: mine!.id,
            card: 'alpha',
          }),
        404,
        'PT404',
        'no such invitation',
      );
      const revoked = await rpc(emulator, ownerB, 'namecard_member_revoke_invite', {
        invitation_id: mine!.id,
        card: 'beta',
      });
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
      expect(revoked.body).toMatchObject({ id: mine!.id, role: 'editor', card: 'beta' });
      const late = await person(emulator, 'revoked-code@cards.test');
      await refused(
        () => rpc(emulator, late, 'namecard_member_accept', { code }),
        404,
        'PT404',
        'no such invitation',
      );
      const after = await rpc(emulator, ownerB, 'namecard_member_invites', { card: 'beta' });
      expect(after.body as { id: number }[]).not.toContainEqual(
        expect.objectContaining({ id: mine!.id }),
      );
      await refused(
        () =>
          rpc(emulator, ownerB, 'namecard_member_revoke_invite', {
            invitation_id: mine!.id,
            card: 'beta',
          }),
        404,
        'PT404',
        'no such invitation',
      );
    });

    test.each([
      [{ role: 'admin' }, 'role must be owner, editor or viewer'],
      [{ role: 'viewer', valid_seconds: 59 }, 'valid_seconds must be from 60'],
      [{ role: 'viewer', valid_seconds: 7776001 }, 'valid_seconds must be from 60'],
    ])('a bad invitation %j is refused (400 22023), nothing stored', async (args, words) => {
      const before = await snapshot();
      const answer = await rpc(emulator, ownerB, 'namecard_member_invite', {
        ...args,
        card: 'beta',
      });
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toContain(words);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('a card keeps an owner', () => {
    test('the last owner cannot leave or be demoted; with another owner they can', async () => {
      const solo = await person(emulator, 'solo@cards.test');
      await makeCard(emulator, solo, 'solo');
      await refused(
        () => rpc(emulator, solo, 'namecard_member_remove', { email: solo.email, card: 'solo' }),
        409,
        'PT409',
        'last owner',
      );
      await refused(
        () =>
          rpc(emulator, solo, 'namecard_member_role', {
            email: solo.email,
            role: 'editor',
            card: 'solo',
          }),
        409,
        'PT409',
        'last owner',
      );
      const second = await person(emulator, 'second@cards.test');
      await join(emulator, solo, second, 'solo', 'owner');
      const left = await rpc(emulator, solo, 'namecard_member_remove', {
        email: solo.email,
        card: 'solo',
      });
      expect(left).toEqual({
        status: 200,
        body: { card: 'solo', email: solo.email, role: 'owner' },
      });
      expect((await rpc(emulator, second, 'namecard_members', { card: 'solo' })).body).toEqual([
        { email: second.email, role: 'owner', since: expect.any(String), you: true },
      ]);
    });

    test('the card main cannot be removed', async () => {
      const first = await person(emulator, 'first-owner@cards.test', { owner: true });
      await refused(
        () => rpc(emulator, first, 'namecard_card_remove', { card: 'main' }),
        409,
        'PT409',
        'main card',
      );
    });
  });

  describe('a signed-out session writes nothing, by any route', () => {
    test('every write function answers 401 PT401 and every table write is refused', async () => {
      const ended = await person(emulator, 'ended@cards.test');
      await makeCard(emulator, ended, 'ended');
      const cardE = (
        await emulator.query<{ id: number }>(
          `select id from public.namecard_card where slug = 'ended'`,
        )
      )[0]!.id;
      const invited = await rpc(emulator, ownerB, 'namecard_member_invite', {
        role: 'viewer',
        card: 'beta',
      });
      const out = await fetch(`${emulator.url}/auth/v1/logout?scope=global`, {
        method: 'POST',
        headers: { apikey: emulator.anonKey, authorization: `Bearer ${ended.token}` },
      });
      expect(out.status).toBe(204);
      for (const [fn, args] of [
        [
          'namecard_set',
          { type: 'main', stamp_start: null, stamp_end: Date.now() + HOUR, card: 'ended' },
        ],
        [
          'namecard_set_series',
          {
            type: 'main',
            weekdays: [1],
            start_time: '01:00',
            end_time: '02:00',
            time_zone: 'UTC',
            card: 'ended',
          },
        ],
        ['namecard_end_now', { card: 'ended' }],
        ['namecard_cancel', { entry_id: 1, card: 'ended' }],
        ['namecard_remove_profile', { profile_name: 'photo', card: 'ended' }],
        ['namecard_card_add', { slug: 'another' }],
        ['namecard_card_rename', { card: 'ended', name: 'New' }],
        ['namecard_card_remove', { card: 'ended' }],
        ['namecard_member_invite', { role: 'viewer', card: 'ended' }],
        ['namecard_member_role', { email: ended.email, role: 'viewer', card: 'ended' }],
        ['namecard_member_remove', { email: ended.email, card: 'ended' }],
        ['namecard_member_accept', { code: (invited.body as { code: string }).code }],
      ] as const) {
        await refused(() => rpc(emulator, ended, fn, args), 401, 'PT401');
      }
      await refused(
        () =>
          rest(emulator, ended, 'POST', 'namecard', {
            card_id: cardE,
            type: 'main',
            stamp_end: Date.now() + HOUR,
          }),
        403,
        '42501',
      );
      await refused(
        () =>
          rest(emulator, ended, 'POST', 'namecard_profile', {
            card_id: cardE,
            name: 'x',
            label: 'X',
            url: 'https://x.example/',
          }),
        403,
        '42501',
      );
      const before = await snapshot();
      const patch = await rest(emulator, ended, 'PATCH', `namecard_profile?card_id=eq.${cardE}`, {
        label: 'New',
      });
      expect(patch).toEqual({ status: 200, body: [] });
      expect(await snapshot()).toEqual(before);
    });
  });
});

describe.each(DB_KINDS)('the invitation limit over %s', { timeout: 60_000 }, (kind) => {
  let emulator: RunningEmulator | undefined;
  afterAll(() => emulator?.stop());

  test('an address over its tries per window gets 429 and nothing is redeemed; another address still tries', async () => {
    emulator = await startTestEmulator(kind, {
      rateLimits: { invitations: 3, header: 'X-Forwarded-For' },
    });
    const owner = await person(emulator, 'limit-owner@cards.test');
    const guesser = await person(emulator, 'guesser@cards.test');
    await makeCard(emulator, owner, 'limited');
    const invited = await rpc(emulator, owner, 'namecard_member_invite', {
      role: 'editor',
      card: 'limited',
    });
    const { code } = invited.body as { code: string };
    const accept = (tried: string, from: string) =>
      fetch(`${emulator!.url}/rest/v1/rpc/namecard_member_accept`, {
        method: 'POST',
        headers: {
          apikey: emulator!.anonKey,
          authorization: `Bearer ${guesser.token}`,
          'content-type': 'application/json',
          'x-forwarded-for': from,
        },
        body: JSON.stringify({ code: tried }),
      });
    const guesses = [];
    for (let i = 0; i < 3; i++)
      guesses.push((await accept(`nci_${'B'.repeat(31)}${i}`, '203.0.113.7')).status);
    expect(guesses).toEqual([404, 404, 404]);
    // Over the limit: refused before the database is asked, even with the right code.
    const limited = await accept(code, '203.0.113.7');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
    expect((await rpc(emulator, guesser, 'namecard_cards')).body).toEqual([]);
    expect((await accept(code, '198.51.100.8')).status).toBe(200);
    expect((await rpc(emulator, guesser, 'namecard_cards')).body).toEqual([
      expect.objectContaining({ slug: 'limited', role: 'editor' }),
    ]);
  });
});
