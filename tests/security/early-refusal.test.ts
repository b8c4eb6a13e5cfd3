import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { startTestEmulator } from '../support/emulator.js';
import { cardRowId } from '../support/entries.js';

// Visitors first, in the emulator's own REST layer (PGlite, where every request shares one event
// loop and one connection): a write the caller's role holds no privilege for (anon has no insert
// grant on namecard) is answered before its body is read, with PostgREST's answer
// (401 42501 "permission denied for table namecard" for anon). So a body that never
// finishes sending costs the server nothing and cannot hold a request open. PostgREST (every
// PostgreSQL run) reads the whole body first, at most the gateway's 1 MiB, on a server of its own.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends the headers and `sent` bytes of a body declared `declared` bytes long, never the
 * rest, and resolves with the answer as soon as it has fully arrived (the request stays
 * unfinished). Rejects after 10 s without an answer.
 */
function unfinishedPost(
  url: string,
  headers: Record<string, string>,
  declared: number,
  sent: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': declared },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer within 10 s to a request whose body never finished'));
    }, 10_000);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.flushHeaders();
    req.write(`[{"type":"photo","stamp_end":1,"pad":"${'x'.repeat(Math.max(0, sent - 40))}`);
  });
}

describe.each(['pglite'] as const)(
  'writes refused before the body over %s',
  { timeout: 60_000 },
  (kind) => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startTestEmulator(kind);
    });
    afterAll(async () => {
      await emulator?.stop();
    });

    it('an anonymous POST /rest/v1/namecard whose body never finishes gets 401 42501 at once', async () => {
      const answer = await unfinishedPost(
        `${emulator.url}/rest/v1/namecard`,
        { apikey: emulator.anonKey, authorization: `Bearer ${emulator.anonKey}` },
        1024 * 1024,
        64 * 1024,
      );
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({
        code: '42501',
        details: null,
        hint: null,
        message: 'permission denied for table namecard',
      });
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      expect(answer.headers.connection).toBe('close');
      expect(await emulator.query('select id from public.namecard')).toEqual([]);
    });

    it('the answer is the same one a complete anonymous insert gets', async () => {
      const res = await fetch(`${emulator.url}/rest/v1/namecard`, {
        method: 'POST',
        headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'photo', stamp_end: Date.now() + 60_000 }),
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: '42501',
        details: null,
        hint: null,
        message: 'permission denied for table namecard',
      });
    });

    it('a role with the privilege still has its body read (a signed-in non-member adding a profile is refused by RLS, not early)', async () => {
      await emulator.createUser('visitor@early.test', 'visitor-password-1');
      const signIn = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'visitor@early.test', password: 'visitor-password-1' }),
      });
      const { access_token: accessToken } = (await signIn.json()) as { access_token: string };
      const res = await fetch(`${emulator.url}/rest/v1/namecard_profile`, {
        method: 'POST',
        headers: {
          apikey: emulator.anonKey,
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          card_id: await cardRowId(emulator),
          name: 'shop',
          label: 'Shop',
          url: 'https://shop.example/',
        }),
      });
      // Row-level security's answer: the statement ran, so the body was read and parsed.
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: '42501',
        message: 'new row violates row-level security policy for table "namecard_profile"',
      });
    });

    it('a body nested deeper than 512 levels is refused with 400 PGRST102 unparsed, and nothing is stored', async () => {
      await emulator.createUser('deep@early.test', 'deep-password-1', { owner: true });
      const signIn = await fetch(`${emulator.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: emulator.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'deep@early.test', password: 'deep-password-1' }),
      });
      const { access_token: accessToken } = (await signIn.json()) as { access_token: string };
      const depth = 400_000;
      // A table the owner may write: profiles (entries are written through functions only).
      const res = await fetch(`${emulator.url}/rest/v1/namecard_profile`, {
        method: 'POST',
        headers: {
          apikey: emulator.anonKey,
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
        },
        body: `{"card_id":${await cardRowId(emulator)},"name":"deep","label":"Deep","url":"https://deep.example/","pad":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'PGRST102',
        details: 'the body nests arrays and objects deeper than 512 levels',
        hint: null,
        message: 'Empty or invalid json',
      });
      expect(
        await emulator.query(`select name from public.namecard_profile where name = 'deep'`),
      ).toEqual([]);
    });
  },
);
