import { execa, type ResultPromise } from 'execa';
import { cp, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_ANON_KEY } from '../../shared/core/config.js';
import { createLanHost, listenOn, type LanHost, type Listener } from '../support/netns.js';
import { decodeHalfBlocks, halfBlockLines } from '../support/qr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm start` (scripts/start.ts) as a process, in a copy of the project in a temporary folder:
// it keeps its data in `.namecard/` and builds into `dist/`, which must not touch the checkout
// the other tests use. The copy shares the checkout's node_modules.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COPIED = [
  'cli',
  'emulator',
  'scripts',
  'shared',
  'site',
  'supabase',
  'package.json',
  'tsconfig.json',
];

/** Settings that would send `npm start` elsewhere than its own emulator and demo pages. */
const CLEAN_ENV = {
  SUPABASE_URL: undefined,
  SUPABASE_ANON_KEY: undefined,
  NAMECARD_MAIN_URL: undefined,
  NAMECARD_PHOTO_PATH: undefined,
  NAMECARD_SITE_URL: undefined,
  NAMECARD_BASE_PATH: undefined,
  NAMECARD_PORT: undefined,
  NAMECARD_API_PORT: undefined,
  NAMECARD_DEMO_PORT: undefined,
  DATABASE_URL: undefined,
  NODE_ENV: undefined,
  // picocolors colours every line when CI is set (as CI runs this test): plain text here, as
  // the CLI tests have.
  NO_COLOR: '1',
};

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'namecard-start-'));
  for (const entry of COPIED) {
    await cp(join(ROOT, entry), join(project, entry), { recursive: true });
  }
  await symlink(await realpath(join(ROOT, 'node_modules')), join(project, 'node_modules'));
});
afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

function start(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeout?: number,
): ResultPromise<{ reject: false; cwd: string; env: Record<string, string | undefined> }> {
  return execa(process.execPath, ['--import', 'tsx', 'scripts/start.ts', ...args], {
    reject: false,
    cwd: project,
    env: { ...CLEAN_ENV, ...env },
    timeout,
  }) as never;
}

/** A port nothing listens on now (the OS picked it free; it is closed again). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server holding a port on 127.0.0.1, so that nothing else can listen there. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** Waits until `npm start` says it is running; rejects when it exits first. */
async function running(child: ResultPromise): Promise<() => string> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', () => {
      if (output.includes('Press Ctrl+C to stop.')) resolve();
    });
    void child.then((r) => reject(new Error(`npm start exited (${r.exitCode}): ${r.stderr}`)));
  });
  return () => output;
}

/** Runs the built CLI of the copy, as the owner would from the project folder. */
function cli(args: string[], env: Record<string, string | undefined>, input?: string) {
  return execa(process.execPath, [join(project, 'dist/cli/index.js'), ...args], {
    reject: false,
    cwd: project,
    env: { ...CLEAN_ENV, ...env },
    ...(input !== undefined ? { input } : {}),
  });
}

describe('npm start', { timeout: 240_000 }, () => {
  it('--help lists the three port options and their environment names', async () => {
    const result = await start(['--help']);
    expect(result.exitCode).toBe(0);
    for (const [option, name] of [
      ['--port', 'NAMECARD_PORT'],
      ['--api-port', 'NAMECARD_API_PORT'],
      ['--demo-port', 'NAMECARD_DEMO_PORT'],
    ]) {
      expect(result.stdout).toMatch(new RegExp(`${option} <port>.*\\(${name}, default \\d+\\)`));
    }
  });

  it('refuses a port that is not a number, naming the option (exit 2)', async () => {
    const result = await start(['--port', 'eighty']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(
      'error: `--port` must be a port number from 1 to 65535, got `eighty`',
    );
  });

  it.each([
    ['--port', 'NAMECARD_PORT'],
    ['--api-port', 'NAMECARD_API_PORT'],
    ['--demo-port', 'NAMECARD_DEMO_PORT'],
  ])('a busy %s gives one error line naming that option, and exit 1', async (option, envName) => {
    const held = await holdPort();
    try {
      const ports: Record<string, string> = {
        '--port': String(await freePort()),
        '--api-port': String(await freePort()),
        '--demo-port': String(await freePort()),
        [option]: String(held.port),
      };
      const result = await start(Object.entries(ports).flat());
      expect(result.exitCode).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^error: port ${held.port} on 127\\.0\\.0\\.1 .*is in use: .*${option} \\(or ${envName}\\)$`,
        ),
      );
      expect(result.stdout).not.toContain('Namecard is running');
    } finally {
      await new Promise<void>((resolve) => held.server.close(() => resolve()));
    }
  });

  it('a busy port set by its environment name is named too', async () => {
    const held = await holdPort();
    try {
      const result = await start(['--port', String(await freePort())], {
        NAMECARD_API_PORT: String(held.port),
        NAMECARD_DEMO_PORT: String(await freePort()),
      });
      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^error: port \d+ .*--api-port \(or NAMECARD_API_PORT\)$/),
      ]);
    } finally {
      await new Promise<void>((resolve) => held.server.close(() => resolve()));
    }
  });

  it('with SUPABASE_URL set to an API that does not answer, says so naming SUPABASE_URL (exit 1)', async () => {
    // An API that takes the connection and never answers. Held for the whole test: a port only
    // found free could be taken meanwhile by another test's server, which would answer.
    const sockets = new Set<import('node:net').Socket>();
    const mute = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const down = `http://127.0.0.1:${(mute.address() as { port: number }).port}`;
    try {
      const result = await start(
        ['--port', String(await freePort()), '--demo-port', String(await freePort())],
        { SUPABASE_URL: down },
      );
      expect(result.exitCode).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toEqual([
        `error: \`SUPABASE_URL\` is ${down}, but no answer within 5 s: start that API, or unset SUPABASE_URL to run the local emulator`,
      ]);
      expect(result.stdout).not.toContain('running');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => mute.close(() => resolve()));
    }
  });

  it.each([
    [['--host', 'my-laptop'], {}, '`--host` must be an IPv4 address'],
    [[], { NAMECARD_HOST: '300.1.1.1' }, '`NAMECARD_HOST` must be an IPv4 address'],
  ])(
    'refuses %j %j, not an IPv4 address, naming where it came from (exit 2)',
    async (args, env, says) => {
      const result = await start(args, env);
      expect(result.exitCode).toBe(2);
      expect(result.stderr.trim()).toMatch(
        new RegExp(`^error: ${says.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} such as 0\\.0\\.0\\.0`),
      );
    },
  );

  it('serves the site, the API and the demo pages on the given ports; the site and the CLI use that API', async () => {
    const [site, api, demo] = [await freePort(), await freePort(), await freePort()];
    const child = start([
      '--port',
      String(site),
      '--api-port',
      String(api),
      '--demo-port',
      String(demo),
    ]);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', () => {
          if (output.includes('Press Ctrl+C to stop.')) resolve();
        });
        void child.then((r) => reject(new Error(`npm start exited (${r.exitCode}): ${r.stderr}`)));
      });
      const siteUrl = `http://127.0.0.1:${site}/`;
      const apiUrl = `http://127.0.0.1:${api}`;
      expect(output).toContain(`Site        ${siteUrl}\n`);
      expect(output).toContain(`Card link   ${siteUrl}go/`);
      expect(output).toContain(`API         ${apiUrl}`);
      expect(output).toContain(`Main card   http://127.0.0.1:${demo}/`);

      // Each serves.
      const home = await fetch(siteUrl);
      expect(home.status).toBe(200);
      await expect(home.text()).resolves.toContain('<h1>Namecard</h1>');
      const settings = await fetch(`${apiUrl}/auth/v1/settings`, {
        headers: { apikey: LOCAL_ANON_KEY },
      });
      expect(settings.status).toBe(200);
      const card = await fetch(`http://127.0.0.1:${demo}/`);
      await expect(card.text()).resolves.toContain('Main profile');

      // The site was built against that API and those demo pages.
      const go = await (await fetch(`${siteUrl}go/`)).text();
      expect(go).toContain(`<link rel="preconnect" href="${apiUrl}" crossorigin`);
      expect(go).toContain(`href="http://127.0.0.1:${demo}/"`);

      // The CLI: the login line npm start printed (the site and the demo pages moved with their
      // ports), then commands without any setting.
      const login = /CLI login {3}(.+?) node dist\/cli\/index\.js (login .+?) {2}/.exec(output);
      expect(login?.[2]).toBe(`login --api-url ${apiUrl}`);
      const given = Object.fromEntries(
        login![1]!.split(' ').map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]),
      );
      expect(given).toEqual({
        NAMECARD_SITE_URL: siteUrl,
        NAMECARD_MAIN_URL: `http://127.0.0.1:${demo}/`,
      });
      const configDir = await mkdtemp(join(tmpdir(), 'namecard-start-cli-'));
      try {
        const env = { NAMECARD_CONFIG_DIR: configDir };
        const signedIn = await cli(
          [...login![2]!.split(' '), '--email', 'owner@namecard.local', '--password-stdin'],
          { ...env, ...given },
          'namecard-demo\n',
        );
        expect(signedIn.stderr).toBe('');
        expect(signedIn.exitCode).toBe(0);
        expect(signedIn.stdout).toContain(`at ${apiUrl}`);
        const set = await cli(['set', 'photo', '--for', '1h'], env);
        expect(set.exitCode).toBe(0);
        const status = await cli(['status', '--json'], env);
        expect(status.exitCode).toBe(0);
        expect((JSON.parse(status.stdout) as { active: { type: string } }).active.type).toBe(
          'photo',
        );
        // What visitors get is named by the demo page they land on.
        const said = await cli(['status'], env);
        expect(said.stdout).toContain(`http://127.0.0.1:${demo}/photo`);
        const link = await cli(['link'], env);
        expect(link.stdout.trim()).toBe(`${siteUrl}go/`);
      } finally {
        await rm(configDir, { recursive: true, force: true });
      }
    } finally {
      child.kill('SIGTERM');
      const result = await child;
      expect(result.exitCode).toBe(0);
    }
  });
});

// `npm start` on a network of its own: a network namespace this test makes, whose one address
// (not loopback, as a phone's view of the machine would be) is where the site, the API and the
// demo pages are reached; never the machine's real network.
describe('npm start on a LAN', { timeout: 240_000 }, () => {
  let host: LanHost;
  let listener: Listener;

  beforeAll(async () => {
    host = await createLanHost();
    listener = await listenOn(host);
  });
  afterAll(async () => {
    await host?.remove();
  });

  /** `npm start <args>` inside the namespace (its ports are the test's own: the defaults). */
  const startThere = (args: string[], env: Record<string, string | undefined> = {}) =>
    host.exec(process.execPath, ['--import', 'tsx', 'scripts/start.ts', ...args], {
      reject: false,
      cwd: project,
      env: { ...CLEAN_ENV, ...env },
    });

  /** Fetches `url` from inside the namespace: its status and whether the body holds `text`. */
  async function fetchThere(url: string, text: string, headers: Record<string, string> = {}) {
    const script = `fetch(${JSON.stringify(url)}, { headers: ${JSON.stringify(headers)} }).then(async (r) => console.log(r.status, (await r.text()).includes(${JSON.stringify(text)})))`;
    const { stdout } = await host.exec(process.execPath, ['-e', script]);
    return String(stdout).trim();
  }

  async function stop(child: ReturnType<typeof startThere>) {
    child.kill('SIGTERM');
    expect((await child).exitCode).toBe(0);
  }

  it('--host 0.0.0.0 serves every address: the site calls the API at the LAN address, the card link is printed as a QR code, and another loopback address (127.0.0.2) reaches each server', async () => {
    const child = startThere(['--host', '0.0.0.0']);
    try {
      const output = (await running(child))();
      const siteUrl = `http://${host.address}:4173/`;
      const apiUrl = `http://${host.address}:54321`;
      expect(output).toContain(`Card link   ${siteUrl}go/`);
      expect(output).toContain(`API         ${apiUrl}`);
      // The card link's QR code (?via=qr, as on a printed card), read back by jsQR.
      expect(output).toContain(`scan this or open ${siteUrl}go/?via=qr`);
      expect(decodeHalfBlocks(halfBlockLines(output))).toBe(`${siteUrl}go/?via=qr`);

      // From this machine, as a phone on the LAN: the site, the API and the demo pages.
      const go = await (await fetch(`${siteUrl}go/`)).text();
      // Its pages call the API and send visitors at the LAN address, never at 127.0.0.1.
      expect(go).toContain(`<link rel="preconnect" href="${apiUrl}" crossorigin`);
      expect(go).toContain(`href="http://${host.address}:4174/"`);
      expect(go).not.toContain('127.0.0.1:54321');
      const settings = await fetch(`${apiUrl}/auth/v1/settings`, {
        headers: { apikey: LOCAL_ANON_KEY },
      });
      expect(settings.status).toBe(200);
      await expect((await fetch(`http://${host.address}:4174/`)).text()).resolves.toContain(
        'Main profile',
      );

      // Bound to every address: another loopback address reaches each of the three too.
      expect(await fetchThere('http://127.0.0.2:4173/go/', 'Redirecting..')).toBe('200 true');
      expect(
        await fetchThere('http://127.0.0.2:54321/auth/v1/settings', 'disable_signup', {
          apikey: LOCAL_ANON_KEY,
        }),
      ).toBe('200 true');
      expect(await fetchThere('http://127.0.0.2:4174/', 'Main profile')).toBe('200 true');
    } finally {
      await stop(child);
    }
  });

  it('--host <LAN address>: the CLI login line it prints signs in from this machine', async () => {
    const child = startThere(['--host', host.address]);
    try {
      const output = (await running(child))();
      const apiUrl = `http://${host.address}:54321`;
      // The emulator's key comes with the line: for an API that is not loopback, the CLI has no
      // default key.
      const line = /CLI login {3}(.+?) node dist\/cli\/index\.js (login .+?) {2}/.exec(output);
      expect(line?.[2]).toBe(`login --api-url ${apiUrl} --allow-insecure-http`);
      const settings = Object.fromEntries(
        line![1]!.split(' ').map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]),
      );
      expect(settings).toEqual({
        NAMECARD_SITE_URL: `http://${host.address}:4173/`,
        NAMECARD_MAIN_URL: `http://${host.address}:4174/`,
        SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
      });
      const configDir = await mkdtemp(join(tmpdir(), 'namecard-start-lan-'));
      try {
        const env = { NAMECARD_CONFIG_DIR: configDir };
        const signedIn = await cli(
          [...line![2]!.split(' '), '--email', 'owner@namecard.local', '--password-stdin'],
          { ...env, ...settings },
          'namecard-demo\n',
        );
        expect(signedIn.stderr).toBe('');
        expect(signedIn.exitCode).toBe(0);
        // The link is of the signed-in caller's card, chosen from its cards: the session goes
        // over plain http: to this LAN address only with the flag, on each run.
        const refused = await cli(['link'], env);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toContain('--allow-insecure-http');
        const link = await cli(['link', '--allow-insecure-http'], env);
        expect(link.stderr).toBe('');
        expect(link.stdout.trim()).toBe(`http://${host.address}:4173/go/`);
      } finally {
        await rm(configDir, { recursive: true, force: true });
      }
    } finally {
      await stop(child);
    }
  });

  it('with SUPABASE_URL on the LAN and no SUPABASE_ANON_KEY, stops naming it and sends nothing (exit 1)', async () => {
    // Stopped after 60 s should it start after all (it then runs until stopped).
    const result = await start(
      ['--port', String(await freePort())],
      { SUPABASE_URL: listener.url, SUPABASE_ANON_KEY: '' },
      60_000,
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim()).toBe(
      `error: \`SUPABASE_ANON_KEY\` is not set, and \`SUPABASE_URL\` ${listener.url} is not on this machine: set it to that project's anon or publishable key (Project Settings, API Keys); the local emulator's demo key is used only for an API on 127.0.0.1 or localhost`,
    );
    expect(await listener.received()).toBe('');
  });
});
