import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createUser } from '../../emulator/auth/users.js';
import { bootstrap } from '../../emulator/bootstrap.js';
import { openPglite, openPostgres, type Db } from '../../emulator/db/index.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { MIGRATIONS_DIR, applyMigrations } from '../../emulator/migrations.js';
import { person, rest, rpc, type Person } from '../support/cards.js';
import {
  DB_KINDS,
  TEST_RATE_LIMITS,
  createTestDatabase,
  type TestDatabase,
  overPostgres,
} from '../support/emulator.js';

// The migrations from the cards migration on, applied over the data of a deployment that had
// one card: that card becomes the card `main`, with its owners as its owners (members with the
// role owner); every entry, series, stop, profile, visit count and materialised occurrence is
// that card's; profile labels holding control characters keep their words; and what visitors
// and the owners are answered, now through the calls that name the card main, is what they
// were answered.

const OWNER = 'owner@migration.test';
/** The columns /go asks of its lookup. */
const ACTIVE = 'id,type,stamp_start,stamp_end,url';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The tables that gained a card, and how many rows each had before. */
const TABLES = [
  'public.namecard',
  'public.namecard_series',
  'public.namecard_series_stop',
  'public.namecard_profile',
  'public.namecard_visit',
  'private.namecard_occurrence',
  'private.namecard_series_window',
];

/** The migrations before the cards migration, copied to a folder of their own. */
async function migrationsBeforeCards(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'namecard-before-cards-'));
  for (const file of (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort()) {
    if (/_cards\.sql$/.test(file)) break;
    await copyFile(path.join(MIGRATIONS_DIR, file), path.join(dir, file));
  }
  return dir;
}

/**
 * Labels a deployment before cards could hold (its check asked for 1 to 60 characters, trimmed),
 * and what they are once the label check holds control characters out: each run of them a space,
 * the label trimmed, or the profile's name when nothing is left.
 */
const CONTROL_LABELS = [
  { name: 'bell', label: 'Ring\u0007the\u0007bell', cleaned: 'Ring the bell' },
  { name: 'colour', label: 'Red\u001b[31m text\u009b', cleaned: 'Red [31m text' },
  { name: 'blank', label: '\u0001\u0002', cleaned: 'blank' },
];

/** Today's data, as a deployment before cards holds it: written as its owner would have. */
async function fillOldDeployment(db: Db, now: number): Promise<void> {
  const user = await createUser(db, OWNER, `${OWNER}-password`);
  await db.query('insert into private.namecard_owner (user_id) values ($1)', [user.id]);
  await db.query(
    `insert into public.namecard_profile (name, label, url) values ('shop', 'Shop', 'https://shop.example/')`,
  );
  for (const { name, label } of CONTROL_LABELS) {
    await db.query(
      `insert into public.namecard_profile (name, label, url) values ($1, $2, 'https://card.example/')`,
      [name, label],
    );
  }
  await db.query(
    `insert into public.namecard (type, stamp_start, stamp_end, created_by) values
       ('main', null, $1, $4), ('photo', null, $2, $4), ('shop', $2, $3, $4), ('main', $3, $3 + 3600000, $4)`,
    [now - HOUR, now + HOUR, now + 2 * HOUR, user.id],
  );
  // A weekly series, every day far from now (so that its next start is the same before and
  // after), with one occurrence stopped by an `end`.
  const [series] = await db.query<{ id: number }>(
    `insert into public.namecard_series (type, weekdays, start_time, end_time, time_zone)
     values ('photo', '{1,2,3,4,5,6,7}',
       date_trunc('minute', now() at time zone 'UTC' + interval '12 hours')::time,
       date_trunc('minute', now() at time zone 'UTC' + interval '13 hours')::time, 'UTC')
     returning id`,
  );
  await db.query(
    `insert into public.namecard_series_stop (series_id, occurrence_start, stopped_at)
     select $1, o.stamp_start, o.stamp_start + 60000 from private.namecard_occurrence as o
     where o.series_id = $1 and o.stamp_start < $2 order by o.stamp_start desc limit 1`,
    [series!.id, now],
  );
  await db.query(`select public.namecard_count_visit('qr')`);
  await db.query(
    `insert into public.namecard_visit (bucket, type, via, visits, running) values (900000, 'main', 'nfc', 2, 2)`,
  );
}

/**
 * What a deployment before cards answers, read as the database's superuser: /go's lookup (the
 * view it read), the status (the view `status` read), the visits per day, the rows of each table.
 */
async function answersBefore(db: Db, dayStarts: number[]) {
  return {
    active: await db.query(
      'select id, type, stamp_start, stamp_end, url from public.namecard_active',
    ),
    status: await db.query(
      `select s.labels, s.url, s.series_ahead, ${TIMELINE} from public.namecard_status as s`,
    ),
    visits: await db.query(
      `select day, type, via, visits::int from public.namecard_visit_days(array[${dayStarts.join(',')}]::bigint[])`,
    ),
    rows: await Promise.all(
      TABLES.map(async (t) => (await db.query(`select count(*)::int as n from ${t}`))[0]),
    ),
  };
}

/** A status row's timeline without the first segment's start (the instant it was read). */
const TIMELINE = `(
  select jsonb_agg(t - 'from') from jsonb_array_elements(s.timeline) as t
) as timeline`;

describe.each(DB_KINDS)(
  'the cards migration over a deployment on %s',
  { timeout: 120_000 },
  (kind) => {
    let emulator: RunningEmulator;
    let database: TestDatabase | undefined;
    let dataDir: string | undefined;
    let before: Awaited<ReturnType<typeof answersBefore>>;
    let owner: Person;
    const now = Date.now();
    const dayStarts = [0, 2 * 900000, now - (now % 900000) + DAY];

    beforeAll(async () => {
      const dir = await migrationsBeforeCards();
      let db: Db;
      if (kind === 'pglite') {
        dataDir = await mkdtemp(path.join(tmpdir(), 'namecard-cards-data-'));
        db = await openPglite(dataDir);
      } else {
        database = await createTestDatabase();
        db = await openPostgres(database.url);
      }
      try {
        await bootstrap(db);
        await applyMigrations(db, dir);
        await fillOldDeployment(db, now);
        before = await answersBefore(db, dayStarts);
      } finally {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      }
      // The upgraded server: the emulator applies the migrations still to apply (the cards one).
      emulator = await startEmulator({
        port: 0,
        rateLimits: TEST_RATE_LIMITS,
        ...(database ? overPostgres(database.url) : { dataDir }),
      });
      owner = await person(emulator, OWNER, { existing: true });
    });
    afterAll(async () => {
      await emulator?.stop();
      await database?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    test("makes the one card the card main, its owners the card's owners, every row its own", async () => {
      expect(
        await emulator.query('select id, slug, name, removed_at from public.namecard_card'),
      ).toEqual([{ id: 1, slug: 'main', name: 'Main card', removed_at: null }]);
      expect(
        await emulator.query(
          `select m.card_id, u.email, m.role from private.namecard_member as m
         join auth.users as u on u.id = m.user_id`,
        ),
      ).toEqual([{ card_id: 1, email: OWNER, role: 'owner' }]);
      for (const [i, table] of TABLES.entries()) {
        const [counts] = await emulator.query<{ n: number; main: number }>(
          `select count(*)::int as n, count(*) filter (where card_id = 1)::int as main from ${table}`,
        );
        expect(before.rows[i], table).toEqual({ n: expect.any(Number) });
        expect((before.rows[i] as { n: number }).n, table).toBeGreaterThan(0);
        expect(counts, table).toEqual({
          n: (before.rows[i] as { n: number }).n,
          main: (before.rows[i] as { n: number }).n,
        });
      }
    });

    test('keeps the words of a label holding control characters, each run of them a space', async () => {
      expect(
        await emulator.query(
          `select name, label from public.namecard_profile where name = any ($1) order by name`,
          [CONTROL_LABELS.map((p) => p.name)],
        ),
      ).toEqual(
        CONTROL_LABELS.map(({ name, cleaned }) => ({ name, label: cleaned })).sort((a, b) =>
          a.name.localeCompare(b.name),
        ),
      );
    });

    test('answers what visitors and the owner were answered: a bare /go, the status, the visits', async () => {
      expect(before.active).toEqual([expect.objectContaining({ type: 'photo' })]);
      expect(before.visits).toEqual([
        { day: 1, type: 'main', via: 'nfc', visits: 2 },
        { day: 2, type: 'photo', via: 'qr', visits: 1 },
      ]);
      // Through the API, as /go reads it: a bare /go/ asks for the card main.
      expect(
        await rest(emulator, null, 'GET', `rpc/namecard_go?card=main&select=${ACTIVE}`),
      ).toEqual({ status: 200, body: before.active });
      expect(
        await emulator.query(
          `select s.labels, s.url, s.series_ahead, ${TIMELINE}
           from public.namecard_status('main') as s`,
        ),
      ).toEqual(before.status);
      const visits = await rpc(emulator, owner, 'namecard_visit_days', {
        day_starts: dayStarts,
        card: 'main',
      });
      expect(visits).toEqual({ status: 200, body: before.visits });
    });

    test("the card main's owner acts on it through the calls that name it", async () => {
      const cards = await rest(emulator, owner, 'GET', 'rpc/namecard_cards');
      expect(cards).toEqual({
        status: 200,
        body: [{ id: 1, slug: 'main', name: 'Main card', role: 'owner' }],
      });
      const profiles = await rest(
        emulator,
        owner,
        'GET',
        'namecard_profile?select=name&card_id=eq.1&name=in.(main,photo,shop)&order=name',
      );
      expect(profiles.body).toEqual([{ name: 'main' }, { name: 'photo' }, { name: 'shop' }]);
      const set = await rpc(emulator, owner, 'namecard_set', {
        type: 'shop',
        stamp_start: null,
        stamp_end: Date.now() + HOUR / 2,
        card: 'main',
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const entry = (set.body as { entry: { id: number; card_id: number } }).entry;
      expect(entry.card_id).toBe(1);
      expect(set.body).toMatchObject({ active: { id: entry.id, type: 'shop' } });
      const cancelled = await rpc(emulator, owner, 'namecard_cancel', {
        entry_id: entry.id,
        card: 'main',
      });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      const ended = await rpc(emulator, owner, 'namecard_end_now', { card: 'main' });
      expect(ended.status, JSON.stringify(ended.body)).toBe(200);
      expect(ended.body).toMatchObject({ active: null });
    });
  },
);
