import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// The site is built by `vite build` from the environment (npm run build:site), in CI or on a
// machine where secrets are set too. Only the public settings may reach the static files: a
// build with a service-role key, a database password, the owner's password and the like in its
// environment must leave no trace of them.

const PUBLIC = {
  SUPABASE_URL: 'https://public-project-ref.supabase.example',
  SUPABASE_ANON_KEY:
    'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiIsInB1YmxpYyI6MX0.cHVibGljLWFub24tc2lnbmF0dXJl',
  NAMECARD_MAIN_URL: 'https://card.example/public-main/',
  NAMECARD_PHOTO_PATH: 'public-photo',
  NAMECARD_SITE_URL: 'https://public-site-host.example/public-site/',
};

/** Each value is unique, so finding it anywhere in the output means it leaked. */
const SECRETS: Record<string, string> = {
  SUPABASE_SERVICE_ROLE_KEY:
    'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.leak-canary-service-role-signature',
  SUPABASE_SECRET_KEY: 'sb_secret_leakCanarySecretKey0123456789',
  SUPABASE_JWT_SECRET: 'leak-canary-jwt-secret-with-at-least-32-characters',
  DATABASE_URL: 'postgresql://postgres:leak-canary-db-password@db.internal.example:5432/postgres',
  SUPABASE_DB_PASSWORD: 'leak-canary-supabase-db-password',
  NAMECARD_OWNER_PASSWORD: 'leak-canary-owner-password',
  NAMECARD_PASSWORD: 'leak-canary-cli-password',
  NAMECARD_REFRESH_TOKEN: 'leakcanaryrt',
  // Vite's default public prefix: a default Vite config would put these in the bundle.
  VITE_SUPABASE_SERVICE_ROLE_KEY: 'leak-canary-vite-prefixed-service-role',
  VITE_SECRET: 'leak-canary-vite-secret',
  // The site config's own (unused) prefix.
  NAMECARD_SITE_EXPOSES_NO_ENV_SECRET: 'leak-canary-site-prefix',
  GITHUB_TOKEN: 'ghp_leakCanaryGithubToken0123456789',
  NPM_TOKEN: 'npm_leakCanaryNpmToken0123456789',
  AWS_SECRET_ACCESS_KEY: 'leak-canary-aws-secret-access-key',
};

const root = new URL('../../', import.meta.url).pathname;

describe('`vite build` with secrets in the environment', () => {
  let outDir: string;
  let files: { name: string; text: string }[];

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'namecard-secrets-'));
    // The command behind `npm run build:site` (`vite build`), into a folder of our own. Vite's
    // own bin on this Node, not npx: under `npx -c` (CI's Node 24 run) a nested npx would
    // inherit npm's settings from the environment.
    await execa(
      process.execPath,
      [
        join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'site/vite.config.ts',
        '--outDir',
        outDir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      { cwd: root, env: { ...PUBLIC, ...SECRETS, NODE_ENV: 'production' } },
    );
    const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
    files = await Promise.all(
      entries
        .filter((e) => e.isFile())
        .map(async (e) => ({
          name: join(e.parentPath, e.name).slice(outDir.length + 1),
          text: (await readFile(join(e.parentPath, e.name))).toString('latin1'),
        })),
    );
  }, 120_000);
  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  test('the build contains the public settings (the scan reads what was built)', () => {
    const all = files.map((f) => f.text).join('\n');
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['go/index.html']));
    for (const value of Object.values(PUBLIC)) expect(all).toContain(value);
  });

  test.each(Object.keys(SECRETS))('no trace of %s in any built file', (name) => {
    const value = SECRETS[name]!;
    // Raw, and in the forms a bundler could write it: JSON-escaped, URL-encoded, base64.
    const forms = [
      value,
      JSON.stringify(value).slice(1, -1),
      encodeURIComponent(value),
      Buffer.from(value).toString('base64'),
    ];
    for (const file of files) {
      for (const form of forms) expect(file.text, `${file.name}`).not.toContain(form);
      expect(file.text, file.name).not.toContain(name);
    }
  });

  // namecard.json publishes where the site is hosted (the site's own address, for
  // `namecard doctor`); no page or script holds it but /manage's card link. (Its path is the
  // base path every page loads its files from, so the address is looked for by its host.)
  test('the site URL is embedded only as the card link, on /manage, and published in namecard.json', () => {
    const uses = files.flatMap((f) =>
      [...f.text.matchAll(/public-site-host\.example[^`"'\s]*/g)].map((m) => `${f.name}: ${m[0]}`),
    );
    expect(uses.sort()).toEqual([
      // /manage's card link, in the chunk the page loads after its first draw.
      expect.stringMatching(
        /^assets\/CardLink-[^:]*: public-site-host\.example\/public-site\/go\/$/,
      ),
      expect.stringMatching(/^namecard\.json: public-site-host\.example\/public-site\/$/),
    ]);
  });

  // The allowed origins are public too: /go follows a destination only on one of them.
  test('the embedded site config holds the six public settings and nothing else', () => {
    const configs = files.flatMap((f) => [...f.text.matchAll(/\{supabaseUrl:[`"][^}]*\}/g)]);
    expect(configs.length).toBeGreaterThan(0);
    for (const [config] of configs) {
      const keys = [...config.matchAll(/[{,](\w+):/g)].map((m) => m[1]);
      expect(keys.sort()).toEqual([
        'allowedOrigins',
        'anonKey',
        'basePath',
        'mainUrl',
        'photoPath',
        'supabaseUrl',
      ]);
    }
  });
});
