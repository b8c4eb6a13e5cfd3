import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_JWT_SECRET } from '../../emulator/index.js';
import { run, summerDate } from './helpers.js';
import { emulatorEnv, login, patchStoredSession, rows, useCliFixture } from './emulator.js';
import { startFaultServer, type Exchange, type FaultServer } from './fault-server.js';
import { insertEntry } from '../support/entries.js';

// How many requests a member's writes cost: with a valid stored access token, `set`, `end` and
// `cancel` are one request each on a card that is named (the write answers what visitors get
// after it), and one read of the caller's cards before it when none is named (to choose the
// card); with an expired token, one refresh first; a 401 means one refresh and one more try. A
// recording proxy in front of a real emulator counts them; rows are checked in its database.

let proxy: FaultServer | undefined;
const cli = useCliFixture();
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

const { date } = summerDate();
const REFRESH = '/auth/v1/token?grant_type=refresh_token';
const RPC = '/rest/v1/rpc/';
/** The read of the caller's cards, which chooses the card when none is named. */
const CARDS = `GET ${RPC}namecard_cards`;

/** A recording proxy in front of the emulator; `fault` may answer a request itself. */
async function recordingProxy(fault: (ex: Exchange) => boolean | Promise<boolean> = () => false) {
  proxy = await startFaultServer(async (ex) => {
    if (!(await fault(ex))) await ex.proxy();
  }, cli.emulator.url);
  return proxy;
}

/** Signs in through the proxy (so the session is for its URL), then forgets what it saw. */
async function signedIn(server: FaultServer) {
  await login(cli.emulator, cli.dir, { SUPABASE_URL: server.url });
  server.received.length = 0;
}

const namecard = (server: FaultServer, args: string[]) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, { SUPABASE_URL: server.url }) });

/** What the proxy received, as `METHOD /path` without the query's values past the name. */
const seen = (server: FaultServer) => server.received.map((r) => `${r.method} ${r.path}`);

/** An entry stored straight in the database, running for an hour; returns its id. */
function running(type: string): Promise<number> {
  return insertEntry(cli.emulator, type, null, Date.now() + 3_600_000);
}

describe('with a valid stored access token', () => {
  it("`set` reads the caller's cards and writes once, stores the entry and shows what visitors get", async () => {
    const server = await recordingProxy();
    await signedIn(server);
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^✔ The card points to photo \(Photographer\) until /);
    expect(result.stdout).toMatch(/\nNow: Photographer until /);
    expect(seen(server)).toEqual([CARDS, 'POST /rest/v1/rpc/namecard_set']);
    expect(await rows(cli.emulator)).toMatchObject([{ type: 'photo' }]);
  });

  it('`set` on a card that is named sends exactly one request', async () => {
    const server = await recordingProxy();
    await signedIn(server);
    const result = await namecard(server, ['set', 'photo', date, '18:00', '--card', 'main']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('\nCard: main\n');
    expect(seen(server)).toEqual(['POST /rest/v1/rpc/namecard_set']);
    expect(await rows(cli.emulator)).toMatchObject([{ type: 'photo' }]);
  });

  it("`end` reads the caller's cards and ends the running entry with one request", async () => {
    const id = await running('photo');
    const server = await recordingProxy();
    await signedIn(server);
    const result = await namecard(server, ['end']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Ended photo (Photographer, entry ${id})`);
    expect(seen(server)).toEqual([CARDS, 'POST /rest/v1/rpc/namecard_end_now']);
  });

  it("`cancel` reads the caller's cards and cancels the entry with one request", async () => {
    const id = await running('photo');
    const server = await recordingProxy();
    await signedIn(server);
    const result = await namecard(server, ['cancel', String(id), '--json']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const answer = JSON.parse(result.stdout) as { cancelled: { id: number; stop_kind: string } };
    expect(answer.cancelled).toMatchObject({ id, stop_kind: 'cancelled' });
    expect(seen(server)).toEqual([CARDS, 'POST /rest/v1/rpc/namecard_cancel']);
  });
});

describe('with an access token that has expired or is refused', () => {
  it.each([
    ['set', () => ['set', 'photo', date, '18:00'], 'namecard_set'],
    ['end', () => ['end'], 'namecard_end_now'],
  ] as const)(
    '`%s` with an expired stored token refreshes exactly once, then writes once',
    async (_name, args, fn) => {
      await running('main');
      const server = await recordingProxy();
      await signedIn(server);
      await patchStoredSession(cli.dir, { expires_at: Math.floor(Date.now() / 1000) - 10 });
      const result = await namecard(server, [...args()]);
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      expect(seen(server)).toEqual([`POST ${REFRESH}`, CARDS, `POST ${RPC}${fn}`]);
      // The refreshed session is stored: the next run needs no refresh.
      server.received.length = 0;
      expect((await namecard(server, ['end'])).exitCode).toBe(0);
      expect(seen(server)).toEqual([CARDS, `POST ${RPC}namecard_end_now`]);
    },
  );

  it('a stored token the API refuses with 401 is refreshed once and the write sent once more: one row', async () => {
    const server = await recordingProxy();
    await signedIn(server);
    // A token that looks valid for an hour by the stored expiry but has expired by its own
    // claim: PostgREST refuses it (401 PGRST301 "JWT expired") before running anything.
    const file = path.join(cli.dir, 'config.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as {
      session: { access_token: string };
    };
    const claims = decodeJwt(stored.session.access_token);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(LOCAL_JWT_SECRET));
    await patchStoredSession(cli.dir, { access_token: expired });
    const result = await namecard(server, ['set', 'photo', date, '18:00', '--card', 'main']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(seen(server)).toEqual([
      `POST ${RPC}namecard_set`,
      `POST ${REFRESH}`,
      `POST ${RPC}namecard_set`,
    ]);
    expect(await rows(cli.emulator)).toHaveLength(1);
  });

  it('`end` and `cancel` with a refused token refresh once and send the write once more', async () => {
    const id = await running('photo');
    const server = await recordingProxy();
    await signedIn(server);
    await patchStoredSession(cli.dir, { access_token: await expiredToken() });
    const ended = await namecard(server, ['end', '--card', 'main']);
    expect(ended.stderr).toBe('');
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout).toContain(`Ended photo (Photographer, entry ${id})`);
    expect(seen(server)).toEqual([
      `POST ${RPC}namecard_end_now`,
      `POST ${REFRESH}`,
      `POST ${RPC}namecard_end_now`,
    ]);

    const next = await running('photo');
    await patchStoredSession(cli.dir, { access_token: await expiredToken() });
    server.received.length = 0;
    const cancelled = await namecard(server, ['cancel', String(next), '--card', 'main']);
    expect(cancelled.stderr).toBe('');
    expect(cancelled.exitCode).toBe(0);
    expect(cancelled.stdout).toContain(`Cancelled entry ${next}: photo (Photographer)`);
    expect(seen(server)).toEqual([
      `POST ${RPC}namecard_cancel`,
      `POST ${REFRESH}`,
      `POST ${RPC}namecard_cancel`,
    ]);
  });

  it("a refused token's first call is the read of the caller's cards when no card is named: refreshed once, the write sent once", async () => {
    const server = await recordingProxy();
    await signedIn(server);
    await patchStoredSession(cli.dir, { access_token: await expiredToken() });
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(seen(server)).toEqual([CARDS, `POST ${REFRESH}`, CARDS, `POST ${RPC}namecard_set`]);
    expect(await rows(cli.emulator)).toHaveLength(1);
  });
});

describe('`profile list` with a valid stored access token', () => {
  it('reads the profiles and the status, and refreshes nothing', async () => {
    await running('photo');
    const server = await recordingProxy();
    await signedIn(server);
    const result = await namecard(server, ['profile', 'list']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^main {2}/);
    expect(result.stdout).toMatch(/\nphoto {2}Photographer {2}https:\/\/\S+ .* {2}in force$/);
    expect(
      seen(server)
        .map((request) => request.split('?')[0])
        .sort(),
    ).toEqual(['GET /rest/v1/namecard_profile', CARDS, 'GET /rest/v1/rpc/namecard_status']);
  });
});

describe('`status` with a valid stored access token', () => {
  it('of a card named by NAMECARD_CARD: one public read, no session sent, and names the card', async () => {
    await running('photo');
    const server = await recordingProxy();
    await signedIn(server);
    const result = await run(cli.dir, ['status', '--json'], {
      env: emulatorEnv(cli.emulator, { SUPABASE_URL: server.url, NAMECARD_CARD: 'main' }),
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ card: 'main', active: { type: 'photo' } });
    expect(seen(server).map((request) => request.split('?')[0])).toEqual([
      `GET ${RPC}namecard_status`,
    ]);
    expect(server.received[0]!.headers.authorization).toBeUndefined();
  });

  it("naming no card: the caller's cards and main's status at once, and nothing more when the card is main", async () => {
    await running('photo');
    const server = await recordingProxy();
    await signedIn(server);
    const result = await namecard(server, ['status', '--json']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ active: { type: 'photo' } });
    expect(
      seen(server)
        .map((request) => request.split('?')[0])
        .sort(),
    ).toEqual([CARDS, `GET ${RPC}namecard_status`]);
  });
});

/** The stored access token re-signed as expired by its own claim (the stored expiry says an hour). */
async function expiredToken(): Promise<string> {
  const file = path.join(cli.dir, 'config.json');
  const stored = JSON.parse(await readFile(file, 'utf8')) as {
    session: { access_token: string };
  };
  const claims = decodeJwt(stored.session.access_token);
  return new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(LOCAL_JWT_SECRET));
}

describe('a session ended on the server while its access token is still valid', () => {
  it('the write is refused with 401, the one refresh too: "Your session has expired", nothing stored', async () => {
    const server = await recordingProxy();
    await signedIn(server);
    await cli.emulator.query('delete from auth.sessions'); // signed out everywhere
    const result = await namecard(server, ['set', 'photo', date, '18:00', '--card', 'main']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('error: Your session has expired: run `namecard login`');
    expect(seen(server)).toEqual([`POST ${RPC}namecard_set`, `POST ${REFRESH}`]);
    expect(await rows(cli.emulator)).toEqual([]);
  });
});

describe('a write that times out', () => {
  it.each([
    [
      'set',
      () => ['set', 'photo', date, '18:00'],
      'namecard_set',
      'the entry may or may not have been saved',
    ],
    [
      'end',
      () => ['end'],
      'namecard_end_now',
      'the entries in force may or may not have been ended',
    ],
    [
      'cancel',
      (id: number) => ['cancel', String(id)],
      'namecard_cancel',
      'the entry may or may not have been cancelled',
    ],
  ] as const)(
    '`%s` is "outcome unknown" naming the act, and is never sent again',
    async (_name, args, fn, words) => {
      const id = await running('photo');
      const server = await recordingProxy(async (ex) => {
        if (!ex.req.url?.startsWith(`${RPC}${fn}`)) return false;
        await ex.forward(); // done in the database, but the answer never comes
        return true;
      });
      await signedIn(server);
      const result = await namecard(server, [...args(id), '--timeout', '1000']);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toBe(
        `error: No answer from ${server.url} within 1000 ms, so ${words}`,
      );
      expect(seen(server)).toEqual([CARDS, `POST ${RPC}${fn}`]);
    },
  );
});
