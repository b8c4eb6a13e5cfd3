import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.js';
import { runTsx, startMain } from '../emulator/run-tsx.js';
import { createTestClient } from '../support/supabase.js';
import { MAIN_CARD_SQL } from '../support/emulator.js';

// The emulator's data (PGlite's folder, which holds password hashes and refresh tokens)
// is for its owner only: folders 0700, files 0600, whatever the umask. emulator:admin and
// `npm run emulator --data-dir` create a folder that does not exist yet, parents included.

/** Every entry under `dir` (itself included) whose mode is not 0700 (folders) / 0600 (files). */
async function widerThanOwner(dir: string): Promise<string[]> {
  const wrong: string[] = [];
  const walk = async (at: string) => {
    const info = await lstat(at);
    const mode = info.mode & 0o777;
    if (info.isDirectory()) {
      if (mode !== 0o700) wrong.push(`${at} ${mode.toString(8)}`);
      for (const name of await readdir(at)) await walk(path.join(at, name));
    } else if (mode !== 0o600) {
      wrong.push(`${at} ${mode.toString(8)}`);
    }
  };
  await walk(dir);
  return wrong;
}

async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.length;
}

describe('emulator data files', { timeout: 180_000 }, () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'namecard-files-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
  });

  it('are owner-only (0700 folders, 0600 files) after a start and a stop under umask 022', async () => {
    const dataDir = path.join(root, 'fresh', 'nested', 'emulator');
    const previous = process.umask(0o022);
    try {
      const emulator = await startEmulator({ port: 0, dataDir });
      try {
        await emulator.query(
          `insert into public.namecard (card_id, stamp_end, type) values (${MAIN_CARD_SQL}, 42, 'photo')`,
        );
        expect(await countFiles(dataDir)).toBeGreaterThan(100);
        expect(await widerThanOwner(dataDir)).toEqual([]);
      } finally {
        await emulator.stop();
      }
      expect(await widerThanOwner(dataDir)).toEqual([]);
      // The missing parents were created owner-only too.
      expect((await lstat(path.join(root, 'fresh'))).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it('`emulator:admin add-user` works on a folder whose parents do not exist yet, and leaves it owner-only', async () => {
    const dataDir = path.join(root, '.namecard', 'emulator');
    const added = await runTsx(
      'emulator/admin.ts',
      ['add-user', 'owner@files.test', '--owner', '--password-stdin', '--data-dir', dataDir],
      { env: { DATABASE_URL: undefined }, input: 'owner-password-1\n' },
    );
    expect(added.stderr).toBe('');
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toMatch(/^created user owner@files\.test \([0-9a-f-]{36}\) as an owner$/);
    expect(await widerThanOwner(path.join(root, '.namecard'))).toEqual([]);
  });

  it('`npm run emulator -- --data-dir <dir>` keeps its data there, owner-only, across restarts', async () => {
    const dataDir = path.join(root, 'a', 'b');
    const env = {
      NAMECARD_OWNER_EMAIL: 'owner@files.test',
      NAMECARD_OWNER_PASSWORD: 'owner-password-1',
    };
    const first = await startMain(['--data-dir', dataDir, '--port', '0', '--quiet'], env);
    expect(first.output()).toContain(`PGlite in ${dataDir}/`);
    first.child.kill('SIGTERM');
    expect((await first.child).exitCode).toBe(0);
    expect(await countFiles(dataDir)).toBeGreaterThan(100);
    expect(await widerThanOwner(path.join(root, 'a'))).toEqual([]);

    // The owner made by the first start is found by a start without the owner variables.
    const second = await startMain(['--data-dir', dataDir, '--port', '0', '--quiet']);
    try {
      const anonKey = /anon key: (\S+)/.exec(second.output())![1]!;
      const signIn = await createTestClient(second.url, anonKey).auth.signInWithPassword({
        email: env.NAMECARD_OWNER_EMAIL,
        password: env.NAMECARD_OWNER_PASSWORD,
      });
      expect(signIn.error).toBeNull();
    } finally {
      second.child.kill('SIGTERM');
      expect((await second.child).exitCode).toBe(0);
    }
  });

  it('`npm run emulator` refuses --data-dir together with --memory (exit 2)', async () => {
    const result = await runTsx('emulator/main.ts', ['--memory', '--data-dir', root], {
      env: { DATABASE_URL: undefined },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('use either `--memory` or `--data-dir`, not both');
  });
});
