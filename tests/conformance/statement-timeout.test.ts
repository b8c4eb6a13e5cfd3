import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';
import { OWNER } from '../support/accounts.js';

// Hosted Supabase gives the API roles statement time-outs (anon 3 s, authenticated 8 s) as role
// settings, which PostgreSQL does not apply on SET ROLE: PostgREST reads them and sets them in
// each request's transaction. A statement past its time-out fails with 57014, which PostgREST
// answers 500 (its table: 57* "operator intervention").

/** Test functions, created as the superuser: what a request's transaction sees, and a wait. */
const TEST_FUNCTIONS = `
  create function public.test_statement_timeout() returns text language sql stable
    as $$ select current_setting('statement_timeout') $$;
  create function public.test_plan_cache_mode() returns text language sql stable
    as $$ select current_setting('plan_cache_mode') $$;
  create function public.test_sleep(seconds double precision) returns text language sql volatile
    as $$ select pg_sleep(seconds)::text $$;
  grant execute on function public.test_statement_timeout(), public.test_plan_cache_mode(),
    public.test_sleep(double precision) to anon, authenticated;
`;

describe.each(DB_KINDS)('statement time-outs per role over %s', (kind) => {
  let emulator: RunningEmulator;
  let ownerToken: string;

  beforeAll(async () => {
    emulator = await startTestEmulator(kind, { owner: OWNER });
    await emulator.query(TEST_FUNCTIONS);
    await emulator.reloadSchema();
    const res = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: emulator.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(OWNER),
    });
    ownerToken = ((await res.json()) as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  const call = (path: string, token?: string) =>
    fetch(`${emulator.url}/rest/v1/rpc/${path}`, {
      headers: {
        apikey: emulator.anonKey,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    });

  test("each request runs with its role's time-out: anon 3 s, authenticated 8 s", async () => {
    const anon = await call('test_statement_timeout');
    expect(anon.status).toBe(200);
    expect(await anon.json()).toBe('3s');
    const owner = await call('test_statement_timeout', ownerToken);
    expect(owner.status).toBe(200);
    expect(await owner.json()).toBe('8s');
  });

  // supabase/schemas/roles.sql: /go's lookup keeps custom plans (a generic one reads far more).
  test("each request runs with its role's plan_cache_mode: force_custom_plan for anon and authenticated", async () => {
    for (const token of [undefined, ownerToken]) {
      const res = await call('test_plan_cache_mode', token);
      expect(res.status).toBe(200);
      expect(await res.json()).toBe('force_custom_plan');
    }
  });

  // PGlite runs in one thread and has no timer to cancel a statement: only PostgreSQL can.
  if (kind !== 'postgres') return;
  test("anon's statement past 3 s is cancelled: 500 57014, as PostgREST answers", async () => {
    const res = await call('test_sleep?seconds=4');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: '57014',
      details: null,
      hint: null,
      message: 'canceling statement due to statement timeout',
    });
    // The same wait is within authenticated's 8 s.
    const owner = await call('test_sleep?seconds=4', ownerToken);
    expect(owner.status).toBe(200);
  });
});
