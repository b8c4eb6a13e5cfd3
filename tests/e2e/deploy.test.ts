import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { MIGRATIONS_DIR } from '../../emulator/migrations.js';
import type { RunningServer } from '../../scripts/http-server.js';
import { buildSite } from '../../scripts/site-build.js';
import { serveSite } from '../../scripts/site-server.js';
import { SCHEMA_VERSION } from '../../shared/core/schema-version.js';
import { ROOT, removeDir, run, tempConfigDir } from '../cli/helpers.js';
import { freePort, startThrowawayPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { overPostgres } from '../support/emulator.js';
import { layOutSupabase } from '../support/supabase-layout.js';
import { followGo, launchBrowser, startCards, type ServedSite, type Visit } from './harness.js';

// docs/deploy.md followed to the letter where a test can: `supabase db push` with the pinned
// Supabase CLI, its owner SQL and its build command (every setting it names), on a PostgreSQL
// laid out as Supabase's images (migrations applied by the non-superuser postgres) with the
// emulator in front as the hosted API, the site under a
// sub-path as on GitHub Pages. It ends as the guide does: `namecard doctor` exits 0, and a
// visitor's /go lands on the main site.

const GUIDE = path.join(ROOT, 'docs/deploy.md');
const USER = { email: 'owner@deploy.test', password: 'deploy-owner-password-1' };
const BASE_PATH = '/namecard/';

/** The first fenced block of `lang` in the guide whose text contains `marker`. */
function codeBlock(guide: string, lang: string, marker: string): string {
  const blocks = [...guide.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))];
  const block = blocks.map((m) => m[1] ?? '').find((text) => text.includes(marker));
  if (block === undefined) throw new Error(`docs/deploy.md has no ${lang} block with ${marker}`);
  return block;
}

/** `npx supabase db push --db-url …` as docs/deploy.md's step 2 runs it, against `url`. */
function pushMigrations(url: string) {
  // The throwaway server speaks no TLS; hosted Supabase's does.
  const dbUrl = `${url}${url.includes('?') ? '&' : '?'}sslmode=disable`;
  // The pinned CLI's own bin, not npx: under `npx -c` (CI's Node 24 run) a nested npx would
  // inherit npm's settings (npm_config_call) from the environment and refuse its arguments.
  const supabase = path.join(ROOT, 'node_modules/.bin/supabase');
  return execa(supabase, ['db', 'push', '--db-url', dbUrl, '--yes'], {
    cwd: ROOT,
    reject: false,
    env: { CI: 'true' },
  });
}

describe('docs/deploy.md on a Supabase-laid-out PostgreSQL', () => {
  let server: ThrowawayPostgres;
  let postgresUrl: string;
  let emulator: RunningEmulator;
  let cards: RunningServer & { visits: Visit[] };
  let site: ServedSite;
  let browser: Browser;
  let configDir: string;
  let guide: string;
  let settings: Record<string, string>;

  beforeAll(async () => {
    guide = await readFile(GUIDE, 'utf8');
    server = await startThrowawayPostgres({ superuser: 'supabase_admin' });
    postgresUrl = await layOutSupabase(server.url);
    // Step 2: the pinned Supabase CLI pushes every migration as postgres (no superuser); the
    // emulator in front then finds them all in the history table and applies none again.
    const push = await pushMigrations(postgresUrl);
    expect(push.exitCode, push.stderr).toBe(0);
    expect(push.stdout).toContain('Finished supabase db push.');
    emulator = await startEmulator({ ...overPostgres(postgresUrl), port: 0 });
    cards = await startCards();
    configDir = await tempConfigDir();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.stop();
    await cards?.stop();
    await emulator?.stop();
    await server?.stop();
    await removeDir(configDir);
  });

  test('step 2: every migration is in the history table, and a second push is up to date', async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations order by version',
      );
      const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
      expect(rows.map((r) => r.version)).toEqual(files.map((f) => f.split('_')[0]));
    } finally {
      await client.end();
    }
    const again = await pushMigrations(postgresUrl);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('Remote database is up to date.');
  });

  test("step 5's SQL makes the user an owner, however its e-mail is typed", async () => {
    // Step 4: the user, as the dashboard creates it (GoTrue stores the e-mail in lower case).
    await emulator.createUser(USER.email, USER.password);
    const sql = codeBlock(guide, 'sql', 'private.namecard_member').replace(
      /'you@example\.com'/g,
      `'${USER.email.toUpperCase()}'`,
    );
    expect(sql).toContain('OWNER@DEPLOY.TEST');
    // The SQL editor runs as postgres.
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      const inserted = await client.query(sql);
      expect(inserted.rowCount).toBe(1);
      const owners = await client.query<{ email: string }>(
        `select u.email from private.namecard_member m
           join public.namecard_card c on c.id = m.card_id
           join auth.users u on u.id = m.user_id
         where c.slug = 'main' and m.role = 'owner'`,
      );
      expect(owners.rows).toEqual([{ email: USER.email }]);
    } finally {
      await client.end();
    }
  });

  test("step 6's build with every setting it names, hosted under a sub-path", async () => {
    const command = codeBlock(guide, 'sh', 'npm run build');
    const names = [...command.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]);
    expect(names).toEqual([
      'SUPABASE_URL',
      'SUPABASE_ANON_KEY',
      'NAMECARD_MAIN_URL',
      'NAMECARD_PHOTO_PATH',
      'NAMECARD_SITE_URL',
      'NAMECARD_BASE_PATH',
    ]);
    const port = await freePort();
    const siteUrl = `http://127.0.0.1:${port}${BASE_PATH}`;
    settings = {
      SUPABASE_URL: emulator.url,
      SUPABASE_ANON_KEY: emulator.anonKey,
      NAMECARD_MAIN_URL: cards.url,
      NAMECARD_PHOTO_PATH: 'photo',
      NAMECARD_SITE_URL: siteUrl,
      NAMECARD_BASE_PATH: BASE_PATH,
    };
    const dir = await mkdtemp(path.join(tmpdir(), 'namecard-deploy-'));
    try {
      await buildSite(settings, dir);
      const published = JSON.parse(await readFile(path.join(dir, 'namecard.json'), 'utf8')) as {
        schemaVersion: string;
        siteUrl: string;
      };
      expect(published).toMatchObject({ schemaVersion: SCHEMA_VERSION, siteUrl });
      const served = await serveSite(dir, { port, basePath: BASE_PATH });
      site = {
        ...served,
        dir,
        route: (p) => new URL(`${BASE_PATH}${p}`, served.url).href,
        async stop() {
          await served.stop();
          await rm(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  });

  test('step 9: `namecard doctor` finds nothing wrong, and /go lands on the main site', async () => {
    const { exitCode, stdout } = await run(configDir, ['doctor', '--json'], {
      env: { ...settings, NAMECARD_EMAIL: USER.email, NAMECARD_PASSWORD: USER.password },
    });
    const results = JSON.parse(stdout) as { check: string; status: string; detail: string }[];
    expect(results.filter((r) => r.status !== 'ok')).toEqual([]);
    expect(results.find((r) => r.check === 'caller')?.detail).toBe(
      `${USER.email} is an owner of the card main`,
    );
    expect(exitCode).toBe(0);

    browser = await launchBrowser();
    const page = await browser.newPage();
    const visit = await followGo(page, site, cards);
    expect(visit.finalUrl).toBe(cards.url);
    expect(visit.heading).toBe('Main profile');
  });
});
