import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { join, makeCard, nowMs, person, rpc, type Answer, type Person } from '../support/cards.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// Card tokens (issue 41), through the API as a script uses them, on both databases: a token
// acts on its card with its role and needs no session; a token of card A cannot read or write
// card B; a viewer token cannot write; a revoked, expired token, or one whose card was removed
// or whose creator no longer owns the card, does nothing and the answer says which, while an
// unknown secret answers as a malformed one; only owners create, list and revoke tokens; no
// role reads the table; the emulator logs no token; last use is marked at most once a minute.

const HOUR = 3_600_000;
const TOKEN_FORM = /^nct_[A-Za-z0-9_-]{32}$/;

/** Every table that holds a card's data, and the tokens, to check that a refusal changed none. */
const SNAPSHOT = `select jsonb_build_object(
  'entries', (select jsonb_agg(n order by n.id) from public.namecard as n),
  'series', (select jsonb_agg(s order by s.id) from public.namecard_series as s),
  'stops', (select jsonb_agg(x order by x.series_id, x.occurrence_start) from public.namecard_series_stop as x),
  'profiles', (select jsonb_agg(p order by p.card_id, p.name) from public.namecard_profile as p),
  'members', (select jsonb_agg(m order by m.card_id, m.user_id) from private.namecard_member as m),
  'tokens', (select jsonb_agg(k order by k.id) from private.namecard_token as k)
) as rows`;

describe.each(DB_KINDS)('card tokens over %s', { timeout: 180_000 }, (kind) => {
  let emulator: RunningEmulator;
  const logged: string[] = [];
  let ownerA: Person;
  let coOwner: Person;
  let editor: Person;
  let ownerB: Person;
  let entryB: number;

  const snapshot = async () => (await emulator.query<{ rows: unknown }>(SNAPSHOT))[0]!.rows;
  const anon = (fn: string, args: Record<string, unknown>) => rpc(emulator, null, fn, args);

  /** Runs `act`, checks the refusal's status, code and detail, and that no row changed. */
  async function refused(
    act: () => Promise<Answer>,
    status: number,
    code: string,
    details?: string,
  ) {
    const before = await snapshot();
    const answer = await act();
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject({ code, ...(details === undefined ? {} : { details }) });
    expect(await snapshot()).toEqual(before);
    return answer;
  }

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
    await makeCard(emulator, ownerA, 'alpha', 'Alpha studio');
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

  test('with an editor token and no session, anon sets, ends and cancels its card', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'ci-editor');
    const now = await nowMs(emulator);
    const set = await anon('namecard_token_set', {
      token: secret,
      type: 'photo',
      stamp_start: null,
      stamp_end: now + HOUR,
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

    const status = await anon('namecard_token_status', { token: secret });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject([{ active: { id: entry.id } }]);

    const ended = await anon('namecard_token_end_now', { token: secret });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toMatchObject({
      ended: [{ id: entry.id, stop_kind: 'ended' }],
      active: null,
    });

    const later = await anon('namecard_token_set', {
      token: secret,
      type: 'photo',
      stamp_start: now + HOUR,
      stamp_end: now + 2 * HOUR,
    });
    const laterId = (later.body as { entry: { id: number } }).entry.id;
    const cancelled = await anon('namecard_token_cancel', { token: secret, entry_id: laterId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ cancelled: { id: laterId, stop_kind: 'cancelled' } });

    const series = await anon('namecard_token_set_series', {
      token: secret,
      type: 'photo',
      weekdays: [6],
      start_time: '10:00',
      end_time: '18:00',
      time_zone: 'Europe/Berlin',
    });
    expect(series.status, JSON.stringify(series.body)).toBe(200);

    const entries = await anon('namecard_token_entries', { token: secret, max_rows: 5 });
    expect((entries.body as { id: number }[]).map((e) => e.id)).toEqual([laterId, entry.id]);
    const who = await anon('namecard_token_whoami', { token: secret });
    expect(who.body).toMatchObject({ card: 'alpha', name: 'ci-editor', role: 'editor' });
  });

  test('a token of card A cannot read or write card B, nor members, profiles or tokens', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'only-alpha');
    // No token function takes a card: naming one is no function PostgREST knows.
    await refused(
      () => anon('namecard_token_cancel', { token: secret, entry_id: entryB, card: 'beta' }),
      404,
      'PGRST202',
    );
    // B's entry id is no entry of A's card.
    const missed = await refused(
      () => anon('namecard_token_cancel', { token: secret, entry_id: entryB }),
      404,
      'PT404',
    );
    expect(missed.body).toMatchObject({ message: `There is no entry ${entryB}` });
    const entries = await anon('namecard_token_entries', { token: secret, max_rows: 1000 });
    expect((entries.body as { id: number }[]).map((e) => e.id)).not.toContain(entryB);
    for (const [fn, args] of [
      ['namecard_members', { card: 'alpha' }],
      ['namecard_tokens', { card: 'alpha' }],
      ['namecard_token_create', { name: 'x', card: 'alpha', token: secret }],
      ['namecard_token_revoke', { name: 'only-alpha', card: 'alpha' }],
      ['namecard_set', { type: 'photo', stamp_start: null, stamp_end: 1, card: 'alpha' }],
    ] as const) {
      const before = await snapshot();
      const answer = await anon(fn, args);
      expect(answer.status, `${fn}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400);
      expect(await snapshot()).toEqual(before);
    }
  });

  test('a viewer token reads its card and writes nothing (needs editor)', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'viewer-bot', { role: 'viewer' });
    expect((await anon('namecard_token_status', { token: secret })).status).toBe(200);
    expect((await anon('namecard_token_entries', { token: secret })).status).toBe(200);
    const [newest] = await emulator.query<{ id: number }>(
      `select max(n.id) as id from public.namecard as n where n.card_id = (
        select c.id from public.namecard_card as c where c.slug = 'alpha')`,
    );
    for (const [fn, args] of [
      ['namecard_token_set', { type: 'photo', stamp_start: null, stamp_end: Date.now() + HOUR }],
      ['namecard_token_end_now', {}],
      ['namecard_token_cancel', { entry_id: Number(newest!.id) }],
      [
        'namecard_token_set_series',
        { type: 'photo', weekdays: [1], start_time: '10:00', end_time: '11:00', time_zone: 'UTC' },
      ],
    ] as const) {
      // 42501 is PostgREST's 401 for the anon role (a token's requests are anon's).
      const answer = await refused(
        () => anon(fn, { token: secret, ...args }),
        401,
        '42501',
        'needs editor',
      );
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
  });

  test('a revoked token stops at the next request, and its name may be given again', async () => {
    const { token: secret } = await token(ownerA, 'alpha', 'to-revoke');
    expect((await anon('namecard_token_status', { token: secret })).status).toBe(200);
    const revoked = await rpc(emulator, ownerA, 'namecard_token_revoke', {
      name: 'to-revoke',
      card: 'alpha',
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toMatchObject({ name: 'to-revoke', card: 'alpha' });
    await refused(
      () => anon('namecard_token_status', { token: secret }),
      401,
      'PT401',
      'token revoked',
    );
    await refused(
      () =>
        anon('namecard_token_set', {
          token: secret,
          type: 'photo',
          stamp_start: null,
          stamp_end: Date.now() + HOUR,
        }),
      401,
      'PT401',
      'token revoked',
    );
    const again = await token(ownerA, 'alpha', 'to-revoke');
    expect((await anon('namecard_token_status', { token: again.token })).status).toBe(200);
    await refused(
      () => anon('namecard_token_status', { token: secret }),
      401,
      'PT401',
      'token revoked',
    );
  });

  test('an expired token does nothing, and says so', async () => {
    const { token: secret, expires } = await token(ownerA, 'alpha', 'short', { valid_seconds: 60 });
    expect(Date.parse(expires!) - (await nowMs(emulator))).toBeLessThanOrEqual(61_000);
    expect((await anon('namecard_token_status', { token: secret })).status).toBe(200);
    // The minute passes (the database's clock cannot be moved; the row's expiry can).
    await emulator.query(
      `update private.namecard_token set expires_at = now() - interval '1 second' where name = 'short'`,
    );
    const answer = await refused(
      () => anon('namecard_token_end_now', { token: secret }),
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
    await refused(
      () => anon('namecard_token_status', { token: gamma.token }),
      401,
      'PT401',
      'card removed',
    );

    const byCo = await token(coOwner, 'alpha', 'co-owner-bot');
    expect((await anon('namecard_token_status', { token: byCo.token })).status).toBe(200);
    const demoted = await rpc(emulator, ownerA, 'namecard_member_role', {
      email: coOwner.email,
      role: 'editor',
      card: 'alpha',
    });
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    await refused(
      () => anon('namecard_token_status', { token: byCo.token }),
      401,
      'PT401',
      'creator not an owner',
    );
    const listed = await rpc(emulator, ownerA, 'namecard_tokens', { card: 'alpha' });
    expect(listed.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'co-owner-bot', state: 'creator not an owner' }),
      ]),
    );
  });

  test('an unknown secret answers exactly as a malformed one: nothing says a token existed', async () => {
    const unknown = `nct_${'A'.repeat(32)}`;
    const a = await refused(
      () => anon('namecard_token_status', { token: unknown }),
      401,
      'PT401',
      'invalid token',
    );
    const b = await refused(
      () => anon('namecard_token_status', { token: 'hello' }),
      401,
      'PT401',
      'invalid token',
    );
    const c = await refused(
      () =>
        anon('namecard_token_set', { token: null, type: 'photo', stamp_start: null, stamp_end: 1 }),
      401,
      'PT401',
      'invalid token',
    );
    expect(a.body).toEqual(b.body);
    expect(a.body).toEqual(c.body);
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
    const { token: secret } = await token(ownerA, 'alpha', 'clocked', { role: 'viewer' });
    const lastUse = async () =>
      (
        await emulator.query<{ at: string | null }>(
          `select last_used_at::text as at from private.namecard_token where name = 'clocked' and revoked_at is null`,
        )
      )[0]!.at;
    expect(await lastUse()).toBeNull();
    expect((await anon('namecard_token_status', { token: secret })).status).toBe(200);
    const first = await lastUse();
    expect(first).not.toBeNull();
    expect((await anon('namecard_token_whoami', { token: secret })).status).toBe(200);
    expect(await lastUse()).toBe(first);
    await emulator.query(
      `update private.namecard_token set last_used_at = last_used_at - interval '61 seconds' where name = 'clocked'`,
    );
    const moved = await lastUse();
    expect((await anon('namecard_token_whoami', { token: secret })).status).toBe(200);
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
