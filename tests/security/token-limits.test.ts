import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { makeCard, person, rpc } from '../support/cards.js';
import { DB_KINDS, TEST_RATE_LIMITS, startTestEmulator } from '../support/emulator.js';

// Guessing card tokens is limited per address as sign-ins are (issue 41): once an address has
// been refused `tokens` times in the window it gets 429 over_request_rate_limit, even with a
// good token, while another address still works. A script's good uses are not counted.

describe.each(DB_KINDS)('card token guesses over %s', { timeout: 60_000 }, (kind) => {
  let emulator: RunningEmulator;
  let secret: string;

  beforeAll(async () => {
    emulator = await startTestEmulator(kind, {
      rateLimits: { ...TEST_RATE_LIMITS, tokens: 5, header: 'X-Forwarded-For' },
    });
    const owner = await person(emulator, 'owner@token-limits.test');
    await makeCard(emulator, owner, 'alpha');
    const made = await rpc(emulator, owner, 'namecard_token_create', { name: 'ci', card: 'alpha' });
    expect(made.status).toBe(200);
    secret = (made.body as { token: string }).token;
  });
  afterAll(() => emulator?.stop());

  async function use(token: string, from: string) {
    const res = await fetch(`${emulator.url}/rest/v1/rpc/namecard_token_whoami`, {
      method: 'POST',
      headers: {
        apikey: emulator.anonKey,
        'content-type': 'application/json',
        'x-forwarded-for': from,
      },
      body: JSON.stringify({ token }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  test('good uses are not counted; refused guesses are, up to 429 for that address only', async () => {
    for (let i = 0; i < 8; i++) expect((await use(secret, '203.0.113.7')).status).toBe(200);
    const guesses = [];
    for (let i = 0; i < 8; i++) {
      guesses.push((await use(`nct_${String(i).repeat(32)}`, '203.0.113.7')).status);
    }
    expect(guesses).toEqual([...Array(5).fill(401), ...Array(3).fill(429)]);
    expect(await use(secret, '203.0.113.7')).toEqual({
      status: 429,
      body: expect.objectContaining({ code: 'over_request_rate_limit' }) as unknown,
    });
    expect((await use(secret, '198.51.100.20')).status).toBe(200);
  });
});
