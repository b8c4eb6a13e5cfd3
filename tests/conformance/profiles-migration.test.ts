import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createUser } from '../../emulator/auth/users.js';
import { bootstrap } from '../../emulator/bootstrap.js';
import { openPglite, openPostgres, type Db } from '../../emulator/db/index.js';
import { MIGRATIONS_DIR, applyMigrations } from '../../emulator/migrations.js';
import { addOwner } from '../../emulator/owners.js';
import { DB_KINDS, createTestDatabase, type TestDatabase } from '../support/emulator.js';

// The profiles migration and every one after it applied on top of a deployment's data: old
// entries and visit counts keep their meaning (main and photo become rows of the card main's
// profiles whose destination still follows the build), and /go's lookup of the card main (a
// bare /go/) answers the entry in force, with no destination of its own (null: the build's
// settings).

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

      const ofCard = 'join public.namecard_card as c on c.id = t.card_id';
      expect(
        await db.query(`select t.type, c.slug from public.namecard as t ${ofCard} order by t.id`),
      ).toEqual([
        { type: 'main', slug: 'main' },
        { type: 'photo', slug: 'main' },
      ]);
      expect(
        await db.query(
          `select t.type, t.via, t.visits::int, c.slug
           from public.namecard_visit as t ${ofCard} order by t.type`,
        ),
      ).toEqual([
        { type: 'main', via: 'nfc', visits: 1, slug: 'main' },
        { type: 'photo', via: 'qr', visits: 3, slug: 'main' },
      ]);
      expect(
        await db.query(
          `select p.name, p.label, p.url, p.removed_at
         from public.namecard_profile as p join public.namecard_card as c on c.id = p.card_id
         where c.slug = 'main' order by p.name`,
        ),
      ).toEqual([
        { name: 'main', label: 'Main Profile', url: null, removed_at: null },
        { name: 'photo', label: 'Photographer', url: null, removed_at: null },
      ]);
      expect(await db.query(`select type, url from public.namecard_go('main')`)).toEqual([
        { type: 'photo', url: null },
      ]);
      // The counts as the card main's owner reads them, signed in as PostgREST runs a request.
      const user = await createUser(db, 'owner@profiles-migration.test', 'owner-password-1');
      await addOwner(db, user.id);
      const days = await db.transaction(async (tx) => {
        await tx.query(
          `select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`,
          [JSON.stringify({ sub: user.id, role: 'authenticated' })],
        );
        return tx.query(
          `select day, type, via, visits::int
           from public.namecard_visit_days(array[0, 86400000]::bigint[], 'main')`,
        );
      });
      expect(days).toEqual([
        { day: 1, type: 'main', via: 'nfc', visits: 1 },
        { day: 1, type: 'photo', via: 'qr', visits: 3 },
      ]);
    });
  },
);
