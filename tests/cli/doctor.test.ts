import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/http-server.js';
import { buildSite } from '../../scripts/site-build.js';
import { serveSite } from '../../scripts/site-server.js';
import { DEFAULT_MAIN_URL, LOCAL_ANON_KEY } from '../../shared/core/config.js';
import { SCHEMA_VERSION } from '../../shared/core/schema-version.js';
import {
  buildAndServeSite,
  startCards,
  startSilentBackend,
  type ServedSite,
} from '../e2e/harness.js';
import { startTestEmulator } from '../support/emulator.js';
import { createLanHost, listenOn } from '../support/netns.js';
import { answer, startFaultServer } from './fault-server.js';
import { BIN, baseEnv, deadPort, removeDir, ROOT, run, tempConfigDir } from './helpers.js';
import { OWNER, STRANGER } from '../support/accounts.js';

// `namecard doctor` run as a process against the emulator, a built site on a static file server
// and a main card site, each check failing for the cause a new owner is most likely to meet.

interface Result {
  check: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
}

describe('namecard doctor', () => {
  let emulator: Awaited<ReturnType<typeof startTestEmulator>>;
  let cards: RunningServer;
  let site: ServedSite;
  let dir: string;

  beforeAll(async () => {
    emulator = await startTestEmulator('pglite', { owner: OWNER, refreshTokenReuseInterval: 0 });
    await emulator.createUser(STRANGER.email, STRANGER.password);
    cards = await startCards();
    site = await buildAndServeSite({
      SUPABASE_URL: emulator.url,
      SUPABASE_ANON_KEY: emulator.anonKey,
      NAMECARD_MAIN_URL: cards.url,
    });
  });
  afterAll(async () => {
    await Promise.all([site?.stop(), cards?.stop(), emulator?.stop()]);
  });
  beforeEach(async () => {
    dir = await tempConfigDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  /** The settings of the correct setup, as the site was built with them. */
  const settings = (env: Record<string, string | undefined> = {}) => ({
    SUPABASE_URL: emulator.url,
    SUPABASE_ANON_KEY: emulator.anonKey,
    NAMECARD_MAIN_URL: cards.url,
    NAMECARD_SITE_URL: site.url,
    NAMECARD_EMAIL: OWNER.email,
    NAMECARD_PASSWORD: OWNER.password,
    ...env,
  });

  async function doctor(env: Record<string, string | undefined>) {
    const result = await run(dir, ['doctor', '--json'], { env });
    return { ...result, results: JSON.parse(result.stdout || '[]') as Result[] };
  }

  const find = (results: Result[], check: string) => results.find((r) => r.check === check);

  it('exits 0 with every check ok on a correct setup, one line per check', async () => {
    const { exitCode, results, stderr } = await doctor(settings());
    expect(stderr).toBe('');
    expect(results.map((r) => r.check)).toEqual([
      'settings',
      'api',
      'key',
      'schema',
      'sign-ups',
      'caller',
      'site',
      'go-fallback',
      'pages',
      'framing',
      'main-url',
    ]);
    expect(results.filter((r) => r.status !== 'ok')).toEqual([]);
    expect(find(results, 'caller')?.detail).toBe(`${OWNER.email} is an owner of the card main`);
    expect(find(results, 'schema')?.detail).toContain(SCHEMA_VERSION);
    expect(exitCode).toBe(0);

    const human = await run(dir, ['doctor'], { env: settings() });
    expect(human.exitCode).toBe(0);
    const lines = human.stdout.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^ok {4}settings {5}card link http:\/\/127\.0\.0\.1:\d+\/go\/$/);
  });

  it('fails naming SUPABASE_URL for an API that never answers, within 10 s', async () => {
    const silent = await startSilentBackend();
    try {
      // The kill after 10 s is the bound: a killed run has no exit code 1 and no JSON.
      const result = await execa('node', [BIN, 'doctor', '--json'], {
        env: baseEnv(dir, settings({ SUPABASE_URL: silent.url })),
        extendEnv: false,
        reject: false,
        timeout: 10_000,
      });
      expect(result.exitCode).toBe(1);
      const results = JSON.parse(result.stdout) as Result[];
      expect(find(results, 'api')).toEqual({
        check: 'api',
        status: 'fail',
        detail: expect.stringMatching(/^no answer from SUPABASE_URL .* \(no answer within 5 s\)/),
      });
      expect(find(results, 'site')?.status).toBe('fail');
    } finally {
      await silent.stop();
    }
  });

  it('fails naming SUPABASE_ANON_KEY for a key the API refuses', async () => {
    const otherProjectKey = await new SignJWT({ role: 'anon' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('another-projects-secret-of-at-least-32-chars'));
    const { exitCode, results } = await doctor(settings({ SUPABASE_ANON_KEY: otherProjectKey }));
    expect(exitCode).toBe(1);
    expect(find(results, 'key')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^SUPABASE_ANON_KEY is not accepted by /),
    });
    // The site was built with the right key: the CLI's differs from it.
    expect(find(results, 'site')?.detail).toMatch(/another SUPABASE_ANON_KEY/);
  });

  it('fails with `supabase db push` when the database lacks the newest migration', async () => {
    await emulator.query('drop function public.namecard_schema_version()');
    try {
      const { exitCode, results } = await doctor(settings());
      expect(exitCode).toBe(1);
      expect(find(results, 'schema')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(
          new RegExp(
            `lacks migrations, this namecard needs ${SCHEMA_VERSION}: run \`npx supabase db push\``,
          ),
        ),
      });
    } finally {
      await emulator.query(
        `create function public.namecard_schema_version() returns text language sql immutable set search_path = '' as $$ select '${SCHEMA_VERSION}'::text $$;
         grant execute on function public.namecard_schema_version() to anon, authenticated, service_role`,
      );
    }
  });

  it('fails naming SUPABASE_URL when it is a web site, not a Supabase API', async () => {
    const { exitCode, results } = await doctor(settings({ SUPABASE_URL: cards.url }));
    expect(exitCode).toBe(1);
    expect(find(results, 'api')?.status).toBe('ok');
    expect(find(results, 'key')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        /not as Supabase's API does: is SUPABASE_URL the project's API URL/,
      ),
    });
  });

  it('fails with `supabase db push` when the database is at an older schema version', async () => {
    const older = '20261123000100';
    const define = (version: string) =>
      emulator.query(
        `create or replace function public.namecard_schema_version() returns text language sql immutable set search_path = '' as $$ select '${version}'::text $$`,
      );
    await define(older);
    try {
      const { exitCode, results } = await doctor(settings());
      expect(exitCode).toBe(1);
      expect(find(results, 'schema')).toMatchObject({
        status: 'fail',
        detail: `the database is at ${older}, this namecard needs ${SCHEMA_VERSION}: run \`npx supabase db push\` from this version's checkout (docs/deploy.md)`,
      });
    } finally {
      await define(SCHEMA_VERSION);
    }
  });

  it('fails when sign-ups are on, as on a new hosted project', async () => {
    const open = await startTestEmulator('pglite', { owner: OWNER, signUps: true });
    try {
      const { exitCode, results } = await doctor(settings({ SUPABASE_URL: open.url }));
      expect(exitCode).toBe(1);
      expect(find(results, 'sign-ups')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/^sign-ups are on: anyone may create an account/),
      });
    } finally {
      await open.stop();
    }
  });

  it('fails naming the API the hosted site was built for when it is another one', async () => {
    const other = await buildAndServeSite({
      SUPABASE_URL: 'https://other-project.supabase.co',
      SUPABASE_ANON_KEY: 'sb_publishable_other_project',
      NAMECARD_MAIN_URL: cards.url,
    });
    try {
      const { exitCode, results } = await doctor(settings({ NAMECARD_SITE_URL: other.url }));
      expect(exitCode).toBe(1);
      expect(find(results, 'site')).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining(
          `built for SUPABASE_URL https://other-project.supabase.co, not ${emulator.url}`,
        ),
      });
    } finally {
      await other.stop();
    }
  });

  it('fails when the signed-in account may not change its card, naming the card and the role needed', async () => {
    const { exitCode, results } = await doctor(
      settings({ NAMECARD_EMAIL: STRANGER.email, NAMECARD_PASSWORD: STRANGER.password }),
    );
    expect(exitCode).toBe(1);
    expect(find(results, 'caller')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        /^stranger@example\.com may not change the card main: it is no member of it \(needs editor\)/,
      ),
    });
  });

  it('warns, and still exits 0, when the host sends no anti-framing header or no one is signed in', async () => {
    const bare = await buildAndServeSite(
      { SUPABASE_URL: emulator.url, NAMECARD_MAIN_URL: cards.url },
      { antiFraming: false },
    );
    try {
      const { exitCode, results } = await doctor(
        settings({ NAMECARD_SITE_URL: bare.url, NAMECARD_EMAIL: undefined }),
      );
      expect(find(results, 'framing')).toMatchObject({
        status: 'warn',
        detail: expect.stringMatching(/no anti-framing header for \/login\/ and \/manage\//),
      });
      expect(find(results, 'caller')).toMatchObject({ status: 'warn' });
      expect(exitCode).toBe(0);
    } finally {
      await bare.stop();
    }
  });

  it("prints the checks docs/deploy.md's sample shows, in its order", async () => {
    const guide = await readFile(path.join(ROOT, 'docs/deploy.md'), 'utf8');
    const sample = /```console\n\$ namecard doctor\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    const shown = sample
      .trim()
      .split('\n')
      .map((line) => /^(ok|warn|fail) +(\S+) +(.*)$/.exec(line));
    expect(shown.every(Boolean), sample).toBe(true);
    const { results } = await doctor(settings());
    expect(shown.map((m) => m![2])).toEqual(results.map((r) => r.check));
    // The schema version it shows is today's (the guide is updated with each migration).
    expect(/\((\d{14})\)/.exec(sample)?.[1], 'the schema version in the sample').toBe(
      SCHEMA_VERSION,
    );
    // The sample's ok lines read as today's do: its URLs, e-mail, version and count stand for
    // the test's own.
    const pattern = (text: string) => {
      const parts = text.split(/(https:\/\/\S+|\d{14}|you@example\.com|\d+ scripts)/);
      const source = parts.map((part, i) =>
        i % 2 === 0
          ? part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          : part.startsWith('https:')
            ? 'http://127\\.0\\.0\\.1:\\d+\\S*'
            : /^\d{14}$/.test(part)
              ? '\\d{14}'
              : part.includes('@')
                ? '\\S+@\\S+'
                : '\\d+ scripts',
      );
      return new RegExp(`^${source.join('')}$`);
    };
    for (const [line, result] of shown.map((m, i) => [m!, results[i]!] as const)) {
      if (line[1] === 'ok') expect(result.detail, line[2]).toMatch(pattern(line[3]!));
    }
  });

  it('takes a setting that was given as set, even when it is the local default', async () => {
    const { results } = await doctor(settings({ NAMECARD_MAIN_URL: DEFAULT_MAIN_URL }));
    expect(find(results, 'settings')).toMatchObject({ status: 'ok' });
    const unset = await doctor(settings({ NAMECARD_MAIN_URL: undefined }));
    expect(find(unset.results, 'settings')).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^NAMECARD_MAIN_URL not set: checking the local defaults/),
    });
  });

  it('fails naming SUPABASE_ANON_KEY when it is the demo key and the API is not on this machine', async () => {
    // The API is a host on the LAN (a network namespace of this test's own).
    const host = await createLanHost();
    try {
      const api = await listenOn(host);
      const { exitCode, results } = await doctor(
        settings({ SUPABASE_URL: api.url, SUPABASE_ANON_KEY: LOCAL_ANON_KEY }),
      );
      expect(exitCode).toBe(1);
      expect(find(results, 'key')).toEqual({
        check: 'key',
        status: 'fail',
        detail: `SUPABASE_ANON_KEY is the local emulator's demo key, which only an API on this machine may use, but SUPABASE_URL is ${api.url}: set SUPABASE_ANON_KEY to that project's anon or publishable key (Project Settings, API Keys)`,
      });
      expect(find(results, 'caller')).toEqual({
        check: 'caller',
        status: 'warn',
        detail: 'not checked: SUPABASE_ANON_KEY is the demo key',
      });
    } finally {
      await host.remove();
    }
  });

  it('fails when the hosted site was built with the demo key for an API elsewhere', async () => {
    // namecard.json as a namecard before this check built it: the demo key for a hosted API.
    const built = await buildAndServeSite({
      SUPABASE_URL: emulator.url,
      SUPABASE_ANON_KEY: emulator.anonKey,
      NAMECARD_MAIN_URL: cards.url,
    });
    try {
      const file = path.join(built.dir, 'namecard.json');
      const published = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      await writeFile(
        file,
        JSON.stringify({ ...published, supabaseUrl: 'https://project-ref.supabase.co' }),
      );
      const { exitCode, results } = await doctor(settings({ NAMECARD_SITE_URL: built.url }));
      expect(exitCode).toBe(1);
      expect(find(results, 'site')).toEqual({
        check: 'site',
        status: 'fail',
        detail:
          "the site was built with the local emulator's demo key for SUPABASE_URL https://project-ref.supabase.co, which is not on this machine: rebuild with SUPABASE_ANON_KEY set to that project's anon or publishable key, and upload dist/site (docs/deploy.md)",
      });
    } finally {
      await built.stop();
    }
  });

  it('names a bad setting by its name and exits 1', async () => {
    const { exitCode, results } = await doctor(settings({ NAMECARD_MAIN_URL: 'me.example' }));
    expect(exitCode).toBe(1);
    expect(results).toEqual([
      {
        check: 'settings',
        status: 'fail',
        detail: expect.stringMatching(/^`NAMECARD_MAIN_URL` must be/),
      },
    ]);
  });
});

// A deployment whose pages answer while what they load does not: the white pages of the
// GitHub Pages case, an upload without its assets, a host answering missing files with a page.
describe('namecard doctor on a broken deployment', () => {
  let emulator: Awaited<ReturnType<typeof startTestEmulator>>;
  let cards: RunningServer;
  let dir: string;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator('pglite', { owner: OWNER });
    cards = await startCards();
  });
  afterAll(async () => {
    await cards?.stop();
    await emulator?.stop();
  });
  beforeEach(async () => {
    dir = await tempConfigDir();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    await removeDir(dir);
  });

  /** The site built with `siteUrl` (no NAMECARD_BASE_PATH) and served under `servedAt`. */
  async function deploy(siteUrl: string, servedAt: string, port?: number) {
    const out = await mkdtemp(path.join(tmpdir(), 'namecard-broken-'));
    stops.push(() => rm(out, { recursive: true, force: true }));
    await buildSite(
      {
        SUPABASE_URL: emulator.url,
        SUPABASE_ANON_KEY: emulator.anonKey,
        NAMECARD_MAIN_URL: cards.url,
        NAMECARD_SITE_URL: siteUrl,
      },
      out,
    );
    const server = await serveSite(out, { basePath: servedAt, port });
    stops.push(() => server.stop());
    return { out, url: new URL(servedAt, server.url).href };
  }

  async function doctor(siteUrl: string) {
    const result = await run(dir, ['doctor', '--json'], {
      env: {
        SUPABASE_URL: emulator.url,
        SUPABASE_ANON_KEY: emulator.anonKey,
        NAMECARD_MAIN_URL: cards.url,
        NAMECARD_SITE_URL: siteUrl,
      },
    });
    const results = JSON.parse(result.stdout || '[]') as Result[];
    return { exitCode: result.exitCode, pages: results.find((r) => r.check === 'pages') };
  }

  it('a site built for / but hosted under /namecard/ (GitHub Pages): fails naming the script and the base path', async () => {
    const port = await deadPort();
    const { url } = await deploy(`http://127.0.0.1:${port}/`, '/namecard/', port);
    const { exitCode, pages } = await doctor(url);
    expect(exitCode).toBe(1);
    expect(pages).toEqual({
      check: 'pages',
      status: 'fail',
      detail: expect.stringMatching(
        new RegExp(
          `^http://127\\.0\\.0\\.1:${port}/assets/\\S+\\.(js|css) \\(a (script|style) of /\\S*\\) answers HTTP 404: the site was built for the base path /, but it is hosted at ${url.replace(/[.]/g, '\\.')}\\. Rebuild with NAMECARD_SITE_URL=`,
        ),
      ),
    });
  });

  it('the same site built from NAMECARD_SITE_URL alone, hosted under /namecard/: every page loads', async () => {
    const port = await deadPort();
    const { url } = await deploy(`http://127.0.0.1:${port}/namecard/`, '/namecard/', port);
    const { exitCode, pages } = await doctor(url);
    expect(pages).toEqual({
      check: 'pages',
      status: 'ok',
      detail: expect.stringMatching(
        /^\/, \/login\/, \/manage\/, \/go\/ load their \d+ scripts and styles$/,
      ),
    });
    expect(exitCode).toBe(0);
  });

  it('an upload without its scripts: fails naming the missing script', async () => {
    const port = await deadPort();
    const { out, url } = await deploy(`http://127.0.0.1:${port}/`, '/', port);
    const login = (await readdir(path.join(out, 'assets'))).find((f) => /^login-.*\.js$/.test(f));
    await rm(path.join(out, 'assets', login!));
    const { exitCode, pages } = await doctor(url);
    expect(exitCode).toBe(1);
    expect(pages).toEqual({
      check: 'pages',
      status: 'fail',
      detail: `${url}assets/${login} (a script of /login/) answers HTTP 404: upload all of dist/site from one build (its assets/ folder too)`,
    });
  });

  it('a host that answers a missing script with a page: fails saying so', async () => {
    const port = await deadPort();
    const { url } = await deploy(`http://127.0.0.1:${port}/`, '/', port);
    const host = await startFaultServer(
      async (ex) => {
        if (ex.req.url?.startsWith('/assets/') && ex.req.url.endsWith('.js')) {
          answer(ex.res, 200, '<!doctype html><title>Home</title>', 'text/html');
        } else await ex.proxy();
      },
      url.replace(/\/$/, ''),
    );
    stops.push(() => host.stop());
    const { exitCode, pages } = await doctor(`${host.url}/`);
    expect(exitCode).toBe(1);
    expect(pages).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+\/assets\/\S+\.js \(a script of \/\S*\) answers with a page \(text\/html\), not the script: the host serves a page for files it does not have/,
      ),
    });
  });
});
