import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { startWithCallers } from '../support/clients.js';
import { DB_KINDS } from '../support/emulator.js';
import { createTestClient } from '../support/supabase.js';
import { OWNER, STRANGER } from '../support/accounts.js';

// Sign-up stays off, and nothing the API answers reveals password hashes, the owner list or
// other users' data: not through the auth endpoints, not through REST on the auth and private
// schemas (which PostgREST does not expose), whoever asks.

/** A bcrypt hash as GoTrue (and the emulator) store them: `$2a$10$…`. */
const BCRYPT = /\$2[abxy]\$\d\d\$/;

describe.each(DB_KINDS)('auth data stays private over %s', (kind) => {
  let emulator: RunningEmulator;
  let ownerId: string;
  let strangerId: string;
  let ownerToken: string;
  let strangerToken: string;

  const userCount = async () =>
    Number(
      (await emulator.query<{ n: number }>('select count(*)::int as n from auth.users'))[0]!.n,
    );

  /**
   * Fails when an answer carries a hash, a hash column, or `others`' addresses. (An error may
   * echo a column name the request asked for, as PostgREST's do; a value never.)
   */
  function expectNothingLeaked(text: string, others: string[], what: string) {
    expect(text, what).not.toMatch(BCRYPT);
    expect(text, what).not.toMatch(/"encrypted_password"\s*:/);
    for (const other of others) expect(text, what).not.toContain(other);
  }

  beforeAll(async () => {
    ({ emulator, ownerId, ownerToken, strangerId, strangerToken } = await startWithCallers(kind));
    // The hashes really are in the database: the checks below look for something that exists.
    const hashes = await emulator.query<{ encrypted_password: string }>(
      'select encrypted_password from auth.users',
    );
    expect(hashes.length).toBe(2);
    for (const { encrypted_password } of hashes) expect(encrypted_password).toMatch(BCRYPT);
  });
  afterAll(() => emulator?.stop());

  describe('sign-up', () => {
    test('supabase-js signUp is refused with 422 signup_disabled and creates no user', async () => {
      const before = await userCount();
      const { data, error } = await createTestClient(emulator.url, emulator.anonKey).auth.signUp({
        email: 'newcomer@exposure.test',
        password: 'newcomer-password-1',
      });
      expect(error).toMatchObject({ status: 422, code: 'signup_disabled' });
      expect(data.user).toBeNull();
      expect(data.session).toBeNull();
      expect(await userCount()).toBe(before);
      const signIn = await createTestClient(emulator.url, emulator.anonKey).auth.signInWithPassword(
        { email: 'newcomer@exposure.test', password: 'newcomer-password-1' },
      );
      expect(signIn.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    });

    test.each([
      { name: 'an email and password', body: { email: 'a@exposure.test', password: 'pw-123456' } },
      { name: "an existing user's email", body: { email: OWNER.email, password: 'other-pw-1' } },
      {
        name: 'metadata claiming a role',
        body: {
          email: 'b@exposure.test',
          password: 'pw-123456',
          data: { role: 'service_role', is_namecard_owner: true },
        },
      },
    ])('POST /auth/v1/signup with $name: 422 signup_disabled, no user', async ({ body }) => {
      const before = await userCount();
      for (const bearer of [emulator.anonKey, ownerToken]) {
        const res = await fetch(`${emulator.url}/auth/v1/signup`, {
          method: 'POST',
          headers: {
            apikey: emulator.anonKey,
            authorization: `Bearer ${bearer}`,
            'content-type': 'application/json;charset=UTF-8',
            'x-supabase-api-version': '2024-01-01',
          },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(422);
        expect(await res.json()).toMatchObject({ code: 'signup_disabled' });
      }
      expect(await userCount()).toBe(before);
    });
  });

  describe('the auth endpoints', () => {
    test('GET /auth/v1/user answers with the caller only, without any hash', async () => {
      for (const [token, id, email, other] of [
        [ownerToken, ownerId, OWNER.email, STRANGER.email],
        [strangerToken, strangerId, STRANGER.email, OWNER.email],
      ] as const) {
        const res = await fetch(`${emulator.url}/auth/v1/user`, {
          headers: { apikey: emulator.anonKey, authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        const text = await res.text();
        expectNothingLeaked(text, [other], email);
        expect(JSON.parse(text)).toMatchObject({ id, email });
      }
    });

    test('a sign-in answers with the signed-in user only, without any hash', async () => {
      const res = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify(STRANGER),
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expectNothingLeaked(text, [OWNER.email, ownerId], 'token');
      expect(JSON.parse(text)).toMatchObject({ user: { id: strangerId } });
    });

    test('a failed sign-in says only "Invalid login credentials", for a known or unknown email', async () => {
      for (const email of [OWNER.email, 'nobody@exposure.test']) {
        const res = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: {
            apikey: emulator.anonKey,
            'content-type': 'application/json',
            'x-supabase-api-version': '2024-01-01',
          },
          body: JSON.stringify({ email, password: 'wrong-password' }),
        });
        expect(res.status).toBe(400);
        const text = await res.text();
        expect(JSON.parse(text)).toEqual({
          code: 'invalid_credentials',
          message: 'Invalid login credentials',
        });
      }
    });

    test('the admin user list is not available to the anon key or a signed-in user', async () => {
      for (const bearer of [emulator.anonKey, ownerToken, strangerToken]) {
        const res = await fetch(`${emulator.url}/auth/v1/admin/users`, {
          headers: { apikey: emulator.anonKey, authorization: `Bearer ${bearer}` },
        });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expectNothingLeaked(await res.text(), [OWNER.email, STRANGER.email], 'admin/users');
      }
    });
  });

  describe('REST on the auth and private schemas', () => {
    const callers = () => [
      { who: 'anon', bearer: emulator.anonKey },
      { who: 'a signed-in user', bearer: strangerToken },
      { who: 'the owner', bearer: ownerToken },
      { who: 'service_role', bearer: emulator.serviceRoleKey },
    ];

    /** Requests that would reveal users, hashes or the members if anything were exposed. */
    const PROBES: {
      name: string;
      path: string;
      init?: RequestInit;
      status: number;
      /** PostgREST's code; none where the emulator answers like the gateway (no route). */
      code?: string;
    }[] = [
      { name: 'auth.users by name', path: 'users?select=*', status: 404, code: '42P01' },
      { name: 'auth.users qualified', path: 'auth.users', status: 404, code: '42P01' },
      {
        name: 'auth.users via Accept-Profile: auth',
        path: 'users?select=email,encrypted_password',
        init: { headers: { 'accept-profile': 'auth' } },
        status: 406,
        code: 'PGRST106',
      },
      {
        name: 'auth.sessions',
        path: 'sessions',
        init: { headers: { 'accept-profile': 'auth' } },
        status: 406,
        code: 'PGRST106',
      },
      {
        name: 'private.namecard_member by name',
        path: 'namecard_member',
        status: 404,
        code: '42P01',
      },
      {
        name: 'private.namecard_member via Accept-Profile: private',
        path: 'namecard_member',
        init: { headers: { 'accept-profile': 'private' } },
        status: 406,
        code: 'PGRST106',
      },
      {
        name: 'an insert into private.namecard_member',
        path: 'namecard_member',
        init: {
          method: 'POST',
          headers: { 'content-profile': 'private', 'content-type': 'application/json' },
          body: JSON.stringify({
            card_id: 1,
            user_id: '00000000-0000-0000-0000-000000000000',
            role: 'owner',
          }),
        },
        status: 406,
        code: 'PGRST106',
      },
      {
        // A function of schema private is no function of the exposed schema: 404.
        name: 'the role check as an RPC',
        path: 'rpc/namecard_role_on',
        init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
        status: 404,
      },
      {
        name: 'a hash column on namecard',
        path: 'namecard?select=encrypted_password',
        status: 400,
        code: '42703',
      },
      {
        name: 'a sub-query in select',
        path: `namecard?select=${encodeURIComponent('id,(select encrypted_password from auth.users)')}`,
        status: 400,
        code: 'PGRST100',
      },
      {
        name: 'the users behind created_by, embedded',
        path: 'namecard?select=*,created_by(*)',
        status: 400,
        code: 'PGRST200',
      },
      {
        name: 'an order by a sub-query',
        path: `namecard?order=${encodeURIComponent('(select encrypted_password from auth.users)')}`,
        status: 400,
        code: 'PGRST100',
      },
    ];

    test.each(PROBES)(
      '$name is not readable by anyone: $status',
      async ({ path, init, status, code }) => {
        for (const { who, bearer } of callers()) {
          const res = await fetch(`${emulator.url}/rest/v1/${path}`, {
            ...init,
            headers: {
              apikey: emulator.anonKey,
              authorization: `Bearer ${bearer}`,
              ...(init?.headers as Record<string, string>),
            },
          });
          const text = await res.text();
          expect(res.status, who).toBe(status);
          if (code) expect((JSON.parse(text) as { code: string }).code, who).toBe(code);
          expectNothingLeaked(text, [OWNER.email, STRANGER.email], who);
        }
        const members = await emulator.query('select user_id, role from private.namecard_member');
        expect(members).toEqual([{ user_id: ownerId, role: 'owner' }]);
      },
    );

    test('a filter value that looks like SQL is a plain value: 200 with no rows', async () => {
      const value = encodeURIComponent("main' or 1=1; select encrypted_password from auth.users--");
      const res = await fetch(
        `${emulator.url}/rest/v1/namecard?select=id,type,stamp_start,stamp_end&type=eq.${value}`,
        {
          headers: { apikey: emulator.anonKey },
        },
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    });
  });
});
