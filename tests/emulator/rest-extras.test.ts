import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../emulator/jwt.js';
import { LOCAL_PUBLISHABLE_KEY, LOCAL_SECRET_KEY } from '../../emulator/keys.js';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD_SQL, startTestEmulator } from '../support/emulator.js';

// PostgREST details beyond the conformance suite, on PGlite (the default backend).
describe('REST details', () => {
  let emulator: RunningEmulator;
  const rest = (path: string, init: RequestInit = {}) =>
    fetch(`${emulator.url}/rest/v1${path}`, {
      ...init,
      headers: {
        apikey: emulator.anonKey,
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  beforeAll(async () => {
    emulator = await startTestEmulator('pglite');
    await emulator.query(
      `insert into public.namecard (card_id, stamp_end, type)
       select ${MAIN_CARD_SQL}, 1000 + g, 'main' from generate_series(1, 5) g`,
    );
  });
  afterAll(() => emulator?.stop());

  it('runs GET read-only: a view that writes answers 405 25006', async () => {
    await emulator.query(`create sequence public.hits;
      create view public.hit_counter as select nextval('public.hits') as n;
      grant select on public.hit_counter to anon; grant usage on sequence public.hits to anon`);
    const res = await rest('/hit_counter');
    expect(res.status).toBe(405);
    expect(((await res.json()) as { code: string }).code).toBe('25006');
  });

  it('honours a Range header and HEAD with count=exact', async () => {
    // As the service (it reads every row: row-level security leaves anon none).
    const service = { authorization: `Bearer ${emulator.serviceRoleKey}` };
    const ranged = await rest('/namecard?select=id&order=id.asc', {
      headers: { ...service, range: '1-2' },
    });
    expect(ranged.headers.get('content-range')).toBe('1-2/*');
    expect(await ranged.json()).toHaveLength(2);

    const head = await rest('/namecard?select=id', {
      method: 'HEAD',
      headers: { ...service, prefer: 'count=exact' },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-range')).toBe('0-4/5');
    expect(await head.text()).toBe('');
  });

  it('answers 406 PGRST106 for a schema other than public', async () => {
    const res = await rest('/namecard', { headers: { 'accept-profile': 'private' } });
    expect(res.status).toBe(406);
    expect(((await res.json()) as { code: string }).code).toBe('PGRST106');
  });

  it('answers 401 PGRST301 "JWT expired" for an expired token, as PostgREST 12 does', async () => {
    const expired = await signJwt({
      role: 'authenticated',
      exp: Math.floor(Date.now() / 1000) - 120,
    });
    const res = await rest('/namecard', { headers: { authorization: `Bearer ${expired}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      code: 'PGRST301',
      message: 'JWT expired',
      details: null,
      hint: null,
    });
  });

  it('treats the opaque publishable key as anon and the secret key as service_role', async () => {
    const asPublishable = await fetch(`${emulator.url}/rest/v1/namecard?select=id&limit=1`, {
      headers: { apikey: LOCAL_PUBLISHABLE_KEY, authorization: `Bearer ${LOCAL_PUBLISHABLE_KEY}` },
    });
    expect(asPublishable.status).toBe(200);
    const asSecret = await fetch(`${emulator.url}/rest/v1/namecard`, {
      method: 'POST',
      headers: { apikey: LOCAL_SECRET_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ card_id: 1, stamp_end: 5000, type: 'photo' }),
    });
    expect(asSecret.status).toBe(201);
  });

  it('rejects names that are not columns instead of putting them into SQL', async () => {
    const attempts = [
      '/namecard?select=id,"type";drop table public.namecard;--',
      '/namecard?select=id&order=id;drop table public.namecard',
      '/namecard?select=id&id"=eq.1',
      `/namecard?select=id,type,stamp_start,stamp_end&type=eq.main'); drop table public.namecard;--`,
    ];
    for (const path of attempts) {
      const res = await rest(path);
      expect([200, 400]).toContain(res.status);
    }
    expect(await emulator.query('select count(*)::int as n from public.namecard')).toEqual([
      { n: 6 },
    ]);
    const all = await rest(`/namecard?type=eq.main'); drop table public.namecard;--`, {
      headers: { authorization: `Bearer ${emulator.serviceRoleKey}` },
    });
    expect(all.status).toBe(200);
    expect(await all.json()).toEqual([]);
    expect(await emulator.query('select count(*)::int as n from public.namecard')).toEqual([
      { n: 6 },
    ]);
  });

  it('answers 406 PGRST116 for .single() when the result is not exactly one row', async () => {
    const res = await rest('/namecard?select=id', {
      headers: { accept: 'application/vnd.pgrst.object+json' },
    });
    expect(res.status).toBe(406);
    expect(((await res.json()) as { code: string }).code).toBe('PGRST116');
  });
});
