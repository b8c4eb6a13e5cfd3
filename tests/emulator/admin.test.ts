import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { createTestClient } from '../support/supabase.js';
import { runTsx } from './run-tsx.js';

// Each run starts a process that opens PGlite from disk: slow on a busy machine.
describe('npm run emulator:admin', { timeout: 180_000 }, () => {
  let dir: string;
  const admin = (args: string[], input?: string) =>
    runTsx('emulator/admin.ts', [...args, '--data-dir', dir], {
      env: { DATABASE_URL: undefined },
      ...(input !== undefined ? { input } : {}),
    });

  beforeEach(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'namecard-admin-')), 'db');
  });
  afterEach(async () => {
    await rm(path.dirname(dir), { recursive: true, force: true, maxRetries: 5 });
  });

  it('adds an owner of the card main whose password comes from stdin, never echoing it; the owner can then set it', async () => {
    const added = await admin(
      ['add-user', 'Owner@Example.com', '--owner', '--password-stdin'],
      'owner-password-1\n',
    );
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toMatch(/^created user owner@example\.com \([0-9a-f-]{36}\) as an owner$/);
    expect(added.stdout + added.stderr).not.toContain('owner-password-1');

    const emulator = await startEmulator({ port: 0, dataDir: dir });
    try {
      const supabase = createTestClient(emulator.url, emulator.anonKey);
      const signIn = await supabase.auth.signInWithPassword({
        email: 'owner@example.com',
        password: 'owner-password-1',
      });
      expect(signIn.error).toBeNull();
      const set = await supabase.rpc('namecard_set', {
        type: 'main',
        stamp_start: null,
        stamp_end: Date.now() + 60_000,
        card: MAIN_CARD,
      });
      expect(set.error).toBeNull();
      expect(set.status).toBe(200);
    } finally {
      await emulator.stop();
    }
  });

  it('add-owner promotes an existing user; list-users shows owners and never a password hash', async () => {
    expect(
      (await admin(['add-user', 'a@example.com', '--password-stdin'], 'pw-a-123')).exitCode,
    ).toBe(0);
    expect(
      (await admin(['add-user', 'b@example.com', '--password-stdin'], 'pw-b-123')).exitCode,
    ).toBe(0);
    const promoted = await admin(['add-owner', 'b@example.com']);
    expect(promoted.exitCode).toBe(0);
    expect(promoted.stdout).toMatch(/^b@example\.com \([0-9a-f-]{36}\) is an owner$/);

    const listed = await admin(['list-users']);
    expect(listed.exitCode).toBe(0);
    const lines = listed.stdout.split('\n');
    expect(lines[0]).toMatch(/^id\s+email\s+owner\s+created_at\s+last_sign_in_at$/);
    expect(lines.find((l) => l.includes('a@example.com'))).toMatch(/a@example\.com\s+-\s/);
    expect(lines.find((l) => l.includes('b@example.com'))).toMatch(/b@example\.com\s+owner\s/);
    expect(listed.stdout).not.toMatch(/\$2[aby]\$/);
    expect(listed.stdout).not.toContain('encrypted_password');
  });

  it('fails with exit 1 for a duplicate user or an unknown owner', async () => {
    expect(
      (await admin(['add-user', 'a@example.com', '--password-stdin'], 'pw-a-123')).exitCode,
    ).toBe(0);
    const duplicate = await admin(['add-user', 'A@example.com', '--password-stdin'], 'pw-a-456');
    expect(duplicate.exitCode).toBe(1);
    expect(duplicate.stderr).toContain('a user with email `a@example.com` already exists');
    const unknown = await admin(['add-owner', 'nobody@example.com']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('no user with email `nobody@example.com`');
  });

  it('exits 2 for usage errors, and without a terminal asks for --password-stdin', async () => {
    expect((await admin(['frobnicate'])).exitCode).toBe(2);
    expect((await admin(['add-owner'])).stderr).toContain('`add-owner` needs an <email>');
    const noTty = await admin(['add-user', 'c@example.com']);
    expect(noTty.exitCode).toBe(2);
    expect(noTty.stderr).toContain('pass --password-stdin');
  });
});
