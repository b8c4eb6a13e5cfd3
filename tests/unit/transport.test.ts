import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../shared/core/errors.js';
import { createNamecardClient } from '../../shared/supabase/client.js';
import {
  createLightTransport,
  createTransport,
  MAX_REDIRECTS,
  RETRY_AFTER_CAP_MS,
  retryDelayMs,
  shouldRetry,
} from '../../cli/transport/transport.js';
import { OutcomeUnknownError } from '../../cli/errors.js';
import { useLoopbackServer, type Handler } from '../support/loopback.js';

// The CLI's transport against small real HTTP servers: the retry rule as a pure function, and
// failures that travel with their own call.

const loopback = useLoopbackServer();
const received: { method: string; path: string }[] = [];

/** Serves `handler`, recording every request's method and path in `received`. */
function serve(handler: Handler): Promise<string> {
  return loopback.serve((req, res) => {
    received.push({ method: req.method ?? '', path: req.url ?? '' });
    handler(req, res);
  });
}

afterEach(() => {
  received.length = 0;
  vi.restoreAllMocks();
});

const json = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('shouldRetry', () => {
  it.each([502, 503, 504])('retries a GET answered %i three times, then stops', (status) => {
    expect([1, 2, 3, 4].map((attempt) => shouldRetry('GET', status, attempt))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(shouldRetry('head', status, 1)).toBe(true);
  });

  it('retries sign-in and token refresh (GoTrue POSTs) on the gateway statuses', () => {
    expect(shouldRetry('POST', 503, 1, { auth: true })).toBe(true);
    expect(shouldRetry('POST', 504, 3, { auth: true })).toBe(true);
    expect(shouldRetry('POST', 502, 4, { auth: true })).toBe(false);
  });

  it('never retries an insert or any other write answered by a gateway', () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      for (const status of [502, 503, 504]) expect(shouldRetry(method, status, 1)).toBe(false);
    }
  });

  it("retries a write only after PostgREST's own 503 that proves no SQL ran", () => {
    expect(shouldRetry('POST', 503, 1, { notExecuted: true })).toBe(true);
    expect(shouldRetry('POST', 502, 1, { notExecuted: true })).toBe(false);
    expect(shouldRetry('POST', 503, 4, { notExecuted: true })).toBe(false);
  });

  it.each([200, 201, 400, 401, 404, 429, 500, 520])('never retries a %i', (status) => {
    expect(shouldRetry('GET', status, 1)).toBe(false);
    expect(shouldRetry('POST', status, 1, { auth: true })).toBe(false);
  });
});

describe('retryDelayMs', () => {
  const NOW = Date.UTC(2030, 5, 1, 12, 0, 0);

  it('waits 250, 500, then 1000 ms without Retry-After', () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs(attempt, null, NOW))).toEqual([250, 500, 1000]);
    expect(retryDelayMs(1, 'soon', NOW)).toBe(250);
  });

  it('honours Retry-After in seconds and as an HTTP date', () => {
    expect(retryDelayMs(1, '2', NOW)).toBe(2000);
    expect(retryDelayMs(1, '0', NOW)).toBe(0);
    expect(retryDelayMs(2, new Date(NOW + 3000).toUTCString(), NOW)).toBe(3000);
    expect(retryDelayMs(1, new Date(NOW - 3000).toUTCString(), NOW)).toBe(0);
  });

  it('gives up (undefined) when asked to wait longer than the cap', () => {
    expect(retryDelayMs(1, String(RETRY_AFTER_CAP_MS / 1000), NOW)).toBe(RETRY_AFTER_CAP_MS);
    expect(retryDelayMs(1, String(RETRY_AFTER_CAP_MS / 1000 + 1), NOW)).toBeUndefined();
    expect(retryDelayMs(1, '3600', NOW)).toBeUndefined();
  });
});

describe('failures travel with their own call', () => {
  it('two concurrent supabase-js calls that fail differently each report their own error', async () => {
    const url = await serve((req, res) => {
      if (req.url?.startsWith('/rest/v1/namecard')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<h1>not the API</h1>');
      } else {
        // Retry-After: 0, so the four tries take no time.
        json(res, 504, { message: 'upstream timed out' }, { 'retry-after': '0' });
      }
    });
    const logged = vi.spyOn(console, 'error');
    const transport = createTransport(url, 5_000);
    const client = createNamecardClient(
      { supabaseUrl: url, anonKey: 'anon' },
      { persistSession: false, autoRefreshToken: false },
      { fetch: transport.fetch },
    );
    const [read, signIn] = await Promise.allSettled([
      transport.guard(() => client.from('namecard').select('id')),
      transport.guard(() =>
        client.auth.signInWithPassword({ email: 'a@example.com', password: 'pw' }),
      ),
    ]);
    expect(read.status).toBe('rejected');
    expect(signIn.status).toBe('rejected');
    const readError = (read as PromiseRejectedResult).reason as ApiError;
    const signInError = (signIn as PromiseRejectedResult).reason as ApiError;
    expect(readError).toBeInstanceOf(ApiError);
    expect(readError.code).toBe('invalid_response');
    expect(readError.message).toBe(
      `${url} answered something that is not JSON (HTTP 200, text/html)`,
    );
    expect(signInError).toBeInstanceOf(ApiError);
    expect(signInError.code).toBe('gateway_error');
    expect(signInError.message).toBe(`${url} answered 504 Gateway Timeout, 4 times in a row`);
    expect(received.filter((r) => r.path.startsWith('/auth/v1/token'))).toHaveLength(4);
    // auth-js never saw a thrown error, so it printed nothing of its own.
    expect(logged).not.toHaveBeenCalled();
  });

  it('two concurrent light lookups: a refused connection and a 503 each keep their error', async () => {
    const url = await serve((_req, res) => json(res, 503, {}, { 'retry-after': '0' }));
    const dead = createLightTransport('http://127.0.0.1:9', 2_000);
    const live = createLightTransport(url, 2_000);
    const [a, b] = await Promise.allSettled([
      dead.guard(() => dead.fetch('http://127.0.0.1:9/rest/v1/namecard_active')),
      live.guard(() => live.fetch(`${url}/rest/v1/namecard_active`)),
    ]);
    expect((a as PromiseRejectedResult).reason).toBeInstanceOf(NetworkError);
    expect(((b as PromiseRejectedResult).reason as ApiError).message).toBe(
      `${url} answered 503 Service Unavailable, 4 times in a row`,
    );
  });

  it('one transport, two concurrent guards: a timed-out insert and a not-JSON read', async () => {
    const url = await serve((req, res) => {
      if (req.method === 'POST') return; // never answered
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello');
    });
    const transport = createTransport(url, 500);
    const [write, read] = await Promise.allSettled([
      transport.guard(() =>
        transport.fetch(`${url}/rest/v1/namecard`, { method: 'POST', body: '{}' }),
      ),
      transport.guard(() => transport.fetch(`${url}/rest/v1/namecard?select=id`)),
    ]);
    expect((write as PromiseRejectedResult).reason).toBeInstanceOf(OutcomeUnknownError);
    expect(((read as PromiseRejectedResult).reason as ApiError).code).toBe('invalid_response');
  });

  it('an outcome unknown names the act the call declared, whatever the URL says', async () => {
    const url = await serve(() => undefined); // never answers
    const transport = createTransport(url, 300);
    // The URL names another function on purpose: the words come from the call, not the URL.
    const cancel = transport.guard(
      () => transport.fetch(`${url}/rest/v1/rpc/namecard_end_now`, { method: 'POST', body: '{}' }),
      { act: 'cancel' },
    );
    await expect(cancel).rejects.toMatchObject({
      act: 'cancel',
      message: `No answer from ${url} within 300 ms, so the entry may or may not have been cancelled`,
    });
    // A write no command named, at a URL with no /rest/v1/ in it: still a write, never resent.
    const unnamed = transport.guard(() =>
      transport.fetch(`${url}/other/path`, { method: 'PATCH', body: '{}' }),
    );
    await expect(unnamed).rejects.toMatchObject({
      act: undefined,
      message: `No answer from ${url} within 300 ms, so the change may or may not have been saved`,
    });
    expect(received.filter((r) => r.method !== 'GET')).toHaveLength(2);
  });

  it('outside a guard, the fetch throws its typed error itself', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>hi</p>');
    });
    await expect(createTransport(url).fetch(`${url}/rest/v1/x`)).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it("the wait before a retry ends when the caller's signal aborts", async () => {
    // Retry-After: 5 would hold the next try back for five seconds.
    const url = await serve((_req, res) => json(res, 503, {}, { 'retry-after': '5' }));
    const transport = createLightTransport(url, 10_000);
    const controller = new AbortController();
    const pending = transport.fetch(`${url}/rest/v1/namecard_active`, {
      signal: controller.signal,
    });
    const outcome = pending.then(
      () => 'answered',
      (error: unknown) => error,
    );
    const deadline = Date.now() + 5_000;
    while (received.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(received).toHaveLength(1);
    controller.abort();
    const error = await outcome;
    expect((error as Error).name).toBe('AbortError');
    expect(received).toHaveLength(1);
  });
});

describe('redirects', () => {
  it.each([
    ['fetch', createTransport],
    ['node:http', createLightTransport],
  ])('a same-origin redirect loop ends after %s follows MAX_REDIRECTS', async (_name, make) => {
    const url = await serve((req, res) => {
      res.writeHead(302, { location: req.url });
      res.end();
    });
    const transport = make(url, 5_000);
    await expect(transport.fetch(`${url}/rest/v1/namecard_active`)).rejects.toMatchObject({
      code: 'redirect_refused',
      message: `${url} answered 302 Found to ${url}, after ${MAX_REDIRECTS} redirects: not followed`,
    });
    expect(received).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('a GET follows a 303 on the same origin to where it points', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/rest/v1/old') {
        res.writeHead(303, { location: '/rest/v1/new' });
        res.end();
      } else json(res, 200, [{ moved: true }]);
    });
    const response = await createTransport(url).fetch(`${url}/rest/v1/old`);
    expect(await response.json()).toEqual([{ moved: true }]);
    expect(received.map((r) => r.path)).toEqual(['/rest/v1/old', '/rest/v1/new']);
  });

  it('a redirect to another scheme and port on the same host is another origin', async () => {
    const url = await serve((req, res) => {
      res.writeHead(308, { location: `https://127.0.0.1:1${req.url}` });
      res.end();
    });
    await expect(
      createTransport(url).fetch(`${url}/auth/v1/token`, { method: 'POST', body: '{}' }),
    ).rejects.toMatchObject({
      message: `${url} answered 308 Permanent Redirect to https://127.0.0.1:1, another origin: not followed`,
    });
    expect(received).toHaveLength(1);
  });
});
