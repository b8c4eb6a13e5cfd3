import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, atTerminal, baseEnv, run, summerDate } from './helpers.js';
import { emulatorEnv, login, rows, useCliFixture } from './emulator.js';
import {
  answer,
  gatewayPage,
  startFaultServer,
  type Exchange,
  type FaultServer,
} from './fault-server.js';
import { OWNER } from '../support/accounts.js';
import { insertEntry } from '../support/entries.js';

// The CLI against an API that is not to be trusted (a cloned checkout's `.env`, a wrong
// `--api-url`, a man in the middle): a small HTTP server in front of a real emulator that
// rewrites answers, redirects, or sends far too much. Nothing it sends may act on the
// terminal, no redirect may carry the password elsewhere, and no answer may take the memory.

const servers: FaultServer[] = [];
const cli = useCliFixture();
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

const STACK = /\n\s+at /;
const TOKEN = '/auth/v1/token';
const { date } = summerDate();

/** Clear screen, OSC 0 (title), OSC 52 (clipboard), OSC 8 (link), U+202E, a C1 CSI, a forged line. */
const HOSTILE =
  'photo\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;aGVsbG8=\u0007' +
  '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\\u202egnp.exe\u009b31m' +
  '\nVisitors go to https://evil.example/';
const HOSTILE_EMAIL = `owner\u001b]0;title\u0007@example.com\u202e`;
/** Any character that can act on a terminal: C0 but line break and tab, DEL, C1, bidi controls. */
const ACTIVE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function expectInert(result: { stdout: string; stderr: string }) {
  expect(result.stdout).not.toMatch(ACTIVE);
  expect(result.stderr).not.toMatch(ACTIVE);
}

async function serve(handle: (ex: Exchange) => void | Promise<void>, upstream?: string) {
  const server = await startFaultServer(handle, upstream);
  servers.push(server);
  return server;
}

/** In front of the emulator: `change` rewrites what it wants, the rest is passed on. */
function hostileBackend(change: (ex: Exchange) => boolean | Promise<boolean>) {
  return serve(async (ex) => {
    if (!(await change(ex))) await ex.proxy();
  }, cli.emulator.url);
}

/** Answers with the upstream's JSON answer after `edit` changed it. */
async function rewrite(ex: Exchange, edit: (body: unknown) => unknown): Promise<void> {
  const upstream = await ex.forward();
  const body = JSON.stringify(edit(JSON.parse(upstream.body)));
  answer(ex.res, upstream.status, body, 'application/json');
}

/** Every entry type in an answer made hostile: table rows, and the status view's active entry and timeline. */
const withType = (body: unknown) =>
  (body as Record<string, unknown>[]).map((row) =>
    Array.isArray(row.timeline)
      ? {
          ...row,
          active: row.active ? { ...(row.active as object), type: HOSTILE } : null,
          timeline: (row.timeline as object[]).map((segment) => ({ ...segment, type: HOSTILE })),
        }
      : { ...row, type: HOSTILE },
  );

const namecard = (server: FaultServer, args: string[], input?: string) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, { SUPABASE_URL: server.url }), input });

/** `namecard <args>` against `server` with more settings. */
const namecardWith = (server: FaultServer, args: string[], env: Record<string, string>) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, { SUPABASE_URL: server.url, ...env }) });

async function storeEntry(type: string, startsIn?: number): Promise<void> {
  const now = Date.now();
  await insertEntry(
    cli.emulator,
    type,
    startsIn === undefined ? null : now + startsIn,
    now + 7_200_000,
  );
}

describe('server data never acts on the terminal', () => {
  it('`status` shows a hostile entry type escaped, and `--json` keeps the exact value', async () => {
    await storeEntry('photo');
    await storeEntry('main', 3_600_000);
    const server = await hostileBackend((ex) => {
      if (ex.req.method !== 'GET' || !ex.req.url?.startsWith('/rest/v1/')) return false;
      return rewrite(ex, withType).then(() => true);
    });
    const text = await namecard(server, ['status']);
    expect(text.exitCode).toBe(0);
    expectInert(text);
    expect(text.stdout).toContain('\\u{1b}[2J');
    expect(text.stdout).toContain('\\u{202e}');
    expect(text.stdout).not.toMatch(/^Visitors go to https:\/\/evil/m);

    const json = await namecard(server, ['status', '--json']);
    expect(json.exitCode).toBe(0);
    expectInert(json);
    const document = JSON.parse(json.stdout) as {
      active: { type: string };
      next: { type: string };
    };
    expect(document.active.type).toBe(HOSTILE);
    expect(document.next.type).toBe(HOSTILE);
  });

  it('`list` (signed out and signed in) shows hostile types escaped', async () => {
    await storeEntry('photo');
    const server = await hostileBackend((ex) => {
      const url = ex.req.url ?? '';
      const read =
        url.startsWith('/rest/v1/namecard') || url.startsWith('/rest/v1/rpc/namecard_status');
      if (ex.req.method !== 'GET' || !read) return false;
      return rewrite(ex, withType).then(() => true);
    });
    const signedOut = await namecard(server, ['list']);
    expect(signedOut.exitCode).toBe(0);
    expectInert(signedOut);
    expect(signedOut.stdout).toContain('\\u{1b}]52;c;');
    // The line saying the list is signed out, the zone's line, then each of the timeline's two
    // stretches (the entry, then what follows it) on one line.
    expect(signedOut.stdout.split('\n')).toHaveLength(4);

    await login(cli.emulator, cli.dir, { SUPABASE_URL: server.url });
    const signedIn = await namecard(server, ['list', '--json']);
    expect(signedIn.exitCode).toBe(0);
    expectInert(signedIn);
    const document = JSON.parse(signedIn.stdout) as { entries: { type: string }[] };
    expect(document.entries.map((entry) => entry.type)).toEqual([HOSTILE]);
  });

  it("`login` and `whoami` show the server's hostile email escaped", async () => {
    const server = await hostileBackend(async (ex) => {
      if (ex.req.url?.startsWith('/rest/v1/rpc/namecard_caller')) {
        await rewrite(ex, (body) => ({ ...(body as object), email: HOSTILE_EMAIL }));
        return true;
      }
      if (!ex.req.url?.startsWith(TOKEN)) return false;
      await rewrite(ex, (body) => {
        const session = body as { user?: { email?: string } };
        return { ...session, user: { ...session.user, email: HOSTILE_EMAIL } };
      });
      return true;
    });
    const signedIn = await namecard(
      server,
      ['login', '--email', OWNER.email, '--password-stdin'],
      `${OWNER.password}\n`,
    );
    expect(signedIn.exitCode).toBe(0);
    expectInert(signedIn);
    expect(signedIn.stdout).toContain('owner\\u{1b}]0;title\\u{7}@example.com\\u{202e}');
    // The email is stored as the server sent it; `whoami` shows who the server says calls.
    const stored = JSON.parse(await readFile(path.join(cli.dir, 'config.json'), 'utf8')) as {
      session: { email: string };
    };
    expect(stored.session.email).toBe(HOSTILE_EMAIL);

    const whoami = await namecard(server, ['whoami']);
    expect(whoami.exitCode).toBe(0);
    expectInert(whoami);
    expect(whoami.stdout).toContain('owner\\u{1b}]0;title\\u{7}@example.com\\u{202e}');
  });

  it('`calendar` at a terminal shows a hostile type escaped, and its .ics escapes a lone CR', async () => {
    await storeEntry('photo', 3_600_000);
    // The type with a lone CR, which a terminal takes as "back to the line's start" and some
    // iCalendar parsers as the end of the content line.
    const typed = `${HOSTILE}\rX-FORGED:yes`;
    const server = await hostileBackend((ex) => {
      if (ex.req.method !== 'GET' || !/^\/rest\/v1\/namecard(_series)?\?/.test(ex.req.url ?? ''))
        return false;
      return rewrite(ex, (body) =>
        (body as Record<string, unknown>[]).map((row) => ({ ...row, type: typed })),
      ).then(() => true);
    });
    // A card's schedule is its members' to read.
    await login(cli.emulator, cli.dir, { SUPABASE_URL: server.url });
    const env = emulatorEnv(cli.emulator, { SUPABASE_URL: server.url });
    const terminal = atTerminal(cli.dir, ['calendar'], env);
    const { exitCode } = await terminal.exit();
    expect(exitCode).toBe(0);
    // The pseudo-terminal itself ends each line with CRLF; nothing else may act on it.
    const shown = terminal.raw.replace(/\r\n/g, '\n');
    expect(shown).toContain('BEGIN:VEVENT');
    // The file drops the control characters iCalendar text may not hold (ESC among them); a
    // bidi control it keeps reaches the terminal escaped.
    expect(shown).toContain('SUMMARY:photo[2J');
    expect(shown).toContain('\\u{202e}');
    expect(shown).not.toMatch(ACTIVE);

    const file = path.join(cli.dir, 'hostile.ics');
    const written = await namecard(server, ['calendar', '--out', file]);
    expect(written.exitCode).toBe(0);
    const ics = await readFile(file, 'utf8');
    expect(ics.split('\r\n').filter((line) => line.includes('\r'))).toEqual([]);
    // Read as a lenient parser would, any line break ending a line: no line of the server's.
    expect(ics.split(/\r\n|\r|\n/).filter((line) => line.startsWith('X-FORGED'))).toEqual([]);
  });

  it("an error line shows the server's hostile message escaped", async () => {
    const server = await hostileBackend((ex) => {
      if (!ex.req.url?.startsWith('/rest/v1/')) return false;
      const body = { code: 'XX000', message: `broken ${HOSTILE}`, details: null, hint: HOSTILE };
      answer(ex.res, 400, JSON.stringify(body), 'application/json');
      return true;
    });
    for (const command of ['status', 'list']) {
      const result = await namecard(server, [command]);
      expect(result.exitCode, command).toBe(1);
      expect(result.stderr, command).toMatch(/^error: broken photo\\u\{1b\}\[2J/);
      expect(result.stderr, command).not.toMatch(/^Visitors go to https:\/\/evil/m);
      expectInert(result);
    }
  });
});

describe('redirects', () => {
  it('`login` refuses a 307 to another origin and sends it nothing', async () => {
    const other = await serve((ex) => answer(ex.res, 200, '{}', 'application/json'));
    const server = await hostileBackend((ex) => {
      if (!ex.req.url?.startsWith(TOKEN)) return false;
      ex.res.writeHead(307, { location: `${other.url}${ex.req.url}` });
      ex.res.end();
      return true;
    });
    const result = await namecard(
      server,
      ['login', '--email', OWNER.email, '--password-stdin'],
      `${OWNER.password}\n`,
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        `error: ${server.url} answered 307 Temporary Redirect to ${other.url}, another origin: not followed`,
        'Set `SUPABASE_URL` (or `--api-url`) to the address the API answers at',
      ].join('\n'),
    );
    // The redirect was answered, and the other origin never heard of the password.
    expect(server.count('POST', TOKEN)).toBe(1);
    expect(other.received).toEqual([]);
    expect(existsSync(path.join(cli.dir, 'config.json'))).toBe(false);
  });

  it('`status` follows a 307 on the same origin', async () => {
    await storeEntry('photo');
    const status = '/rest/v1/rpc/namecard_status';
    const server = await hostileBackend((ex) => {
      if (!ex.req.url?.startsWith(status) || ex.nth > 1) return false;
      ex.res.writeHead(307, { location: ex.req.url });
      ex.res.end();
      return true;
    });
    const result = await namecard(server, ['status']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Times in UTC\nNow: Photographer until /);
    expect(server.count('GET', status)).toBe(2);
  });

  it('`status` refuses a redirect to another origin', async () => {
    const other = await serve((ex) => answer(ex.res, 200, '[]', 'application/json'));
    const server = await hostileBackend((ex) => {
      if (!ex.req.url?.startsWith('/rest/v1/')) return false;
      ex.res.writeHead(302, { location: `${other.url}${ex.req.url}` });
      ex.res.end();
      return true;
    });
    const result = await namecard(server, ['status']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^error: ${server.url} answered 302 Found to ${other.url}, another origin`),
    );
    expect(other.received).toEqual([]);
  });

  /** The one request `set` stores its entry with (an RPC that also answers the status). */
  const SET_WRITE = '/rest/v1/rpc/namecard_set';

  it('`set` refuses a same-origin 302 to its insert (it would become a GET) and stores nothing', async () => {
    const server = await hostileBackend((ex) => {
      if (ex.req.method !== 'POST' || !ex.req.url?.startsWith(SET_WRITE)) return false;
      ex.res.writeHead(302, { location: ex.req.url });
      ex.res.end();
      return true;
    });
    await login(cli.emulator, cli.dir, { SUPABASE_URL: server.url });
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: ${server.url} answered 302 Found to ${server.url}, which would turn the POST into a GET: not followed`,
      ),
    );
    expect(server.count('POST', SET_WRITE)).toBe(1);
    expect(await rows(cli.emulator)).toEqual([]);
  });

  it('`set` follows a same-origin 307 to its insert, which keeps the method and body', async () => {
    const server = await hostileBackend((ex) => {
      if (ex.req.method !== 'POST' || !ex.req.url?.startsWith(SET_WRITE)) return false;
      if (ex.nth > 1) return false;
      ex.res.writeHead(307, { location: ex.req.url });
      ex.res.end();
      return true;
    });
    await login(cli.emulator, cli.dir, { SUPABASE_URL: server.url });
    const result = await namecard(server, ['set', 'photo', date, '18:00']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(cli.emulator)).toHaveLength(1);
  });
});

/** One line of `namecard doctor --json`. */
interface DoctorResult {
  check: string;
  status: string;
  detail: string;
}

/** The doctor's settings, every URL on `server` (nothing of it reaches another machine). */
const doctorOn = (server: FaultServer) => ({
  NAMECARD_SITE_URL: `${server.url}/site/`,
  NAMECARD_MAIN_URL: `${server.url}/main/`,
});

/** Runs `then` after `ms`, unless the request's connection has closed by then. */
function later(ex: Exchange, ms: number, then: () => void | Promise<void>): void {
  const timer = setTimeout(() => void then(), ms);
  ex.res.on('close', () => clearTimeout(timer));
}

describe('`namecard doctor` against a hostile server', () => {
  it('follows no redirect to another origin, and sends it nothing', async () => {
    const other = await serve((ex) => answer(ex.res, 200, '{}', 'application/json'));
    const server = await serve((ex) => {
      ex.res.writeHead(302, { location: `${other.url}${ex.req.url}` });
      ex.res.end();
    });
    const result = await namecardWith(server, ['doctor', '--json'], doctorOn(server));
    expect(result.exitCode).toBe(1);
    const results = JSON.parse(result.stdout) as DoctorResult[];
    expect(results.find((r) => r.check === 'api')?.detail).toContain(
      `${server.url}/auth/v1/settings answered 302 Found to ${other.url}, another origin: not followed`,
    );
    expect(results.find((r) => r.check === 'pages')?.detail).toContain(
      `to ${other.url}, another origin: not followed`,
    );
    expect(server.count('GET', '/auth/v1/settings')).toBe(1);
    expect(other.received).toEqual([]);
  });

  it('ends every check within its time limit, however slowly the API answers each request', async () => {
    // Each request answered within the 5 s a request may take, but slowly: the sign-in after
    // 3.5 s, then the caller check's read after 4 s, asking to be tried again after 5 s, every
    // time (without a limit on the whole: 3.5 + 4 × 4 + 3 × 5 s).
    const server = await hostileBackend(async (ex) => {
      if (ex.req.url?.startsWith(TOKEN)) {
        const asked = Date.now();
        const upstream = await ex.forward();
        later(ex, asked + 3500 - Date.now(), () =>
          answer(ex.res, upstream.status, upstream.body, 'application/json'),
        );
        return true;
      }
      if (ex.req.url?.startsWith('/rest/v1/rpc/namecard_caller')) {
        later(ex, 4000, () => {
          ex.res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' });
          ex.res.end(
            JSON.stringify({ code: 'PGRST003', message: 'busy', details: null, hint: null }),
          );
        });
        return true;
      }
      return false;
    });
    // Killed after 30 s (a run without the limit takes ~35 s): a killed run has no JSON.
    const result = await execa('node', [BIN, 'doctor', '--json'], {
      env: baseEnv(cli.dir, {
        ...emulatorEnv(cli.emulator, { SUPABASE_URL: server.url, ...doctorOn(server) }),
        NAMECARD_EMAIL: OWNER.email,
        NAMECARD_PASSWORD: OWNER.password,
      }),
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    expect(result.exitCode).toBe(1);
    const caller = (JSON.parse(result.stdout) as DoctorResult[]).find((r) => r.check === 'caller');
    expect(caller).toEqual({
      check: 'caller',
      status: 'fail',
      detail: "not done when the checks' time limit of 20 s ran out",
    });
    // It did sign in and read: the limit ended the caller check's tries, not its start.
    expect(server.count('POST', TOKEN)).toBe(1);
    expect(server.count('GET', '/rest/v1/rpc/namecard_caller')).toBeGreaterThanOrEqual(1);
  });
});

describe('answers past the size limit', () => {
  const MB = 1024 * 1024;

  /** Sends a 300 MB body in 64 KiB chunks, without a length, until done or the client leaves. */
  function flood(ex: Exchange): void {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    let closed = false;
    ex.res.on('close', () => {
      closed = true;
    });
    ex.res.writeHead(200, { 'content-type': 'application/json' });
    const write = () => {
      while (!closed && sent < 300 * MB) {
        sent += chunk.length;
        if (!ex.res.write(chunk)) return void ex.res.once('drain', write);
      }
      if (!closed) ex.res.end();
    };
    write();
  }

  /** `namecard <args>` with its peak resident memory in MiB, measured in the CLI's own process. */
  async function measured(
    server: FaultServer,
    args: string[],
    input = '',
    env: Record<string, string> = {},
  ) {
    const rssFile = path.join(cli.dir, 'max-rss');
    const result = await execa(
      'node',
      ['--import', path.join(ROOT, 'tests/cli/report-max-rss.mjs'), BIN, ...args],
      {
        env: baseEnv(cli.dir, {
          ...emulatorEnv(cli.emulator, { SUPABASE_URL: server.url, ...env }),
          NAMECARD_TEST_RSS_FILE: rssFile,
        }),
        extendEnv: false,
        reject: false,
        input,
        timeout: 60_000,
      },
    );
    const maxRssMiB = Number(await readFile(rssFile, 'utf8')) / 1024;
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, maxRssMiB };
  }

  it('`status` (node:http) stops reading a 300 MB answer: error line, exit 1, under 200 MB', async () => {
    const server = await hostileBackend((ex) => (flood(ex), true));
    const result = await measured(server, ['status']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        `error: ${server.url} answered more than 4 MiB (HTTP 200)`,
        'Check that `SUPABASE_URL` (or `--api-url`) is the API URL of your Supabase project',
      ].join('\n'),
    );
    expect(result.maxRssMiB).toBeGreaterThan(0);
    expect(result.maxRssMiB).toBeLessThan(200);
  });

  it('`login` (supabase-js) stops reading a 300 MB answer: error line, exit 1, under 200 MB', async () => {
    const server = await hostileBackend((ex) => {
      if (!ex.req.url?.startsWith(TOKEN)) return false;
      flood(ex);
      return true;
    });
    const result = await measured(
      server,
      ['login', '--email', OWNER.email, '--password-stdin'],
      `${OWNER.password}\n`,
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^error: ${server.url} answered more than 4 MiB \\(HTTP 200\\)\n`),
    );
    expect(result.stderr).not.toMatch(STACK);
    expect(result.maxRssMiB).toBeGreaterThan(0);
    expect(result.maxRssMiB).toBeLessThan(200);
    expect(existsSync(path.join(cli.dir, 'config.json'))).toBe(false);
  });

  it('`doctor` stops reading a 300 MB answer at its probe cap: the check fails, under 200 MB', async () => {
    const server = await serve((ex) => {
      if (ex.req.url?.startsWith('/auth/v1/settings')) flood(ex);
      else answer(ex.res, 404, gatewayPage(404));
    });
    const result = await measured(server, ['doctor', '--json'], '', doctorOn(server));
    expect(result.exitCode).toBe(1);
    const api = (JSON.parse(result.stdout) as DoctorResult[]).find((r) => r.check === 'api');
    expect(api).toEqual({
      check: 'api',
      status: 'fail',
      detail: expect.stringContaining(
        `no answer from SUPABASE_URL ${server.url} (an answer of more than 256 KiB (HTTP 200), not read)`,
      ),
    });
    expect(result.maxRssMiB).toBeGreaterThan(0);
    expect(result.maxRssMiB).toBeLessThan(200);
  });

  it('an announced length past the limit is refused before the body is read', async () => {
    const server = await hostileBackend((ex) => {
      ex.res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(600 * MB),
      });
      ex.res.write('[');
      return true;
    });
    const result = await namecard(server, ['list']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^error: ${server.url} answered more than 4 MiB \\(HTTP 200\\)\n`),
    );
  });
});
