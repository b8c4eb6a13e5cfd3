import { execa } from 'execa';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/http-server.js';
import { SCHEMA_VERSION } from '../../shared/core/schema-version.js';
import {
  buildAndServeSite,
  startCards,
  startSilentBackend,
  type ServedSite,
} from '../e2e/harness.js';
import { startTestEmulator } from '../support/emulator.js';
import { BIN, baseEnv, removeDir, run, tempConfigDir } from './helpers.js';
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
    await site?.stop();
    await cards?.stop();
    await emulator?.stop();
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
      'owner',
      'site',
      'go-fallback',
      'framing',
      'main-url',
    ]);
    expect(results.filter((r) => r.status !== 'ok')).toEqual([]);
    expect(find(results, 'owner')?.detail).toBe(`${OWNER.email} is an owner`);
    expect(find(results, 'schema')?.detail).toContain(SCHEMA_VERSION);
    expect(exitCode).toBe(0);

    const human = await run(dir, ['doctor'], { env: settings() });
    expect(human.exitCode).toBe(0);
    const lines = human.stdout.split('\n');
    expect(lines).toHaveLength(10);
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

  it('fails when the signed-in account is not an owner', async () => {
    const { exitCode, results } = await doctor(
      settings({ NAMECARD_EMAIL: STRANGER.email, NAMECARD_PASSWORD: STRANGER.password }),
    );
    expect(exitCode).toBe(1);
    expect(find(results, 'owner')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^stranger@example\.com is signed in but is not an owner/),
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
      expect(find(results, 'owner')).toMatchObject({ status: 'warn' });
      expect(exitCode).toBe(0);
    } finally {
      await bare.stop();
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
