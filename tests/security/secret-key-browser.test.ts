import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { LOCAL_SECRET_KEY } from '../../emulator/keys.js';
import { startTestEmulator } from '../support/emulator.js';

// A secret key (`sb_secret_…`) bypasses row-level security, so hosted Supabase refuses it in
// requests that come from a browser (recognised by its User-Agent) with 401; and a key in the
// URL ends up in logs and histories, so it is never taken from the query string.

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

describe('secret keys from browsers', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator('pglite');
  });
  afterAll(() => emulator?.stop());

  const rows = (init: RequestInit, query = '') =>
    fetch(`${emulator.url}/rest/v1/namecard?select=id${query}`, init);

  test('in the query string, from a browser or not: 401, nothing read', async () => {
    for (const agent of [BROWSER, 'curl/8.0']) {
      const res = await rows(
        { headers: { 'user-agent': agent, origin: 'https://evil.example' } },
        `&apikey=${LOCAL_SECRET_KEY}`,
      );
      expect(res.status, agent).toBe(401);
      expect(await res.json()).toEqual({
        message: 'Secret API keys may not be sent in the URL: send them in the apikey header',
      });
    }
  });

  test('in the apikey header or as the bearer from a browser: 401', async () => {
    for (const headers of [
      { apikey: LOCAL_SECRET_KEY } as Record<string, string>,
      { apikey: emulator.anonKey, authorization: `Bearer ${LOCAL_SECRET_KEY}` },
    ]) {
      const res = await rows({ headers: { ...headers, 'user-agent': BROWSER } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Forbidden use of secret API key in browser' });
    }
  });

  test('from a server (no browser User-Agent) in the header: accepted', async () => {
    const res = await rows({ headers: { apikey: LOCAL_SECRET_KEY, 'user-agent': 'node' } });
    expect(res.status).toBe(200);
  });
});
