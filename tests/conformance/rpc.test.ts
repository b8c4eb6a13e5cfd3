import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAX_BODY_BYTES } from '../../emulator/server.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';
import { createTestClient } from '../support/supabase.js';

// PostgREST's functions endpoint /rest/v1/rpc/<fn>, called as supabase-js `.rpc()` calls it
// and as a browser sends a CORS-simple POST (text/plain, form-urlencoded, ?apikey=), on
// functions this test creates as the superuser, with explicit grants.

const USER = { email: 'caller@rpc.test', password: 'caller-password-1' };

const FUNCTIONS = `
create table public.rpc_note (
  id bigint generated always as identity primary key,
  note text not null,
  via text not null
);
revoke all on table public.rpc_note from public, anon, authenticated;

create function public.rpc_add(a integer, b integer default 10) returns integer
  language sql immutable as $$ select a + b $$;

create function public.rpc_echo(text) returns text
  language sql immutable as $$ select 'got ' || $1 $$;

create function public.rpc_note_add(note text, via text default 'link') returns bigint
  language sql volatile security definer set search_path = ''
  as $$ insert into public.rpc_note (note, via) values (note, via) returning id $$;

create function public.rpc_notes(min_id bigint default 1) returns setof public.rpc_note
  language sql stable security definer set search_path = ''
  as $$ select * from public.rpc_note where id >= min_id order by id $$;

create function public.rpc_forget(entry_id bigint) returns void
  language sql volatile security definer set search_path = ''
  as $$ delete from public.rpc_note where id = entry_id $$;

create function public.rpc_size(bytea) returns integer
  language sql immutable as $$ select length($1) $$;

create function public.rpc_sum(variadic n integer[]) returns integer
  language sql immutable as $$ select sum(x)::integer from unnest(n) as x $$;

create function public.rpc_members_only() returns integer
  language sql stable as $$ select 42 $$;

create function public.rpc_refuse() returns integer language plpgsql as $$
begin
  raise insufficient_privilege using message = 'only owners may do this';
end $$;

create function public.rpc_fail(reason text) returns integer language plpgsql as $$
begin
  raise exception 'refused: %', reason using hint = 'try another reason';
end $$;

create function public.rpc_pay() returns integer language plpgsql as $$
begin
  raise sqlstate 'PT402' using message = 'Payment Required', detail = 'Quota exceeded';
end $$;

revoke all on function public.rpc_add(integer, integer), public.rpc_echo(text),
  public.rpc_note_add(text, text), public.rpc_notes(bigint), public.rpc_forget(bigint),
  public.rpc_members_only(), public.rpc_refuse(), public.rpc_fail(text), public.rpc_pay(),
  public.rpc_size(bytea), public.rpc_sum(integer[])
  from public, anon, authenticated;
grant execute on function public.rpc_add(integer, integer), public.rpc_echo(text),
  public.rpc_note_add(text, text), public.rpc_notes(bigint), public.rpc_forget(bigint),
  public.rpc_refuse(), public.rpc_fail(text), public.rpc_pay(), public.rpc_size(bytea),
  public.rpc_sum(integer[])
  to anon, authenticated;
grant execute on function public.rpc_members_only() to authenticated;
`;

describe.each(DB_KINDS)('functions at /rest/v1/rpc over %s', { timeout: 60_000 }, (kind) => {
  let emulator: RunningEmulator;
  let anon: SupabaseClient;
  let user: SupabaseClient;
  /** `/rest/v1/rpc/<fn>` with the anon key as `?apikey=`, as a browser page sends it. */
  const rpcUrl = (fn: string, query = '') =>
    `${emulator.url}/rest/v1/rpc/${fn}?apikey=${emulator.anonKey}${query ? `&${query}` : ''}`;
  const notes = () =>
    emulator.query<{ id: number; note: string; via: string }>(
      'select id, note, via from public.rpc_note order by id',
    );

  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
    await emulator.query(FUNCTIONS);
    await emulator.reloadSchema();
    await emulator.createUser(USER.email, USER.password);
    anon = createTestClient(emulator.url, emulator.anonKey);
    user = createTestClient(emulator.url, emulator.anonKey);
    expect((await user.auth.signInWithPassword(USER)).error).toBeNull();
  });
  afterAll(() => emulator?.stop());

  describe('POST with named JSON arguments', () => {
    it('answers a scalar function with its JSON value, defaults filling the rest', async () => {
      expect(await anon.rpc('rpc_add', { a: 1, b: 2 })).toMatchObject({
        data: 3,
        error: null,
        status: 200,
      });
      expect(await anon.rpc('rpc_add', { a: 1 })).toMatchObject({ data: 11, status: 200 });
    });

    it('runs a writing function once and answers a set of rows as an array, with select and filters', async () => {
      await emulator.query('truncate public.rpc_note restart identity');
      expect(await anon.rpc('rpc_note_add', { note: 'first' })).toMatchObject({
        data: 1,
        status: 200,
      });
      expect(await anon.rpc('rpc_note_add', { note: 'second', via: 'qr' })).toMatchObject({
        data: 2,
      });
      expect(await notes()).toEqual([
        { id: 1, note: 'first', via: 'link' },
        { id: 2, note: 'second', via: 'qr' },
      ]);

      const all = await anon.rpc('rpc_notes');
      expect(all.error).toBeNull();
      expect(all.status).toBe(200);
      expect(all.data).toEqual([
        { id: 1, note: 'first', via: 'link' },
        { id: 2, note: 'second', via: 'qr' },
      ]);
      const picked = await anon
        .rpc('rpc_notes', { min_id: 1 })
        .select('id,note,via')
        .eq('via', 'qr')
        .order('id', { ascending: false })
        .limit(5);
      expect(picked).toMatchObject({ data: [{ note: 'second', via: 'qr' }], error: null });
      // PostgREST 12 filters and orders after the select: a column it leaves out cannot be used.
      const unselected = await anon.rpc('rpc_notes').select('note').eq('via', 'qr');
      expect(unselected).toMatchObject({
        status: 400,
        error: { code: '42703', message: 'column rpc_note.via does not exist' },
      });
      const one = await anon.rpc('rpc_notes').select('id,note').eq('id', 1).single();
      expect(one).toMatchObject({ data: { id: 1, note: 'first' }, error: null });
      expect(await anon.rpc('rpc_notes', { min_id: 99 })).toMatchObject({ data: [] });
    });

    it('answers a void function with 204 and no body', async () => {
      await emulator.query('truncate public.rpc_note restart identity');
      await emulator.query(`insert into public.rpc_note (note, via) values ('gone', 'nfc')`);
      const res = await fetch(rpcUrl('rpc_forget'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ entry_id: 1 }),
      });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(await notes()).toEqual([]);
      expect(await anon.rpc('rpc_forget', { entry_id: 5 })).toMatchObject({
        data: null,
        error: null,
        status: 204,
      });
    });

    it('refuses a value its parameter type cannot take with 400 and PostgreSQL code', async () => {
      const { data, error, status } = await anon.rpc('rpc_forget', { entry_id: 'abc' });
      expect(status).toBe(400);
      expect(data).toBeNull();
      expect(error).toMatchObject({
        code: '22P02',
        message: 'invalid input syntax for type bigint: "abc"',
      });
    });

    it('never splices an argument into SQL', async () => {
      await emulator.query('truncate public.rpc_note restart identity');
      const evil = "x'); drop table public.rpc_note; --";
      expect(await anon.rpc('rpc_note_add', { note: evil, via: '"; select 1' })).toMatchObject({
        data: 1,
      });
      expect(await notes()).toEqual([{ id: 1, note: evil, via: '"; select 1' }]);
    });
  });

  describe('CORS-simple POSTs from a browser', () => {
    it('passes a text/plain body as the single unnamed text parameter', async () => {
      const res = await fetch(rpcUrl('rpc_echo'), {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
        body: 'qr & {"not": "json"}',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toBe('got qr & {"not": "json"}');
    });

    it('passes form-urlencoded fields as named arguments, never apikey', async () => {
      await emulator.query('truncate public.rpc_note restart identity');
      // fetch sends URLSearchParams as application/x-www-form-urlencoded;charset=UTF-8.
      const res = await fetch(rpcUrl('rpc_note_add'), {
        method: 'POST',
        body: new URLSearchParams({ note: 'from a form', via: 'nfc' }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toBe(1);
      expect(await notes()).toEqual([{ id: 1, note: 'from a form', via: 'nfc' }]);
    });

    it('answers a text/plain POST to a function without a text parameter with PGRST202', async () => {
      const res = await fetch(rpcUrl('rpc_add'), {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: '1',
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        code: 'PGRST202',
        message: 'Could not find the function public.rpc_add in the schema cache',
        details:
          'Searched for the function public.rpc_add with a single unnamed text parameter, but no matches were found in the schema cache.',
        hint: null,
      });
    });

    it('passes an application/octet-stream body as the single unnamed bytea parameter', async () => {
      const res = await fetch(rpcUrl('rpc_size'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: new Uint8Array([0, 255, 10, 0xc3]),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toBe(4);
    });

    it('refuses a body over 1 MiB with 413 and calls nothing', async () => {
      await emulator.query('truncate public.rpc_note restart identity');
      const res = await fetch(rpcUrl('rpc_note_add'), {
        method: 'POST',
        body: new URLSearchParams({ note: 'x'.repeat(MAX_BODY_BYTES) }),
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: 'Request size limit exceeded' });
      expect(await notes()).toEqual([]);
    });
  });

  describe('GET and HEAD', () => {
    it('calls a function that does not write with query-string arguments', async () => {
      const res = await fetch(rpcUrl('rpc_add', 'a=4&b=5'));
      expect(res.status).toBe(200);
      expect(await res.json()).toBe(9);
      expect(await anon.rpc('rpc_add', { a: 2 }, { get: true })).toMatchObject({
        data: 12,
        status: 200,
      });
      await emulator.query('truncate public.rpc_note restart identity');
      await emulator.query(
        `insert into public.rpc_note (note, via) values ('a', 'qr'), ('b', 'nfc')`,
      );
      // Values with an operator are filters on the result; the rest are arguments.
      const filtered = await fetch(rpcUrl('rpc_notes', 'min_id=1&via=eq.nfc&select=note,via'));
      expect(await filtered.json()).toEqual([{ note: 'b', via: 'nfc' }]);
      const head = await anon.rpc('rpc_notes', {}, { head: true });
      expect(head).toMatchObject({ status: 200, error: null, data: null });
    });

    it("counts a function's rows with Prefer: count=exact: the total in Content-Range, 206 for a part, 416 past the end", async () => {
      await emulator.query('truncate public.rpc_note restart identity');
      await emulator.query(
        `insert into public.rpc_note (note, via) values ('a', 'qr'), ('b', 'nfc'), ('c', 'qr')`,
      );
      const counted = (query: string, method = 'GET') =>
        fetch(rpcUrl('rpc_notes', query), { method, headers: { prefer: 'count=exact' } });
      const all = await counted('select=note');
      expect(all.status).toBe(200);
      expect(all.headers.get('content-range')).toBe('0-2/3');
      expect(all.headers.get('preference-applied')).toBe('count=exact');
      const part = await counted('select=note,via&via=eq.qr&limit=1&offset=1');
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe('1-1/2');
      expect(await part.json()).toEqual([{ note: 'c', via: 'qr' }]);
      const head = await counted('select=note', 'HEAD');
      expect(head.headers.get('content-range')).toBe('0-2/3');
      const past = await counted('offset=5');
      expect(past.status).toBe(416);
      expect(await past.json()).toMatchObject({
        code: 'PGRST103',
        details: 'An offset of 5 was requested, but there are only 3 rows.',
      });
      // A call that writes runs once, however its rows are counted.
      await emulator.query('truncate public.rpc_note restart identity');
      const written = await fetch(rpcUrl('rpc_note_add'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'count=exact' },
        body: JSON.stringify({ note: 'once' }),
      });
      expect(written.headers.get('content-range')).toBe('0-0/1');
      expect(await notes()).toEqual([{ id: 1, note: 'once', via: 'link' }]);
    });

    it('passes repeated query parameters, or a JSON array, to a variadic parameter', async () => {
      const res = await fetch(rpcUrl('rpc_sum', 'n=1&n=2&n=39'));
      expect(res.status).toBe(200);
      expect(await res.json()).toBe(42);
      expect(await anon.rpc('rpc_sum', { n: [40, 2] })).toMatchObject({ data: 42, status: 200 });
    });

    it('refuses a writing function with 405 and 25006, storing nothing', async () => {
      await emulator.query('truncate public.rpc_note restart identity');
      const res = await fetch(rpcUrl('rpc_note_add', 'note=sneaky'));
      expect(res.status).toBe(405);
      expect(await res.json()).toMatchObject({
        code: '25006',
        message: 'cannot execute INSERT in a read-only transaction',
      });
      const viaClient = await anon.rpc('rpc_note_add', { note: 'sneaky' }, { get: true });
      expect(viaClient).toMatchObject({ status: 405, data: null, error: { code: '25006' } });
      expect(await notes()).toEqual([]);
    });

    it('refuses PATCH on a function with 405 PGRST101', async () => {
      const res = await fetch(rpcUrl('rpc_add'), { method: 'PATCH', body: '{}' });
      expect(res.status).toBe(405);
      expect(await res.json()).toMatchObject({
        code: 'PGRST101',
        message: 'Cannot use the PATCH method on RPC',
      });
    });
  });

  describe('unknown functions and argument sets: 404 PGRST202', () => {
    it('names the function, the arguments and the nearest function', async () => {
      const { data, error, status } = await anon.rpc('rpc_ad', { a: 1 });
      expect(status).toBe(404);
      expect(data).toBeNull();
      expect(error).toEqual({
        code: 'PGRST202',
        message: 'Could not find the function public.rpc_ad(a) in the schema cache',
        details:
          'Searched for the function public.rpc_ad with parameter a or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
        hint: 'Perhaps you meant to call the function public.rpc_add',
      });
    });

    it('suggests the parameters of an existing function called with others', async () => {
      const { error, status } = await anon.rpc('rpc_add', { b: 1, c: 2 });
      expect(status).toBe(404);
      expect(error).toEqual({
        code: 'PGRST202',
        message: 'Could not find the function public.rpc_add(b, c) in the schema cache',
        details:
          'Searched for the function public.rpc_add with parameters b, c or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
        hint: 'Perhaps you meant to call the function public.rpc_add(a, b)',
      });
      const get = await fetch(rpcUrl('rpc_add'));
      expect(get.status).toBe(404);
      expect(await get.json()).toMatchObject({
        message:
          'Could not find the function public.rpc_add without parameters in the schema cache',
        details:
          'Searched for the function public.rpc_add without parameters, but no matches were found in the schema cache.',
      });
    });

    // PostgREST's schema cache holds every function of the schema, whoever may run it, so the
    // call reaches PostgreSQL, which refuses it: 42501, answered 401 for anon as hosted
    // PostgREST does (it was asserted as 404 PGRST202 before, which hosted Supabase does not send).
    it("answers a role without EXECUTE with PostgreSQL's 42501: 401 for anon", async () => {
      const { data, error, status } = await anon.rpc('rpc_members_only');
      expect(status).toBe(401);
      expect(data).toBeNull();
      expect(error).toMatchObject({
        code: '42501',
        message: 'permission denied for function rpc_members_only',
      });
      expect(await user.rpc('rpc_members_only')).toMatchObject({ data: 42, status: 200 });
    });

    // PostgREST reads the catalog once, then again on `NOTIFY pgrst, 'reload schema'`.
    it("finds a function created or replaced once the schema cache is reloaded (NOTIFY pgrst, 'reload schema')", async () => {
      expect((await anon.rpc('rpc_late')).status).toBe(404);
      await emulator.query(
        `create function public.rpc_late() returns text language sql as $$ select 'late' $$;
         grant execute on function public.rpc_late() to anon`,
      );
      await emulator.reloadSchema();
      expect(await anon.rpc('rpc_late')).toMatchObject({ data: 'late', status: 200 });
      await emulator.query(
        `drop function public.rpc_late();
         create function public.rpc_late(n integer) returns integer language sql as $$ select n * 2 $$;
         grant execute on function public.rpc_late(integer) to anon`,
      );
      await emulator.reloadSchema();
      expect(await anon.rpc('rpc_late', { n: 21 })).toMatchObject({ data: 42, status: 200 });
    });
  });

  describe('errors raised inside a function', () => {
    it('answers 42501 with 401 for anon and 403 for a signed-in role', async () => {
      const asAnon = await anon.rpc('rpc_refuse');
      expect(asAnon).toMatchObject({
        status: 401,
        data: null,
        error: { code: '42501', message: 'only owners may do this' },
      });
      const asUser = await user.rpc('rpc_refuse');
      expect(asUser).toMatchObject({
        status: 403,
        error: { code: '42501', message: 'only owners may do this' },
      });
    });

    it('answers raise exception with 400 P0001 and its message and hint', async () => {
      expect(await anon.rpc('rpc_fail', { reason: 'ended' })).toMatchObject({
        status: 400,
        error: { code: 'P0001', message: 'refused: ended', hint: 'try another reason' },
      });
    });

    it('answers a PTxyz SQLSTATE with HTTP xyz', async () => {
      expect(await anon.rpc('rpc_pay')).toMatchObject({
        status: 402,
        error: { code: 'PT402', message: 'Payment Required', details: 'Quota exceeded' },
      });
    });
  });
});
