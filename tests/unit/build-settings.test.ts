import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { siteConfigFrom } from '../../site/build/build-config.js';

// `npm run build:site` with a bad setting, run as npm runs it (the package's script, with its
// node_modules/.bin first on PATH): one `error:` line naming the setting and exit 1, no stack
// trace and nothing built (a refused setting stops it before Vite starts).

const ROOT = path.resolve(import.meta.dirname, '../..');

async function buildSite(env: Record<string, string>) {
  const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return execa(pkg.scripts['build:site']!, {
    shell: true,
    cwd: ROOT,
    reject: false,
    extendEnv: false,
    env: {
      PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}`,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      ...env,
    },
  });
}

describe('npm run build:site with a bad setting', () => {
  it.each([
    [
      { NAMECARD_MAIN_URL: 'me.example' },
      'error: `NAMECARD_MAIN_URL` must be an http(s) URL such as https://me.example/, got `me.example`',
    ],
    [
      { SUPABASE_URL: 'https://project-ref.supabase.co', SUPABASE_ANON_KEY: '' },
      "error: `SUPABASE_ANON_KEY` is not set, and `SUPABASE_URL` https://project-ref.supabase.co is not on this machine: set it to that project's anon or publishable key (Project Settings, API Keys); the local emulator's demo key is used only for an API on 127.0.0.1 or localhost",
    ],
    [
      { NAMECARD_SITE_URL: 'https://me.github.io/namecard/', NAMECARD_BASE_PATH: '/' },
      "error: `NAMECARD_BASE_PATH` is /, but `NAMECARD_SITE_URL` https://me.github.io/namecard/ is under /namecard/: the pages would load their scripts from the host's /assets/, not from /namecard/assets/. Set NAMECARD_BASE_PATH=/namecard/, or leave it unset to take the site URL's path",
    ],
  ])('%j: one line naming it, exit 1, no stack trace', async (env, line) => {
    const result = await buildSite(env);
    expect(result.stderr.trim()).toBe(line);
    expect(result.exitCode).toBe(1);
  });
});

describe('the settings the site is built with', () => {
  it('take the base path from NAMECARD_SITE_URL (GitHub Pages) when NAMECARD_BASE_PATH is unset', () => {
    expect(
      siteConfigFrom({
        NAMECARD_SITE_URL: 'https://me.github.io/namecard/',
        NAMECARD_BASE_PATH: '',
      }).basePath,
    ).toBe('/namecard/');
  });
});
