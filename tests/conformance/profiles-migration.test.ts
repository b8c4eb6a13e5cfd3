import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bootstrap } from '../../emulator/bootstrap.js';
import { openPglite, openPostgres, type Db } from '../../emulator/db/index.js';
import { MIGRATIONS_DIR, applyMigrations } from '../../emulator/migrations.js';
import { DB_KINDS, createTestDatabase, type TestDatabase } from '../support/emulator.js';

// The profiles migration applied on top of a deployment's data: old entries and visit counts
// keep their meaning (main and photo become rows of the profiles table whose destination
// still follows the build), and /go's lookup answers the entry in force as before, with no
// destination of its own (null: the build's settings).

const PROFILES = '20261124000000_profiles.sql';

describe.each(DB_KINDS)(
  'the profiles migration over existing data on %s',
  { timeout: 60_000 },
  (kind) => {
    let db: Db;
    let database: TestDatabase | undefined;
    let before: string;

    beforeAll(async () => {
      before = await mkdtemp(path.join(tmpdir(), 'namecard-migrations-'));
      for (const file of (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort()) {
        if (file >= PROFILES) break;
        await copyFile(path.join(MIGRATIONS_DIR, file), path.join(before, file));
      }
      if (kind === 'pglite') {
        db = await openPglite();
      } else {
        database = await createTestDatabase();
        db = await openPostgres(database.url);
      }
      await bootstrap(db);
      await applyMigrations(db, before);
    });
    afterAll(async () => {
      await db?.close();
      await database?.drop();
      await rm(before, { recursive: true, force: true });
    });

    test('old entries and counts keep their type; main and photo follow the build; /go answers the entry in force', async () => {
      const now = Date.now();
      await db.query(
        `insert into public.namecard (type, stamp_start, stamp_end) values
         ('main', null, $1), ('photo', null, $2)`,
        [now - 3_600_000, now + 3_600_000],
      );
      await db.query(
        `insert into public.namecard_visit (bucket, type, via, visits, running) values
         (900000, 'photo', 'qr', 3, 3), (900000, 'main', 'nfc', 1, 1)`,
      );
      expect((await applyMigrations(db)).map((m) => m.name)).toContain('profiles');

      expect(await db.query('select type from public.namecard order by id')).toEqual([
        { type: 'main' },
        { type: 'photo' },
      ]);
      expect(
        await db.query('select type, via, visits::int from public.namecard_visit order by type'),
      ).toEqual([
        { type: 'main', via: 'nfc', visits: 1 },
        { type: 'photo', via: 'qr', visits: 3 },
      ]);
      expect(
        await db.query(
          'select name, label, url, removed_at from public.namecard_profile order by name',
        ),
      ).toEqual([
        { name: 'main', label: 'Main Profile', url: null, removed_at: null },
        { name: 'photo', label: 'Photographer', url: null, removed_at: null },
      ]);
      expect(await db.query('select type, url from public.namecard_active')).toEqual([
        { type: 'photo', url: null },
      ]);
      expect(
        await db.query(
          `select day, type, via, visits::int from public.namecard_visit_days(array[0, 86400000]::bigint[])`,
        ),
      ).toEqual([
        { day: 1, type: 'main', via: 'nfc', visits: 1 },
        { day: 1, type: 'photo', via: 'qr', visits: 3 },
      ]);
    });
  },
);
