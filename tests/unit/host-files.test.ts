import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../scripts/site-build.js';
import { SCHEMA_VERSION } from '../../shared/core/schema-version.js';

/** `_headers` as Netlify and Cloudflare Pages read it: each path with its `Name: value` lines. */
function parseHeaders(text: string): Map<string, Map<string, string>> {
  const rules = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      expect(rules.has(line), `${line} is listed twice (hosts would join its values)`).toBe(false);
      rules.set(line, (current = new Map()));
      continue;
    }
    const [, name = '', value = ''] = /^\s+([^:]+):\s*(.*)$/.exec(line) ?? [];
    current!.set(name, value);
  }
  return rules;
}

describe('the build for a static host, under the base path /card/', { timeout: 120_000 }, () => {
  let outDir: string;
  const env = {
    SUPABASE_URL: 'https://abcd.supabase.co',
    SUPABASE_ANON_KEY: 'sb_publishable_hostfiles_test',
    NAMECARD_MAIN_URL: 'https://me.example/',
    NAMECARD_PHOTO_PATH: '#photo',
    NAMECARD_SITE_URL: 'https://me.example/card/',
    NAMECARD_BASE_PATH: '/card/',
  };

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'namecard-hostfiles-'));
    await buildSite(env, outDir);
  });
  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('emits _headers that keep /login/ and /manage/ out of frames and cache hashed assets for good', async () => {
    const rules = parseHeaders(await readFile(join(outDir, '_headers'), 'utf8'));
    for (const path of [
      '/card/login/',
      '/card/login/index.html',
      '/card/manage/',
      '/card/manage/index.html',
    ]) {
      expect(rules.get(path)?.get('Content-Security-Policy'), path).toBe("frame-ancestors 'none'");
      expect(rules.get(path)?.get('X-Frame-Options'), path).toBe('DENY');
      expect(rules.get(path)?.get('Cache-Control'), path).toBe('no-cache');
    }
    for (const path of ['/card/go/', '/card/', '/card/404.html', '/card/namecard.json']) {
      expect(rules.get(path)?.get('X-Frame-Options'), path).toBeUndefined();
      expect(rules.get(path)?.get('Cache-Control'), path).toBe('no-cache');
    }
    expect(rules.get('/card/assets/*')?.get('Cache-Control')).toBe(
      'public, max-age=31536000, immutable',
    );
    // Nothing outside the base path: the site's own pages live only under it.
    expect([...rules.keys()].filter((p) => !p.startsWith('/card/'))).toEqual([]);
  });

  it('publishes the public settings it was built with, and the schema version it needs', async () => {
    const published = JSON.parse(await readFile(join(outDir, 'namecard.json'), 'utf8')) as unknown;
    expect(published).toEqual({
      supabaseUrl: 'https://abcd.supabase.co',
      allowedOrigins: ['https://me.example'],
      anonKey: 'sb_publishable_hostfiles_test',
      mainUrl: 'https://me.example/',
      photoPath: '#photo',
      siteUrl: 'https://me.example/card/',
      basePath: '/card/',
      schemaVersion: SCHEMA_VERSION,
    });
  });
});
