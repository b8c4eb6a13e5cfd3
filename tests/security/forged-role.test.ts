import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { LOCAL_JWT_SECRET, type RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, MAIN_CARD_SQL, startTestEmulator } from '../support/emulator.js';
import { cardRowId } from '../support/entries.js';

// The local JWT secret is public, so anyone can sign a token with any `role` claim. As in
// PostgREST, the API may switch only to roles its login role `authenticator` is a member of
// (anon, authenticated, service_role) or to `authenticator` itself, which holds no privilege on
// any table; any other claim is refused with PostgreSQL's answer to that SET ROLE (42501 → 403,
// or 22023 "does not exist" → 400, as PostgREST 12 maps it) and nothing runs: rows, `created_by`
// and `created_at` stay as they were.

const HOUR = 3_600_000;

/** Claims that get no API role, with PostgREST's answer. */
const FORGED: {
  role: string;
  status: number;
  code: string;
  message: string;
}[] = [
  {
    role: 'postgres',
    status: 403,
    code: '42501',
    message: 'permission denied to set role "postgres"',
  },
  {
    role: 'supabase_admin',
    status: 403,
    code: '42501',
    message: 'permission denied to set role "supabase_admin"',
  },
  {
    role: 'pg_read_all_data',
    status: 403,
    code: '42501',
    message: 'permission denied to set role "pg_read_all_data"',
  },
  {
    // The check PostgREST runs before every request (db-pre-request) lives in schema private,
    // which authenticator may not use: the request ends there, before any table is named.
    role: 'authenticator',
    status: 403,
    code: '42501',
    message: 'permission denied for schema private',
  },
  {
    role: 'no_such_role_here',
    status: 400,
    code: '22023',
    message: 'role "no_such_role_here" does not exist',
  },
];

const OPERATIONS = [
  { name: 'GET', method: 'GET', query: 'select=*', body: undefined },
  { name: 'POST', method: 'POST', query: '', body: { stamp_end: Date.now() + HOUR, type: 'main' } },
  { name: 'PATCH', method: 'PATCH', query: 'id=eq.2', body: { type: 'photo', created_by: null } },
  { name: 'DELETE', method: 'DELETE', query: 'id=eq.2', body: undefined },
];

const forge = (role: string) =>
  new SignJWT({ role, sub: '00000000-0000-0000-0000-000000000001' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(LOCAL_JWT_SECRET));

describe.each(DB_KINDS)('a forged role claim over %s', (kind) => {
  let emulator: RunningEmulator;
  let seeded: unknown[];
  let ownerId: string;
  const rows = () =>
    emulator.query(
      'select id, stamp_end, type, created_by, created_at from public.namecard order by id',
    );

  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
    // Hosted Supabase has this superuser; roles are shared by a server's databases, so
    // another test file may have created it already.
    await emulator.query(`do $$ begin
        create role supabase_admin nologin superuser;
      exception when duplicate_object or unique_violation then null;
      end $$`);
    ({ id: ownerId } = await emulator.createUser('owner@forged.test', 'owner-password-1', {
      owner: true,
    }));
  });
  afterAll(() => emulator?.stop());

  beforeEach(async () => {
    await emulator.query('truncate public.namecard restart identity');
    await emulator.query(
      `insert into public.namecard (card_id, stamp_end, type, created_by)
       values (${MAIN_CARD_SQL}, $1, 'main', $2), (${MAIN_CARD_SQL}, $1, 'main', $2)`,
      [Date.now() + HOUR, ownerId],
    );
    seeded = await rows();
  });

  for (const forged of FORGED) {
    test.each(OPERATIONS)(
      `role "${forged.role}": $name is refused with ${forged.status} ${forged.code}, nothing changes`,
      async (op) => {
        const token = await forge(forged.role);
        const res = await fetch(`${emulator.url}/rest/v1/namecard?${op.query}`, {
          method: op.method,
          headers: {
            apikey: emulator.anonKey,
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            prefer: 'return=representation',
          },
          body: op.body && JSON.stringify(op.body),
        });
        expect(res.status).toBe(forged.status);
        expect(await res.json()).toEqual({
          code: forged.code,
          details: null,
          hint: null,
          message: forged.message,
        });
        expect(await rows()).toEqual(seeded);
      },
    );
  }

  test('the API roles themselves still work: service_role may insert', async () => {
    const res = await fetch(`${emulator.url}/rest/v1/namecard`, {
      method: 'POST',
      headers: {
        apikey: emulator.anonKey,
        authorization: `Bearer ${emulator.serviceRoleKey}`,
        'content-type': 'application/json',
        prefer: 'return=minimal',
      },
      body: JSON.stringify({
        card_id: await cardRowId(emulator),
        stamp_end: Date.now() + HOUR,
        type: 'photo',
      }),
    });
    expect(res.status).toBe(201);
    expect(await emulator.query(`select type from public.namecard where id = 3`)).toEqual([
      { type: 'photo' },
    ]);
  });

  test('after refused and failed API requests the admin connection is the superuser again', async () => {
    const token = await forge('authenticated');
    // Passes the role check, then fails in PostgreSQL (authenticated may not update).
    const res = await fetch(`${emulator.url}/rest/v1/namecard?id=eq.1`, {
      method: 'PATCH',
      headers: {
        apikey: emulator.anonKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ type: 'photo' }),
    });
    expect(res.status).toBe(403);
    expect(
      await emulator.query(`select rolsuper from pg_roles where rolname = current_user`),
    ).toEqual([{ rolsuper: true }]);
    expect(await emulator.query(`select count(*)::int as n from auth.users`)).toEqual([{ n: 1 }]);
  });

  test('the bearer is checked before the body is parsed: a bad token and bad JSON give 401', async () => {
    const res = await fetch(`${emulator.url}/rest/v1/namecard`, {
      method: 'POST',
      headers: {
        apikey: emulator.anonKey,
        authorization: 'Bearer not.a.token',
        'content-type': 'application/json',
      },
      body: '{ this is not json',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'PGRST301' });
    expect(await rows()).toEqual(seeded);
  });

  if (kind === 'postgres') {
    test('API requests reach PostgreSQL logged in as authenticator, not the superuser', async () => {
      const res = await fetch(`${emulator.url}/rest/v1/namecard?select=id`, {
        headers: { apikey: emulator.anonKey, authorization: `Bearer ${emulator.serviceRoleKey}` },
      });
      expect(res.status).toBe(200);
      const logins = await emulator.query<{ usename: string; rolsuper: boolean }>(
        `select distinct a.usename, r.rolsuper from pg_stat_activity a
         join pg_roles r on r.rolname = a.usename
         where a.datname = current_database() and a.usename = 'authenticator'`,
      );
      expect(logins).toEqual([{ usename: 'authenticator', rolsuper: false }]);
    });
  }
});
