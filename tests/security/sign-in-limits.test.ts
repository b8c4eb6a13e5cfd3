import { afterEach, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { GO_FUNCTION, lookupUrl } from '../../shared/core/lookup.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';
import { OWNER } from '../support/accounts.js';

// GoTrue's per-address limits on /token: once an address is over its count of password
// sign-ins (or refreshes) in the window, it gets 429 over_request_rate_limit, even with the
// right password, while other addresses are unaffected. Password hashing runs off the event
// loop, so a flood of sign-ins does not hold up anonymous lookups.

const RATE_LIMITED = {
  code: 429,
  error_code: 'over_request_rate_limit',
  msg: 'Request rate limit reached',
};

describe.each(DB_KINDS)('sign-in limits over %s', { timeout: 60_000 }, (kind) => {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await emulator?.stop();
    emulator = undefined;
  });

  async function token(
    grant: 'password' | 'refresh_token',
    body: Record<string, string>,
    from?: string,
  ) {
    const res = await fetch(`${emulator!.url}/auth/v1/token?grant_type=${grant}`, {
      method: 'POST',
      headers: {
        apikey: emulator!.anonKey,
        'content-type': 'application/json',
        ...(from ? { 'x-forwarded-for': from } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const wrong = { email: OWNER.email, password: 'wrong-password' };

  test('a flood of wrong passwords from one address gets 429; another address still signs in', async () => {
    emulator = await startTestEmulator(kind, {
      owner: OWNER,
      rateLimits: { signIn: 5, header: 'X-Forwarded-For' },
    });
    const flood = await Promise.all(
      Array.from({ length: 12 }, () => token('password', wrong, '203.0.113.7')),
    );
    const statuses = flood.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(400), ...Array(7).fill(429)]);
    expect(flood.find((r) => r.status === 429)?.body).toEqual(RATE_LIMITED);
    expect(flood.find((r) => r.status === 400)?.body).toMatchObject({
      error_code: 'invalid_credentials',
    });

    // Over the limit even the right password is refused from that address…
    const blocked = await token('password', OWNER, '203.0.113.7');
    expect(blocked).toEqual({ status: 429, body: RATE_LIMITED });
    // …while another address signs in.
    const other = await token('password', OWNER, '198.51.100.20');
    expect(other.status).toBe(200);
    expect(other.body).toHaveProperty('access_token');
    expect(await emulator.query('select count(*)::int as n from auth.sessions')).toEqual([
      { n: 1 },
    ]);
  });

  test('behind a proxy, the address it appended counts, not the ones the client wrote before it', async () => {
    emulator = await startTestEmulator(kind, {
      owner: OWNER,
      rateLimits: { signIn: 5, header: 'X-Forwarded-For' },
    });
    // Each request claims another address on the left; the proxy appends the real one.
    const answers = [];
    for (let i = 0; i < 8; i++) {
      answers.push((await token('password', wrong, `198.18.0.${i}, 203.0.113.9`)).status);
    }
    expect(answers).toEqual([...Array(5).fill(400), ...Array(3).fill(429)]);
  });

  test('without a configured header, X-Forwarded-For does not pick the address', async () => {
    emulator = await startTestEmulator(kind, { owner: OWNER, rateLimits: { signIn: 2 } });
    const answers = [];
    for (const from of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      answers.push((await token('password', wrong, from)).status);
    }
    expect(answers).toEqual([400, 400, 429]);
  });

  test('refreshes have their own limit, answered in the 2024-01-01 shape when asked', async () => {
    emulator = await startTestEmulator(kind, {
      owner: OWNER,
      rateLimits: { signIn: 1, tokenRefresh: 2 },
    });
    const signedIn = await token('password', OWNER);
    expect(signedIn.status).toBe(200);
    let refreshToken = signedIn.body.refresh_token as string;
    for (let i = 0; i < 2; i++) {
      const next = await token('refresh_token', { refresh_token: refreshToken });
      expect(next.status).toBe(200);
      refreshToken = next.body.refresh_token as string;
    }
    const res = await fetch(`${emulator.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: {
        apikey: emulator.anonKey,
        'content-type': 'application/json',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-sb-error-code')).toBe('over_request_rate_limit');
    expect(await res.json()).toEqual({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
  });

  // The one timing bound this suite asks for, deliberately generous: password hashing must
  // not block the server, so lookups stay fast while 100 sign-ins are being checked.
  test('anonymous lookups answer within 300 ms each during 100 parallel sign-ins', async () => {
    emulator = await startTestEmulator(kind, { owner: OWNER });
    const lookup = async () => {
      const started = performance.now();
      const res = await fetch(lookupUrl(emulator!.url, emulator!.anonKey, GO_FUNCTION, MAIN_CARD));
      await res.text();
      return { status: res.status, ms: performance.now() - started };
    };
    await lookup(); // warm-up: the first request fills the schema cache

    let flooding = true;
    const flood = Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        token('password', { email: i % 2 ? OWNER.email : `nobody${i}@limits.test`, password: 'x' }),
      ),
    ).finally(() => {
      flooding = false;
    });
    const lookups: { status: number; ms: number }[] = [];
    while (flooding) lookups.push(await lookup());
    const signIns = await flood;

    expect(signIns.every((r) => r.status === 400)).toBe(true);
    expect(lookups.length).toBeGreaterThan(3);
    expect(lookups.filter((l) => l.status !== 200)).toEqual([]);
    expect(lookups.filter((l) => l.ms > 300)).toEqual([]);
  });
});
