import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAX_PARAMS, groupParams } from '../../emulator/rest/rpc.js';
import { startTestEmulator } from '../support/emulator.js';

// A form POST to an RPC with a flood of repeated fields (anyone may send one: the anon key is
// public) is refused with a 400 naming the limit, without grouping the fields first; grouping
// itself appends in place, so its work grows with the fields, not with their square.

describe('form fields of an RPC call', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator('pglite');
  });
  afterAll(() => emulator?.stop());

  const post = (body: string) =>
    fetch(`${emulator.url}/rest/v1/rpc/namecard_count_visit?apikey=${emulator.anonKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });

  test('30,000 repeated fields (90 KB) get 400 PGRST102, and nothing is counted', async () => {
    const res = await post(Array.from({ length: 30_000 }, () => 'a=1').join('&'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'PGRST102',
      message: `Too many parameters: at most ${MAX_PARAMS} fields`,
    });
    expect(await emulator.query('select * from public.namecard_visit')).toEqual([]);
  });

  test('up to the limit, repeated names keep every value in order', () => {
    const pairs = Array.from({ length: MAX_PARAMS }, (_, i): [string, string] => [
      i % 2 ? 'b' : 'a',
      String(i),
    ]);
    const grouped = groupParams(pairs);
    expect(grouped.get('a')).toHaveLength(MAX_PARAMS / 2);
    expect(grouped.get('b')?.slice(0, 3)).toEqual(['1', '3', '5']);
    expect(() => groupParams([...pairs, ['c', 'x']])).toThrow('Too many parameters');
  });
});

describe('the token endpoint', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator('pglite');
  });
  afterAll(() => emulator?.stop());

  test('refuses an unknown grant type before reading the body', async () => {
    // The body is not even JSON: read first, it would be refused for that instead.
    const res = await fetch(`${emulator.url}/auth/v1/token?grant_type=magic`, {
      method: 'POST',
      headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
      body: '{"email": this is not json',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error_code: 'invalid_credentials',
      msg: 'unsupported_grant_type',
    });
  });
});
