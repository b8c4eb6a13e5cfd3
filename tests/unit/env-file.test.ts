import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadEnvFile } from '../../shared/core/env-file.js';
import { loadProjectEnv } from '../../cli/session/project-env.js';

// The `.env` loader that `npm start`, `npm run build:site` and the CLI use.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'namecard-env-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ENV_TEXT = [
  '# comment',
  'SUPABASE_URL=https://ref.supabase.co',
  'NAMECARD_MAIN_URL="https://me.example/"  # trailing comment',
  'NAMECARD_PHOTO_PATH=',
  'NODE_OPTIONS=--inspect',
  '',
].join('\n');

describe('loadEnvFile', () => {
  it('sets the names the environment lacks, with quotes and comments handled', async () => {
    const file = path.join(dir, '.env');
    await writeFile(file, ENV_TEXT);
    const env: NodeJS.ProcessEnv = {};
    expect(loadEnvFile(file, env).sort()).toEqual([
      'NAMECARD_MAIN_URL',
      'NAMECARD_PHOTO_PATH',
      'NODE_OPTIONS',
      'SUPABASE_URL',
    ]);
    expect(env).toEqual({
      SUPABASE_URL: 'https://ref.supabase.co',
      NAMECARD_MAIN_URL: 'https://me.example/',
      NAMECARD_PHOTO_PATH: '',
      NODE_OPTIONS: '--inspect',
    });
  });

  it('lets the environment win, even an empty value', async () => {
    const file = path.join(dir, '.env');
    await writeFile(file, ENV_TEXT);
    const env: NodeJS.ProcessEnv = { SUPABASE_URL: 'http://127.0.0.1:9999', NAMECARD_MAIN_URL: '' };
    loadEnvFile(file, env);
    expect(env.SUPABASE_URL).toBe('http://127.0.0.1:9999');
    expect(env.NAMECARD_MAIN_URL).toBe('');
  });

  it('takes only the given names when asked to', async () => {
    const file = path.join(dir, '.env');
    await writeFile(file, ENV_TEXT);
    const env: NodeJS.ProcessEnv = {};
    expect(loadEnvFile(file, env, ['SUPABASE_URL'])).toEqual(['SUPABASE_URL']);
    expect(env).toEqual({ SUPABASE_URL: 'https://ref.supabase.co' });
  });

  it('sets nothing without a file, and names an unreadable one', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(loadEnvFile(path.join(dir, '.env'), env)).toEqual([]);
    expect(env).toEqual({});
    expect(() => loadEnvFile(dir, env)).toThrow(`Cannot read ${dir}`);
  });
});

describe('loadProjectEnv (the CLI)', () => {
  it("reads `.env` in a namecard checkout's root, only the settings the CLI knows", async () => {
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'namecard' }));
    // Credentials and the session's folder come from the environment only: a cloned checkout's
    // `.env` may not sign in as someone nor move where the session is kept.
    await writeFile(
      path.join(dir, '.env'),
      `${ENV_TEXT}NAMECARD_EMAIL=me@example.com\nNAMECARD_PASSWORD=pw\nNAMECARD_CONFIG_DIR=/tmp/x\n`,
    );
    const env: NodeJS.ProcessEnv = {};
    loadProjectEnv(dir, env);
    expect(env).toEqual({
      SUPABASE_URL: 'https://ref.supabase.co',
      NAMECARD_MAIN_URL: 'https://me.example/',
      NAMECARD_PHOTO_PATH: '',
    });
  });

  it("ignores `.env` in another project's folder or a folder without package.json", async () => {
    await writeFile(path.join(dir, '.env'), ENV_TEXT);
    const env: NodeJS.ProcessEnv = {};
    expect(loadProjectEnv(dir, env)).toEqual([]);
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'other-app' }));
    expect(loadProjectEnv(dir, env)).toEqual([]);
    expect(env).toEqual({});
  });
});
