import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { LOCAL_PUBLISHABLE_KEY } from '../../emulator/keys.js';
import { MAX_BODY_BYTES } from '../../emulator/server.js';
import { startMain } from '../emulator/run-tsx.js';
import { DB_KINDS, createTestDatabase, startTestEmulator } from '../support/emulator.js';

// Every route refuses a body over 1 MiB with 413 and the gateway's JSON before reading it
// whole: a declared Content-Length is refused unread, a chunked body is cut off once it
// passes the limit. Nothing is stored.

const TOO_LARGE = { message: 'Request size limit exceeded' };
const MiB = 1024 * 1024;

/** The process's resident set size now and at its peak, in MiB (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

interface Upload {
  /** Send Content-Length (else chunked). */
  declared: boolean;
  /**
   * Paced: sends exactly what the server reads before it answers, then waits for the answer
   * without ending the body: nothing when the length is declared (refused unread), one byte
   * past the limit when chunked. No unread byte is then left when the server closes, so the
   * close is a clean FIN and the answer is always read (bytes still unread at the close
   * would make it a reset, and a client still writing may then see EPIPE before the 413).
   * Not paced: every byte as fast as possible, whatever the server does.
   */
  paced: boolean;
  headers?: Record<string, string>;
}

/**
 * POSTs a body of `bytes` spaces to `url`.
 * @returns the answer's status and body, or the connection error when there was none.
 */
function upload(url: string, bytes: number, opts: Upload) {
  return new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        apikey: LOCAL_PUBLISHABLE_KEY,
        ...opts.headers,
        'content-type': 'application/json',
        ...(opts.declared ? { 'content-length': String(bytes) } : {}),
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode, body });
      });
    });
    req.on('error', (e) => {
      if (!answered) resolve({ error: e.message });
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pacedStop = opts.declared ? 0 : MAX_BODY_BYTES + 1;
    const stopAt = opts.paced ? Math.min(bytes, pacedStop) : bytes;
    const next = () => {
      if (answered || req.destroyed) return;
      if (sent >= stopAt) {
        if (sent >= bytes) req.end();
        else if (stopAt === 0) req.flushHeaders();
        return;
      }
      const piece = chunk.subarray(0, Math.min(chunk.length, stopAt - sent));
      sent += piece.length;
      if (req.write(piece)) setImmediate(next);
      else req.once('drain', next);
    };
    next();
  });
}

describe.each(DB_KINDS)('request body limits over %s', (kind) => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator(kind, { owner: { email: 'o@body.test', password: 'pw-1' } });
  });
  afterAll(() => emulator?.stop());

  const count = async () =>
    (await emulator.query<{ n: number }>('select count(*)::int as n from public.namecard'))[0]?.n;

  const headers = () => ({
    apikey: emulator.anonKey,
    authorization: `Bearer ${emulator.serviceRoleKey}`,
  });

  test.each([
    { route: 'a REST insert', path: '/rest/v1/namecard' },
    { route: 'a sign-in', path: '/auth/v1/token?grant_type=password' },
  ])('$route over 1 MiB gets 413, declared or chunked, and stores nothing', async ({ path }) => {
    for (const declared of [true, false]) {
      const answer = await upload(`${emulator.url}${path}`, 2 * MiB, {
        declared,
        paced: true,
        headers: headers(),
      });
      expect(answer, `declared=${declared}`).toEqual({
        status: 413,
        body: JSON.stringify(TOO_LARGE),
      });
    }
    expect(await count()).toBe(0);
    expect(await emulator.query('select 1 from auth.sessions')).toEqual([]);
  });

  test('a body just under the limit is still read', async () => {
    const body = JSON.stringify({ email: 'o@body.test', password: 'pw-1', pad: '' });
    const padded = body.replace('"pad":""', `"pad":"${'x'.repeat(MAX_BODY_BYTES - body.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(MAX_BODY_BYTES);
    const res = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
      body: padded,
    });
    expect(res.status).toBe(200);
  });
});

describe('memory while refusing a 150 MB body', { timeout: 120_000 }, () => {
  test('the emulator process stays under 200 MB resident', async () => {
    // PGlite keeps its whole database in the process (over 800 MB resident on its own),
    // so the emulator runs over PostgreSQL here, where the process holds only the server.
    const database = await createTestDatabase();
    const { child, url } = await startMain(['--port', '0', '--quiet'], {
      DATABASE_URL: database.url,
    });
    try {
      const MB150 = 150 * 1000 * 1000;
      for (const path of ['/auth/v1/token?grant_type=password', '/rest/v1/namecard']) {
        for (const declared of [true, false]) {
          const where = `${path} declared=${declared}`;
          const answer = await upload(`${url}${path}`, MB150, { declared, paced: true });
          expect(answer, where).toEqual({ status: 413, body: JSON.stringify(TOO_LARGE) });
          // A client that keeps sending regardless: the server drops the connection.
          await upload(`${url}${path}`, MB150, { declared, paced: false });
          expect(memory(child.pid!).peak, where).toBeLessThan(200);
        }
      }
    } finally {
      child.kill('SIGTERM');
      await child;
      await database.drop();
    }
  });
});
