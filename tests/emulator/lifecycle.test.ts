import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.js';
import { MIGRATIONS_DIR } from '../../emulator/migrations.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { GO_FUNCTION, lookupUrl } from '../../shared/core/lookup.js';
import {
  DB_KINDS,
  createTestDatabase,
  startTestEmulator,
  overPostgres,
} from '../support/emulator.js';
import { insertEntry } from '../support/entries.js';
import { createTestClient } from '../support/supabase.js';
import { runTsx } from './run-tsx.js';
import { OWNER } from '../support/accounts.js';

const migrationVersions = async () =>
  (await readdir(MIGRATIONS_DIR))
    .filter((f) => f.endsWith('.sql'))
    .map((f) => f.split('_')[0])
    .sort();

describe('emulator lifecycle', { timeout: 120_000 }, () => {
  it('keeps users and entries in a PGlite data directory across restarts and applies each migration once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'namecard-data-'));
    try {
      const first = await startEmulator({ port: 0, dataDir: dir, owner: OWNER });
      await insertEntry(first, 'photo', null, 42);
      await first.stop();

      const second = await startEmulator({ port: 0, dataDir: dir, owner: OWNER });
      try {
        expect(await second.query('select stamp_end, type from public.namecard')).toEqual([
          { stamp_end: 42, type: 'photo' },
        ]);
        const applied = await second.query<{ version: string }>(
          'select version from supabase_migrations.schema_migrations order by version',
        );
        expect(applied.map((r) => r.version)).toEqual(await migrationVersions());
        const signIn = await createTestClient(second.url, second.anonKey).auth.signInWithPassword(
          OWNER,
        );
        expect(signIn.error).toBeNull();
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });

  it('restarting with a new owner password replaces the old one', async () => {
    const database = await createTestDatabase();
    try {
      await (await startEmulator({ port: 0, ...overPostgres(database.url), owner: OWNER })).stop();
      const again = await startEmulator({
        port: 0,
        ...overPostgres(database.url),
        owner: { ...OWNER, password: 'changed-password-2' },
      });
      try {
        const client = () => createTestClient(again.url, again.anonKey).auth;
        expect((await client().signInWithPassword(OWNER)).error?.code).toBe('invalid_credentials');
        expect(
          (await client().signInWithPassword({ ...OWNER, password: 'changed-password-2' })).error,
        ).toBeNull();
        const applied = await again.query(
          'select version from supabase_migrations.schema_migrations',
        );
        expect(applied).toHaveLength((await migrationVersions()).length);
      } finally {
        await again.stop();
      }
    } finally {
      await database.drop();
    }
  });

  it('starts several emulators on one PostgreSQL server at once (roles are shared by the cluster)', async () => {
    const emulators = await Promise.all([1, 2, 3].map(() => startTestEmulator('postgres')));
    try {
      for (const e of emulators) {
        expect(
          (await fetch(`${e.url}/auth/v1/settings`, { headers: { apikey: e.anonKey } })).status,
        ).toBe(200);
      }
    } finally {
      await Promise.all(emulators.map((e) => e.stop()));
    }
  });

  it('stop() closes the port and may be called twice', async () => {
    const emulator = await startEmulator({ port: 0 });
    await emulator.stop();
    await emulator.stop();
    await expect(fetch(`${emulator.url}/auth/v1/settings`)).rejects.toThrow();
  });

  it('rejects a bad option by name before opening anything', async () => {
    await expect(startEmulator({ port: 70000 })).rejects.toThrow(
      '`port` must be an integer from 0 to 65535, got `70000`',
    );
    await expect(startEmulator({ refreshTokenReuseInterval: -1 })).rejects.toThrow(
      '`refreshTokenReuseInterval`',
    );
  });
});

describe.each(DB_KINDS)('50 concurrent clients over %s', { timeout: 120_000 }, (kind) => {
  it('answers every lookup, set and sign-in correctly', async () => {
    const emulator = await startTestEmulator(kind, { owner: OWNER });
    try {
      const owner = createTestClient(emulator.url, emulator.anonKey);
      expect((await owner.auth.signInWithPassword(OWNER)).error).toBeNull();
      const now = Date.now();
      // The product's lookup: one GET of the card main's, the anon key in the query, no headers.
      const lookups = Array.from({ length: 50 }, () =>
        fetch(lookupUrl(emulator.url, emulator.anonKey, GO_FUNCTION, MAIN_CARD)).then(
          (r) => r.status,
        ),
      );
      const inserts = Array.from({ length: 20 }, (_, i) =>
        owner
          .rpc('namecard_set', {
            type: 'main',
            stamp_start: null,
            stamp_end: now + 60_000 + i,
            card: MAIN_CARD,
          })
          .then((r) => r.status),
      );
      const signIns = Array.from({ length: 5 }, () =>
        createTestClient(emulator.url, emulator.anonKey)
          .auth.signInWithPassword(OWNER)
          .then((r) => r.error),
      );
      const [lookupStatuses, insertStatuses, signInErrors] = await Promise.all([
        Promise.all(lookups),
        Promise.all(inserts),
        Promise.all(signIns),
      ]);
      expect(lookupStatuses).toEqual(Array(50).fill(200));
      expect(insertStatuses).toEqual(Array(20).fill(200));
      expect(signInErrors).toEqual(Array(5).fill(null));
      expect(await emulator.query('select count(*)::int as n from public.namecard')).toEqual([
        { n: 20 },
      ]);
    } finally {
      await emulator.stop();
    }
  });
});

describe('PGlite data directory lock', { timeout: 120_000 }, () => {
  it('refuses a second process on a data directory in use, naming the holder', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'namecard-lock-'));
    const emulator = await startEmulator({ port: 0, dataDir: dir });
    try {
      const admin = await runTsx('emulator/admin.ts', ['list-users', '--data-dir', dir], {
        env: { DATABASE_URL: undefined },
      });
      expect(admin.exitCode).toBe(1);
      expect(admin.stderr).toContain(
        `is in use by process ${process.pid} (stop the emulator first)`,
      );
    } finally {
      await emulator.stop();
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
