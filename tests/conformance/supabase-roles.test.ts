import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPostgres } from '../../emulator/db/postgres.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { applyMigrations } from '../../emulator/migrations.js';
import { SCHEMA_VERSION } from '../../shared/core/schema-version.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { overPostgres } from '../support/emulator.js';
import { layOutSupabase } from '../support/supabase-layout.js';

// On hosted Supabase, `supabase db push` runs the migrations as `postgres`, which is no
// superuser. Here they run the same way, on a server laid out as Supabase's images lay it out,
// so a migration that needs a superuser fails this test before it fails an owner's push.

async function asRole<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('migrations as the non-superuser postgres of a Supabase layout', () => {
  let server: ThrowawayPostgres;
  let postgresUrl: string;

  beforeAll(async () => {
    server = await startThrowawayPostgres({ superuser: 'supabase_admin' });
    postgresUrl = await layOutSupabase(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("the layout is Supabase's: postgres is no superuser, GoTrue's role owns auth", async () => {
    const [row] = await asRole<{ superuser: boolean; users: string; uid: string }>(
      postgresUrl,
      `select (select rolsuper from pg_roles where rolname = current_user) as superuser,
              (select r.rolname from pg_class c join pg_roles r on r.oid = c.relowner
               where c.oid = 'auth.users'::regclass) as users,
              (select r.rolname from pg_proc p join pg_roles r on r.oid = p.proowner
               where p.oid = 'auth.uid()'::regprocedure) as uid`,
    );
    expect(row).toEqual({
      superuser: false,
      users: 'supabase_auth_admin',
      uid: 'supabase_auth_admin',
    });
  });

  test('every migration applies as postgres and the schema version is the newest', async () => {
    const db = await openPostgres(postgresUrl);
    try {
      await db.exec(
        `create schema if not exists supabase_migrations;
         create table if not exists supabase_migrations.schema_migrations (
           version text primary key, name text, statements text[],
           applied_at timestamptz not null default now())`,
      );
      const applied = await applyMigrations(db);
      expect(applied.at(-1)?.version).toBe(SCHEMA_VERSION);
      const [version] = await db.query<{ v: string }>(
        'select public.namecard_schema_version() as v',
      );
      expect(version?.v).toBe(SCHEMA_VERSION);
    } finally {
      await db.close();
    }
  });

  test('a migration that needs a superuser fails here, and is not recorded', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'namecard-migrations-'));
    const db = await openPostgres(postgresUrl);
    try {
      await writeFile(
        path.join(dir, '20991231000000_needs_superuser.sql'),
        'alter role authenticated bypassrls;\n',
      );
      await expect(applyMigrations(db, dir)).rejects.toThrow(
        /migration `20991231000000_needs_superuser\.sql` failed: .*must be superuser/,
      );
      const seen = await db.query(
        `select 1 from supabase_migrations.schema_migrations where version = '20991231000000'`,
      );
      expect(seen).toEqual([]);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("the emulator in front of it serves the API as postgres, with anon refused the owners' functions and a made-up card token", async () => {
    let emulator: RunningEmulator | undefined;
    try {
      emulator = await startEmulator({ ...overPostgres(postgresUrl), port: 0 });
      const headers = { apikey: emulator.anonKey };
      const version = await fetch(`${emulator.url}/rest/v1/rpc/namecard_schema_version`, {
        headers,
      });
      expect(version.status).toBe(200);
      expect(await version.json()).toBe(SCHEMA_VERSION);
      const tokens = await fetch(`${emulator.url}/rest/v1/rpc/namecard_tokens`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ card: 'main' }),
      });
      expect(tokens.status).toBe(401);
      expect(await tokens.json()).toMatchObject({
        code: '42501',
        message: 'permission denied for function namecard_tokens',
      });
      // PostgREST runs the pre-request check the migrations set on authenticator.
      const set = await fetch(`${emulator.url}/rest/v1/rpc/namecard_set`, {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'x-namecard-token': `nct_${'x'.repeat(32)}`,
        },
        body: JSON.stringify({ type: 'photo', stamp_start: null, stamp_end: 1, card: 'main' }),
      });
      expect(set.status).toBe(401);
      expect(await set.json()).toMatchObject({ code: 'PT401', details: 'invalid token' });
      // A user made as GoTrue makes it (by the emulator, as postgres) signs in.
      await emulator.createUser('owner@layout.test', 'layout-owner-password', { owner: true });
      const signIn = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'owner@layout.test', password: 'layout-owner-password' }),
      });
      expect(signIn.status).toBe(200);
    } finally {
      await emulator?.stop();
    }
  });
});
