import { createHash } from 'node:crypto';
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
  type TokenCaller,
} from '../support/cards.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// Card tokens through the API as a script uses them, on both databases: a token travels in the
// header x-namecard-token with the anon key alone, and is then a member of its one card with its
// role, calling the members' own functions and tables; a token of card A cannot read or write
// card B; a viewer token cannot write (42501 needs editor); a revoked or expired token, or one
// whose card was removed or whose creator no longer owns the card, does nothing and the answer
// says which (401 PT401), while an unknown secret answers as a malformed one; a token with a
// session is refused (400 PT400); only owners create, list and revoke tokens; no role reads the
// table; the emulator logs no token; last use is marked at most once a minute.

const HOUR = 3_600_000;
const TOKEN_FORM = /^nct_[A-Za-z0-9_-]{32}$/;

describe.each(DB_KINDS)('card tokens over %s', { timeout: 180_000 }, (kind) => {
  let emulator: RunningEmulator;
  const logged: string[] = [];
  let ownerA: Person;
  let coOwner: Person;
  let editor: Person;
  let ownerB: Person;
  let entryB: number;
  let cardA: number;

  const snapshot = () => cardRows(emulator);
  const refused = (act: () => Promise<Answer>, status: number, code: string, details?: string) =>
    expectRefused(emulator, act, status, code, details);
  /** A script's caller: the token in its header, the anon key, no session. */
  const as = (secret: string): TokenCaller => ({ cardToken: secret });
  /** The card's status as a token reads it: one GET, as `namecard status` sends it. */
  const status = (secret: string, card = 'alpha') =>
    rest(emulator, as(secret), 'GET', `rpc/namecard_status?card=${card}`);

  /** A token made by `owner` on `card`; answers the create call's body. */
  async function token(
    owner: Person,
    card: string,
    name: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ token: string; name: string; role: string; card: string; expires: string | null }> {
    const made = await rpc(emulator, owner, 'namecard_token_create', { name, card, ...extra });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body as never;
  }

  beforeAll(async () => {
    emulator = await startTestEmulator(kind, { log: (line) => logged.push(line) });
    const at = (name: string) => person(emulator, `${name}@tokens.test`);
    [ownerA, coOwner, editor, ownerB] = await Promise.all([
      at('owner-a'),
      at('co-owner'),
      at('editor'),
      at('owner-b'),
    ]);
    cardA = await makeCard(emulator, ownerA, 'alpha', 'Alpha studio');
    await makeCard(emulator, ownerB, 'beta');
    await join(emulator, ownerA, coOwner, 'alpha', 'owner');
    await join(emulator, ownerA, editor, 'alpha', 'editor');
    const set = await rpc(emulator, ownerB, 'namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end: (await nowMs(emulator)) + HOUR,
      card: 'beta',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    entryB = (set.body as { entry: { id: number } }).entry.id;
  });
  afterAll(() => emulator?.stop());

  test('an owner creates a token: shown once, 192 bits after nct_, only its sha256 stored', async () => {
    const before = await nowMs(emulator);
    const made = await token(ownerA, 'alpha', 'github-actions');
    expect(made).toMatchObject({ name: 'github-actions', role: 'editor', card: 'alpha' });
    expect(made.token).toMatch(TOKEN_FORM);
    const expires = Date.parse(made.expires!);
    expect(expires).toBeGreaterThanOrEqual(before + 90 * 24 * HOUR - 60_000);
    expect(expires).toBeLessThanOrEqual(before + 90 * 24 * HOUR + 60_000);
    const rows = await emulator.query<{ row: string; hash: string }>(
      `select to_jsonb(k)::text as row, encode(k.hash, 'hex') as hash
       from private.namecard_token as k where k.name = 'github-actions'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hash).toBe(createHash('sha256').update(made.token).digest('hex'));
    expect(rows[0]!.row).not.toContain(made.token);
    expect(rows[0]!.row).not.toContain(made.token.slice(4));
    const again = await token(ownerA, 'alpha', 'second');
    expect(again.token).not.toBe(made.token);
  });

  test("with an editor token and no session, a script sets, ends and cancels its card through the members' functions", async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'ci-editor');
    const script = as(secret);
    const now = await nowMs(emulator);
    const set = await rpc(emulator, script, 'namecard_set', {
      type: 'photo',
      stamp_start: null,
      stamp_end: now + HOUR,
      card: 'alpha',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const entry = (set.body as { entry: { id: number; card_id: number } }).entry;
    expect(set.body).toMatchObject({ active: { id: entry.id, type: 'photo' } });
    const [stored] = await emulator.query<{ slug: string; created_by: string | null }>(
      `select c.slug, n.created_by from public.namecard as n
       join public.namecard_card as c on c.id = n.card_id where n.id = $1`,
      [entry.id],
    );
    expect(stored).toEqual({ slug: 'alpha', created_by: null });

    const read = await status(secret);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject([{ active: { id: entry.id } }]);

    const ended = await rpc(emulator, script, 'namecard_end_now', { card: 'alpha' });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toMatchObject({
      ended: [{ id: entry.id, stop_kind: 'ended' }],
      active: null,
    });

    const later = await rpc(emulator, script, 'namecard_set', {
      type: 'photo',
      stamp_start: now + HOUR,
      stamp_end: now + 2 * HOUR,
      card: 'alpha',
    });
    const laterId = (later.body as { entry: { id: number } }).entry.id;
    const cancelled = await rpc(emulator, script, 'namecard_cancel', {
      entry_id: laterId,
      card: 'alpha',
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ cancelled: { id: laterId, stop_kind: 'cancelled' } });

    const series = await rpc(emulator, script, 'namecard_set_series', {
      type: 'photo',
      weekdays: [6],
      start_time: '10:00',
      end_time: '18:00',
      time_zone: 'Europe/Berlin',
      card: 'alpha',
    });
    expect(series.status, JSON.stringify(series.body)).toBe(200);

    const entries = await rest(
      emulator,
      script,
      'GET',
      `namecard?select=id&card_id=eq.${cardA}&order=id.desc&limit=5`,
    );
    expect(entries.status).toBe(200);
    expect((entries.body as { id: number }[]).map((e) => e.id)).toEqual([laterId, entry.id]);
    const who = await rpc(emulator, script, 'namecard_caller');
    expect(who.body).toMatchObject({
      kind: 'token',
      card: 'alpha',
      name: 'ci-editor',
      role: 'editor',
    });
    const cards = await rpc(emulator, script, 'namecard_cards');
    expect(cards.body).toEqual([expect.objectContaining({ slug: 'alpha', role: 'editor' })]);
  });

  test('a token of card A cannot read or write card B, nor members, profiles or tokens', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'only-alpha');
    const script = as(secret);
    // Card B is none of the token's cards: refused as a slug never given.
    const named = await refused(
      () => rpc(emulator, script, 'namecard_cancel', { entry_id: entryB, card: 'beta' }),
      404,
      'PT404',
      'no such card',
    );
    const never = await rpc(emulator, script, 'namecard_cancel', {
      entry_id: entryB,
      card: 'never-given',
    });
    expect(JSON.stringify(named.body).replace('beta', 'never-given')).toBe(
      JSON.stringify(never.body),
    );
    // B's entry id is no entry of A's card.
    const missed = await refused(
      () => rpc(emulator, script, 'namecard_cancel', { entry_id: entryB, card: 'alpha' }),
      404,
      'PT404',
    );
    expect(missed.body).toMatchObject({ message: `There is no entry ${entryB}` });
    for (const table of [
      'namecard',
      'namecard_series',
      'namecard_series_stop',
      'namecard_profile',
      'namecard_visit',
    ]) {
      const rows = await rest(emulator, script, 'GET', `${table}?select=card_id`);
      expect(rows.status, table).toBe(200);
      expect(
        (rows.body as { card_id: number }[]).filter((r) => r.card_id !== cardA),
        table,
      ).toEqual([]);
    }
    const stamp_end = Date.now() + HOUR;
    for (const [fn, args] of [
      ['namecard_members', { card: 'alpha' }],
      ['namecard_tokens', { card: 'alpha' }],
      ['namecard_token_create', { name: 'x', card: 'alpha' }],
      ['namecard_token_revoke', { name: 'only-alpha', card: 'alpha' }],
      ['namecard_member_invite', { role: 'owner', card: 'alpha' }],
      ['namecard_remove_profile', { profile_name: 'photo', card: 'alpha' }],
      ['namecard_card_add', { slug: 'by-token' }],
      ['namecard_set', { type: 'photo', stamp_start: null, stamp_end, card: 'beta' }],
      ['namecard_end_now', { card: 'beta' }],
    ] as const) {
      const before = await snapshot();
      const answer = await rpc(emulator, script, fn, args);
      expect(answer.status, `${fn}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(answer.body), fn).not.toContain(secret);
      expect(await snapshot()).toEqual(before);
    }
    for (const [path, body] of [
      [
        'namecard_profile',
        { card_id: cardA, name: 'evil', label: 'Evil', url: 'https://e.example/' },
      ],
      ['namecard', { card_id: cardA, type: 'photo', stamp_end }],
    ] as const) {
      await refused(() => rest(emulator, script, 'POST', path, body), 401, '42501');
    }
  });

  test('a viewer token reads its card and writes nothing (42501 needs editor)', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'viewer-bot', { role: 'viewer' });
    const script = as(secret);
    expect((await status(secret)).status).toBe(200);
    expect((await rest(emulator, script, 'GET', 'namecard?select=id')).status).toBe(200);
    const visits = await rpc(emulator, script, 'namecard_visit_days', {
      day_starts: [0, 900000],
      card: 'alpha',
    });
    expect(visits.status, JSON.stringify(visits.body)).toBe(200);
    const [newest] = await emulator.query<{ id: number }>(
      `select max(n.id) as id from public.namecard as n where n.card_id = $1`,
      [cardA],
    );
    for (const [fn, args] of [
      ['namecard_set', { type: 'photo', stamp_start: null, stamp_end: Date.now() + HOUR }],
      ['namecard_end_now', {}],
      ['namecard_cancel', { entry_id: Number(newest!.id) }],
      [
        'namecard_set_series',
        { type: 'photo', weekdays: [1], start_time: '10:00', end_time: '11:00', time_zone: 'UTC' },
      ],
    ] as const) {
      // 42501 is PostgREST's 401 for the anon role (a token's requests are anon's).
      const answer = await refused(
        () => rpc(emulator, script, fn, { ...args, card: 'alpha' }),
        401,
        '42501',
        'needs editor',
      );
      expect(answer.body).toMatchObject({ message: `permission denied for function ${fn}` });
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
  });

  test('a revoked token stops at the next request, and its name may be given again', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'to-revoke');
    expect((await status(secret)).status).toBe(200);
    const revoked = await rpc(emulator, ownerA, 'namecard_token_revoke', {
      name: 'to-revoke',
      card: 'alpha',
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toMatchObject({ name: 'to-revoke', card: 'alpha' });
    await refused(() => status(secret), 401, 'PT401', 'token revoked');
    await refused(
      () =>
        rpc(emulator, as(secret), 'namecard_set', {
          type: 'photo',
          stamp_start: null,
          stamp_end: Date.now() + HOUR,
          card: 'alpha',
        }),
      401,
      'PT401',
      'token revoked',
    );
    const again = await token(ownerA, 'alpha', 'to-revoke');
    expect((await status(again.token)).status).toBe(200);
    await refused(() => status(secret), 401, 'PT401', 'token revoked');
  });

  test('an expired token does nothing, and says so', async () => {
    const { token: secret, expires } = await token(ownerA, 'alpha', 'short', { valid_seconds: 60 });
    expect(Date.parse(expires!) - (await nowMs(emulator))).toBeLessThanOrEqual(61_000);
    expect((await status(secret)).status).toBe(200);
    // The minute passes (the database's clock cannot be moved; the row's expiry can).
    await emulator.query(
      `update private.namecard_token set expires_at = now() - interval '1 second' where name = 'short'`,
    );
    const answer = await refused(
      () => rpc(emulator, as(secret), 'namecard_end_now', { card: 'alpha' }),
      401,
      'PT401',
      'token expired',
    );
    expect((answer.body as { message: string }).message).toMatch(/^The token short expired at /);
  });

  test("a token stops when its card is removed, or its creator's ownership ends", async () => {
    await makeCard(emulator, ownerA, 'gamma');
    const gamma = await token(ownerA, 'gamma', 'gamma-bot');
    expect((await rpc(emulator, ownerA, 'namecard_card_remove', { card: 'gamma' })).status).toBe(
      200,
    );
    await refused(() => status(gamma.token, 'gamma'), 401, 'PT401', 'card removed');

    const byCo = await token(coOwner, 'alpha', 'co-owner-bot');
    expect((await status(byCo.token)).status).toBe(200);
    const demoted = await rpc(emulator, ownerA, 'namecard_member_role', {
      email: coOwner.email,
      role: 'editor',
      card: 'alpha',
    });
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    await refused(() => status(byCo.token), 401, 'PT401', 'creator not an owner');
    const listed = await rpc(emulator, ownerA, 'namecard_tokens', { card: 'alpha' });
    expect(listed.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'co-owner-bot', state: 'creator not an owner' }),
      ]),
    );
  });

  test('an unknown secret answers exactly as a malformed or empty one: nothing says a token existed', async () => {
    const unknown = await refused(
      () => status(`nct_${'A'.repeat(32)}`),
      401,
      'PT401',
      'invalid token',
    );
    for (const made of ['hello', '', `nct_${'A'.repeat(31)}!`, `nct_${'A'.repeat(33)}`]) {
      const answer = await refused(() => status(made), 401, 'PT401', 'invalid token');
      expect(answer.body, JSON.stringify(made)).toEqual(unknown.body);
    }
    // Whatever the function or table: the same refusal.
    const set = await refused(
      () =>
        rpc(emulator, as(`nct_${'B'.repeat(32)}`), 'namecard_set', {
          type: 'photo',
          stamp_start: null,
          stamp_end: 1,
          card: 'alpha',
        }),
      401,
      'PT401',
      'invalid token',
    );
    expect(set.body).toEqual(unknown.body);
  });

  test('a token sent with a session is refused (400 PT400), whatever the token', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'with-session');
    for (const sent of [secret, `nct_${'C'.repeat(32)}`]) {
      const answer = await refused(
        async () => {
          const res = await fetch(`${emulator.url}/rest/v1/rpc/namecard_end_now`, {
            method: 'POST',
            headers: {
              apikey: emulator.anonKey,
              authorization: `Bearer ${editor.token}`,
              'x-namecard-token': sent,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ card: 'alpha' }),
          });
          return { status: res.status, body: (await res.json()) as unknown };
        },
        400,
        'PT400',
        'token with a session',
      );
      expect(JSON.stringify(answer.body)).not.toContain(sent);
    }
  });

  test('only owners create, list and revoke; the list never holds the secret or its hash', async () => {
    const made = await token(ownerA, 'alpha', 'listed', { role: 'viewer', valid_seconds: null });
    expect(made.expires).toBeNull();
    for (const [fn, args] of [
      ['namecard_token_create', { name: 'by-editor', card: 'alpha' }],
      ['namecard_tokens', { card: 'alpha' }],
      ['namecard_token_revoke', { name: 'listed', card: 'alpha' }],
    ] as const) {
      await refused(() => rpc(emulator, editor, fn, args), 403, '42501', 'needs owner');
      await refused(() => rpc(emulator, ownerB, fn, args), 404, 'PT404', 'no such card');
    }
    const listed = await rpc(emulator, ownerA, 'namecard_tokens', { card: 'alpha' });
    expect(listed.status).toBe(200);
    const row = (listed.body as Record<string, unknown>[]).find((t) => t.name === 'listed');
    expect(row).toEqual({
      name: 'listed',
      role: 'viewer',
      created_at: expect.any(String),
      creator: ownerA.email,
      expires_at: null,
      last_used_at: null,
      state: 'live',
    });
    const [{ hash }] = (await emulator.query<{ hash: string }>(
      `select encode(hash, 'hex') as hash from private.namecard_token where name = 'listed'`,
    )) as [{ hash: string }];
    expect(JSON.stringify(listed.body)).not.toContain(made.token);
    expect(JSON.stringify(listed.body)).not.toContain(hash);
    await refused(
      () => rpc(emulator, ownerA, 'namecard_token_create', { name: 'listed', card: 'alpha' }),
      409,
      '23505',
      'token name taken',
    );
    const bad = await refused(
      () => rpc(emulator, ownerA, 'namecard_token_create', { name: 'bad name', card: 'alpha' }),
      400,
      '22023',
    );
    expect((bad.body as { message: string }).message).toMatch(/^name must be 1 to 40 of /);
  });

  test('last use is marked at most once a minute', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'clocked');
    const lastUse = async () =>
      (
        await emulator.query<{ at: string | null }>(
          `select last_used_at::text as at from private.namecard_token where name = 'clocked' and revoked_at is null`,
        )
      )[0]!.at;
    const use = () => rpc(emulator, as(secret), 'namecard_end_now', { card: 'alpha' });
    expect(await lastUse()).toBeNull();
    expect((await use()).status).toBe(200);
    const first = await lastUse();
    expect(first).not.toBeNull();
    expect((await use()).status).toBe(200);
    expect(await lastUse()).toBe(first);
    await emulator.query(
      `update private.namecard_token set last_used_at = last_used_at - interval '61 seconds' where name = 'clocked'`,
    );
    const moved = await lastUse();
    expect((await use()).status).toBe(200);
    expect(await lastUse()).not.toBe(moved);
  });

  test('no API role reads the tokens table, and the emulator logged no token', async () => {
    const [grants] = await emulator.query<{ anon: boolean; authenticated: boolean }>(
      `select has_table_privilege('anon', 'private.namecard_token', 'select') as anon,
        has_table_privilege('authenticated', 'private.namecard_token', 'select') as authenticated`,
    );
    expect(grants).toEqual({ anon: false, authenticated: false });
    const secrets = await emulator.query<{ n: number }>(
      `select count(*)::int as n from private.namecard_token`,
    );
    expect(secrets[0]!.n).toBeGreaterThan(0);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter((line) => /nct_/.test(line))).toEqual([]);
  });
});
