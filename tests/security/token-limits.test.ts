import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { TOKEN_HEADER } from '../../shared/core/tokens.js';
import { makeCard, person, rpc, type Answer } from '../support/cards.js';
import { DB_KINDS, TEST_RATE_LIMITS, startTestEmulator } from '../support/emulator.js';
import { cardRowId } from '../support/entries.js';

// Guessing card tokens is limited per address as sign-ins are: every wrong token counts, whatever
// function or table it asks for and by whatever method, and once an address has been refused
// `tokens` times in the window it gets 429 over_request_rate_limit, even with a good token, while
// another address still works. A request whose token works is never counted, whatever it answers.
// A wrong token is refused alike everywhere (401 PT401 invalid token), so that no answer tells a
// real token from a wrong one but a real token's working.

const HOUR = 3_600_000;
const LIMIT = 5;

type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';

describe.each(DB_KINDS)('card token guesses over %s', { timeout: 90_000 }, (kind) => {
  let emulator: RunningEmulator;
  let editorToken: string;
  let viewerToken: string;
  /** Requests a guesser may send with a token, each a function, table and method of the API. */
  let requests: { method: Method; path: string; body?: unknown }[];
  let address = 0;
  /** A client address that has sent nothing yet. */
  const freshAddress = () => `192.0.2.${++address}`;

  beforeAll(async () => {
    emulator = await startTestEmulator(kind, {
      rateLimits: { ...TEST_RATE_LIMITS, tokens: LIMIT, header: 'X-Forwarded-For' },
    });
    const owner = await person(emulator, 'owner@token-limits.test');
    await makeCard(emulator, owner, 'alpha');
    const made = async (name: string, role: string) => {
      const answer = await rpc(emulator, owner, 'namecard_token_create', {
        name,
        card: 'alpha',
        role,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return (answer.body as { token: string }).token;
    };
    editorToken = await made('ci', 'editor');
    viewerToken = await made('reader', 'viewer');
    const card_id = await cardRowId(emulator, 'alpha');
    const stamp_end = Date.now() + HOUR;
    requests = [
      { method: 'GET', path: 'rpc/namecard_status?card=alpha' },
      { method: 'HEAD', path: 'rpc/namecard_status?card=alpha' },
      { method: 'POST', path: 'rpc/namecard_status', body: { card: 'alpha' } },
      {
        method: 'POST',
        path: 'rpc/namecard_set',
        body: { type: 'photo', stamp_start: null, stamp_end, card: 'alpha' },
      },
      { method: 'GET', path: 'rpc/namecard_end_now?card=alpha' },
      { method: 'POST', path: 'rpc/namecard_end_now', body: { card: 'alpha' } },
      {
        method: 'POST',
        path: 'rpc/namecard_visit_days',
        body: { day_starts: [0, 900000], card: 'alpha' },
      },
      { method: 'POST', path: 'rpc/namecard_caller', body: {} },
      { method: 'POST', path: 'rpc/namecard_token_create', body: { name: 'x', card: 'alpha' } },
      { method: 'GET', path: 'namecard?select=id' },
      { method: 'HEAD', path: 'namecard?select=id' },
      { method: 'POST', path: 'namecard', body: { card_id, type: 'photo', stamp_end } },
      { method: 'PATCH', path: 'namecard?id=eq.1', body: { type: 'main' } },
      { method: 'DELETE', path: 'namecard?id=eq.1' },
      { method: 'GET', path: 'namecard_profile?select=name' },
    ];
  });
  afterAll(() => emulator?.stop());

  /** One request with `token` in its header from `from`, as a script or a guesser sends it. */
  async function send(
    request: { method: Method; path: string; body?: unknown },
    token: string,
    from: string,
  ): Promise<Answer> {
    const res = await fetch(`${emulator.url}/rest/v1/${request.path}`, {
      method: request.method,
      headers: {
        apikey: emulator.anonKey,
        [TOKEN_HEADER]: token,
        'x-forwarded-for': from,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  }

  const guess = (i: number) => `nct_${String(i % 10).repeat(31)}${'ABCDEFGHIJ'[i % 10]}`;

  test('a wrong token is refused alike by every function, table and method: 401 PT401 invalid token', async () => {
    const refusal = {
      code: 'PT401',
      details: 'invalid token',
      message: 'This token is not valid',
      hint: expect.any(String) as unknown,
    };
    for (const [i, request] of requests.entries()) {
      const what = `${request.method} ${request.path}`;
      const wrong = await send(request, guess(i), freshAddress());
      expect(wrong.status, what).toBe(401);
      // A HEAD answer has no body; every other refusal is the same body.
      expect(wrong.body, what).toEqual(request.method === 'HEAD' ? null : refusal);
      // A real token of either role gets past the check on the same request: whatever it
      // answers, it is never the refusal of a token.
      for (const real of [editorToken, viewerToken]) {
        const answer = await send(request, real, freshAddress());
        if (request.method !== 'HEAD') {
          expect(answer.body, what).not.toMatchObject({ code: 'PT401' });
        } else {
          expect(answer.status, what).toBe(200);
        }
      }
    }
  });

  test("a script's own calls are never limited, however many are in flight at once", async () => {
    const from = freshAddress();
    const status = requests[0]!;
    const answers = await Promise.all(
      Array.from({ length: 4 * LIMIT }, () => send(status, editorToken, from)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(4 * LIMIT).fill(200));
    // The address has no refusal counted: its first guesses are refused as guesses.
    expect((await send(status, guess(0), from)).status).toBe(401);
  });

  test('every wrong token counts against its address, by any function and method; tokens that work never do', async () => {
    const from = freshAddress();
    // A script's own calls, twice the limit, are never counted: its reads and writes, and its
    // viewer token's refused writes (401 42501 needs editor: the token works, the role is short).
    const own: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      for (const request of requests.filter((r) => r.method !== 'HEAD')) {
        own.push((await send(request, editorToken, from)).status);
      }
      const refusedWrite = await send(requests[3]!, viewerToken, from);
      expect(refusedWrite).toMatchObject({ status: 401, body: { details: 'needs editor' } });
    }
    expect(own.filter((status) => status === 429)).toEqual([]);

    // Guesses through every request in turn: the first LIMIT are refused as guesses, every one
    // after them is over the limit, whatever it asks for.
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + requests.length; i++) {
      statuses.push((await send(requests[i % requests.length]!, guess(i), from)).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), ...Array(requests.length).fill(429)]);
    expect(await send(requests[0]!, editorToken, from)).toEqual({
      status: 429,
      body: expect.objectContaining({ code: 'over_request_rate_limit' }) as unknown,
    });
    expect((await send(requests[0]!, editorToken, freshAddress())).status).toBe(200);
  });
});
