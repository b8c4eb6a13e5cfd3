import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, summerDate } from '../cli/helpers.js';
import { emulatorEnv, login, patchStoredSession, rows, useCliFixture } from '../cli/emulator.js';
import {
  answer,
  gatewayPage,
  startFaultServer,
  type Exchange,
  type FaultServer,
} from './fault-server.js';
import { OWNER } from '../support/accounts.js';
import { insertEntry } from '../support/entries.js';

// The CLI against a backend that answers 502/503/504, garbage, or nothing. A small HTTP server
// in front of a real emulator produces each fault; everything else is passed on to the emulator,
// so rows are checked in a real database.

let fault: FaultServer | undefined;
const cli = useCliFixture();
afterEach(async () => {
  await fault?.stop();
  fault = undefined;
});

const { date } = summerDate();
const STACK = /\n\s+at /;
// `set` stores its entry with one call of namecard_set (the write and the status after it).
const INSERT = '/rest/v1/rpc/namecard_set';
// `status`, and `list` signed out, read the card's public status: one GET of namecard_status.
const STATUS = '/rest/v1/rpc/namecard_status';
const TOKEN = '/auth/v1/token';
const isInsert = (ex: Exchange) => ex.req.method === 'POST' && ex.req.url?.startsWith(INSERT);
const isRead = (ex: Exchange) => ex.req.method === 'GET' && ex.req.url?.startsWith(STATUS);

/** A fault server in front of the emulator: `fault` answers what it wants, the rest is proxied. */
async function faultyBackend(fault_: (ex: Exchange) => boolean | Promise<boolean>) {
  fault = await startFaultServer(async (ex) => {
    if (!(await fault_(ex))) await ex.proxy();
  }, cli.emulator.url);
  return fault;
}

/** `namecard <args>` against the fault server. */
const namecard = (server: FaultServer, args: string[]) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, { SUPABASE_URL: server.url }) });

/** Signs in through the fault server, so the stored session belongs to its URL. */
const signIn = (server: FaultServer) => login(cli.emulator, cli.dir, { SUPABASE_URL: server.url });

/** An entry stored straight in the database, ending in an hour. */
async function storeEntry(type: string): Promise<void> {
  await insertEntry(cli.emulator, type, null, Date.now() + 3_600_000);
}

describe('502, 503 and 504 answers', () => {
  it('`status` tries again after a 503 and then reports the entry', async () => {
    await storeEntry('photo');
    const server = await faultyBackend((ex) => {
      if (isRead(ex) && ex.nth === 1) return (answer(ex.res, 503, gatewayPage(503)), true);
      return false;
    });
    const result = await namecard(server, ['status']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Times in UTC\nNow: Photographer until /);
    // The lookup of the active entry: refused once, then answered.
    expect(server.count('GET', STATUS)).toBe(2);
  });

  it.each([
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
    [504, 'Gateway Timeout'],
  ])(
    '`status` and `list` give up after four %i answers, naming the status',
    async (status, text) => {
      const server = await faultyBackend(
        (ex) => (answer(ex.res, status, gatewayPage(status)), true),
      );
      // Each command's one read, signed out: the card's status.
      for (const command of ['status', 'list'] as const) {
        const before = server.count('GET', STATUS);
        const result = await namecard(server, [command]);
        expect(result.exitCode, command).toBe(1);
        expect(result.stdout, command).toBe('');
        expect(result.stderr, command).toBe(
          [
            `error: ${server.url} answered ${status} ${text}, 4 times in a row`,
            'The API or its gateway is having trouble: try again in a minute',
          ].join('\n'),
        );
        expect(server.count('GET', STATUS) - before, command).toBe(4);
      }
    },
  );

  it('`set` tries the token refresh again after a 503 and stores the entry', async () => {
    let refused = false;
    const server = await faultyBackend((ex) => {
      if (!refused && ex.req.url?.startsWith(`${TOKEN}?grant_type=refresh_token`)) {
        refused = true;
        return (answer(ex.res, 503, gatewayPage(503)), true);
      }
      return false;
    });
    await signIn(server);
    // An access token about to expire: `set` refreshes the session before it writes.
    await patchStoredSession(cli.dir, { expires_at: Math.floor(Date.now() / 1000) + 30 });
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(cli.emulator)).toHaveLength(1);
    expect(server.count('POST', TOKEN)).toBe(3); // login, the refused refresh, the retry
  });

  it('`set` does not retry an insert a gateway answered 502 to, says the outcome is unknown and stores nothing here', async () => {
    const server = await faultyBackend((ex) => {
      if (isInsert(ex)) return (answer(ex.res, 502, gatewayPage(502)), true);
      return false;
    });
    await signIn(server);
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        `error: ${server.url} answered 502 Bad Gateway to the set request, so the entry may or may not have been saved`,
        'Check with `namecard status` (or `namecard list`) whether it was saved before setting it again',
      ].join('\n'),
    );
    expect(server.count('POST', INSERT)).toBe(1);
    expect(await rows(cli.emulator)).toEqual([]);
  });

  it('`set` does not retry an insert that reached the database before the gateway answered 504: one row, not two', async () => {
    const server = await faultyBackend(async (ex) => {
      if (!isInsert(ex)) return false;
      await ex.forward();
      answer(ex.res, 504, gatewayPage(504));
      return true;
    });
    await signIn(server);
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'answered 504 Gateway Timeout to the set request, so the entry may or may not have been saved',
    );
    expect(result.stderr).toContain('`namecard status`');
    expect(result.stderr).not.toMatch(STACK);
    expect(server.count('POST', INSERT)).toBe(1);
    expect(await rows(cli.emulator)).toHaveLength(1);
  });

  it("`set` retries an insert after PostgREST's own 503 (PGRST002: no SQL ran) and stores it once", async () => {
    const server = await faultyBackend((ex) => {
      if (isInsert(ex) && ex.nth === 1) {
        const body = JSON.stringify({
          code: 'PGRST002',
          message: 'Could not query the database for the schema cache. Retrying.',
          details: null,
          hint: null,
        });
        return (answer(ex.res, 503, body, 'application/json'), true);
      }
      return false;
    });
    await signIn(server);
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(server.count('POST', INSERT)).toBe(2);
    expect(await rows(cli.emulator)).toHaveLength(1);
  });
});

describe('answers that are not JSON', () => {
  const notJson = (url: string, status: number, type: string) =>
    `error: ${url} answered something that is not JSON (HTTP ${status}, ${type})`;
  const hint = 'Check that `SUPABASE_URL` (or `--api-url`) is the API URL of your Supabase project';

  it('`status` given an HTML page says so and names SUPABASE_URL', async () => {
    const server = await faultyBackend(
      (ex) => (answer(ex.res, 200, '<!doctype html><h1>Hi</h1>'), true),
    );
    const result = await namecard(server, ['status']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${notJson(server.url, 200, 'text/html')}\n${hint}`);
  });

  it('`list` given truncated JSON says so', async () => {
    const server = await faultyBackend(
      (ex) => (answer(ex.res, 200, '[{"id":1,"stamp_end":19', 'application/json'), true),
    );
    const result = await namecard(server, ['list']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`${notJson(server.url, 200, 'application/json')}\n${hint}`);
  });

  it('`login` given an HTML page fails and stores no session', async () => {
    const server = await faultyBackend(
      (ex) => (answer(ex.res, 502, '<html>oops</html>'), ex.req.url?.startsWith(TOKEN) ?? false),
    );
    const result = await run(cli.dir, ['login', '--email', OWNER.email, '--password-stdin'], {
      env: emulatorEnv(cli.emulator, { SUPABASE_URL: server.url }),
      input: `${OWNER.password}\n`,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `error: ${server.url} answered 502 Bad Gateway, 4 times in a row`,
    );
    expect(result.stderr).not.toMatch(STACK);
    expect(existsSync(path.join(cli.dir, 'config.json'))).toBe(false);
  });

  it('`set` whose insert was stored but answered with truncated JSON reports the outcome as unknown', async () => {
    const server = await faultyBackend(async (ex) => {
      if (!isInsert(ex)) return false;
      const stored = await ex.forward();
      answer(ex.res, stored.status, stored.body.slice(0, 10), 'application/json');
      return true;
    });
    await signIn(server);
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `error: ${server.url} answered something that is not JSON (HTTP 200, application/json) to the set request, so the entry may or may not have been saved`,
    );
    expect(result.stderr).toContain('`namecard status`');
    expect(await rows(cli.emulator)).toHaveLength(1);
  });
});

describe('a backend that never answers', () => {
  const hang = () => true; // takes the request and never answers

  it('`status --timeout 500` gives up after the time-out and suggests --timeout', async () => {
    const server = await faultyBackend(hang);
    const started = Date.now();
    const result = await namecard(server, ['status', '--timeout', '500']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: No answer from ${server.url} within 500 ms\nTry again, or allow more time with \`--timeout <ms>\``,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('`login --timeout 500` gives up and stores no session', async () => {
    const server = await faultyBackend(hang);
    const result = await run(
      cli.dir,
      ['login', '--email', OWNER.email, '--password-stdin', '--timeout', '500'],
      {
        env: emulatorEnv(cli.emulator, { SUPABASE_URL: server.url }),
        input: `${OWNER.password}\n`,
      },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`No answer from ${server.url} within 500 ms`);
    expect(existsSync(path.join(cli.dir, 'config.json'))).toBe(false);
  });

  it('`set` whose insert was sent but never answered says the outcome is unknown and points to `namecard status`', async () => {
    const server = await faultyBackend(async (ex) => {
      if (!isInsert(ex)) return false;
      await ex.forward(); // stored, but the answer never comes
      return true;
    });
    await signIn(server);
    const started = Date.now();
    const result = await namecard(server, ['set', 'photo', date, '18:00', '--timeout', '1000']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        `error: No answer from ${server.url} within 1000 ms, so the entry may or may not have been saved`,
        'Check with `namecard status` (or `namecard list`) whether it was saved before setting it again',
      ].join('\n'),
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await rows(cli.emulator)).toHaveLength(1);
  });

  it('`set` whose connection drops after sending the insert says the outcome is unknown', async () => {
    const server = await faultyBackend((ex) => {
      if (!isInsert(ex)) return false;
      ex.req.socket.destroy();
      return true;
    });
    await signIn(server);
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `error: The connection to ${server.url} broke during the set request, so the entry may or may not have been saved`,
    );
    expect(result.stderr).not.toMatch(STACK);
  });

  it('a server that resets every connection gives a clear failure, never a silent exit', async () => {
    // Node 20's fetch can wait on a reset connection with nothing keeping the process alive;
    // the CLI's own time-out timer does, so the run ends with a message, not exit code 13.
    const server = await faultyBackend((ex) => (ex.req.socket.destroy(), true));
    const result = await namecard(server, ['list', '--timeout', '1000']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: (Cannot reach ${server.url}|No answer from ${server.url} within 1000 ms)`,
      ),
    );
  });
});

describe('Retry-After', () => {
  it('`status` waits as long as a 503 asks (Retry-After: 2) before trying again', async () => {
    await storeEntry('photo');
    const arrivals: number[] = [];
    const server = await faultyBackend((ex) => {
      if (!ex.req.url?.startsWith(STATUS)) return false;
      arrivals.push(Date.now());
      if (ex.nth > 1) return false;
      ex.res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '2' });
      ex.res.end(gatewayPage(503));
      return true;
    });
    const result = await namecard(server, ['status']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Times in UTC\nNow: Photographer until /);
    expect(arrivals).toHaveLength(2);
    // The server's clock: the second try came no sooner than asked (the CLI's own wait is 250 ms).
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(1_900);
  });

  it('`status` asked to wait an hour fails at once, saying so, instead of hanging', async () => {
    const server = await faultyBackend((ex) => {
      ex.res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '3600' });
      ex.res.end(gatewayPage(503));
      return true;
    });
    const result = await namecard(server, ['status']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        `error: ${server.url} answered 503 Service Unavailable and asks to wait 3600 s before trying again`,
        'The API or its gateway is having trouble: try again later',
      ].join('\n'),
    );
    expect(server.count('GET', STATUS)).toBe(1);
  });
});
