import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { ACTIVE_VIEW, STATUS_VIEW, viewUrl } from '../../shared/core/lookup.js';
import {
  DB_KINDS,
  createTestDatabase,
  type TestDatabase,
  overPostgres,
  MAIN_CARD_SQL,
} from '../support/emulator.js';

const ROWS = 1_000_000;
const FUTURE = 100_000;
const MINUTE = 60_000;
// The query PostgREST runs for the product's lookup, reduced to its core.
const LOOKUP = `select id, type, stamp_start, stamp_end from public.namecard_go('main')`;
const INDEX = 'namecard_active_range_idx';
// A stabbing query on the GiST index reads the paths whose bounding ranges contain now: one
// page to about a hundred, depending on how the index split (entries without a start are
// unbounded below, so a page mixing ended and future entries covers now). Walking the
// primary key backwards past the 10^5 future entries instead reads about a thousand pages.
const MAX_BLOCKS = 150;
// The timeline's walk: 24 segments, each a stab of both partial indexes and a read of the
// start index.
const MAX_STATUS_BLOCKS = 24 * MAX_BLOCKS;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
const indexesUsed = (plan: PlanNode) =>
  nodes(plan).flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));
const blocks = (plan: PlanNode) =>
  (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);

// The view namecard_active must stay cheap at 10^6 rows, 10^5 of them not started yet
// (newer than every ended entry, so walking the primary key backwards would read them all),
// both with nothing active and with a few active entries.
describe.each(DB_KINDS)(
  'namecard_active at 10^6 rows (10^5 not started) over %s',
  { timeout: 300_000 },
  (kind) => {
    let emulator: RunningEmulator;
    let database: TestDatabase | undefined;
    const now = Date.now();

    /** EXPLAIN (ANALYZE, BUFFERS) of the view's lookup, run as `anon` so RLS and grants apply. */
    const explainAsAnon = async (): Promise<PlanNode> => {
      const [row] = await emulator.query<{ plan: [{ Plan: PlanNode }] }>(
        'select public.test_explain_as_anon($1) as plan',
        [LOOKUP],
      );
      return row!.plan[0].Plan;
    };
    const lookup = async () => {
      const res = await fetch(viewUrl(emulator.url, emulator.anonKey, ACTIVE_VIEW));
      expect(res.status).toBe(200);
      return res.json();
    };

    beforeAll(async () => {
      if (kind === 'postgres') database = await createTestDatabase();
      emulator = await startEmulator({
        port: 0,
        ...(database ? overPostgres(database.url) : {}),
      });
      // Loading 10^6 rows into the indexes one by one takes minutes on PGlite: drop the
      // table's secondary indexes and create them again afterwards from their own definitions.
      const indexes = await emulator.query<{ indexdef: string; indexname: string }>(
        `select indexname, indexdef from pg_indexes where schemaname = 'public'
         and tablename = 'namecard' and indexname <> 'namecard_pkey'`,
      );
      expect(indexes.map((i) => i.indexname)).toContain(INDEX);
      for (const { indexname } of indexes) await emulator.query(`drop index public.${indexname}`);
      // Ended entries: one per minute up to now.
      await emulator.query(
        `insert into public.namecard (card_id, stamp_end, type)
       select ${MAIN_CARD_SQL}, $1::bigint - ($2::bigint - g) * ${MINUTE} - 1, case when g % 2 = 0 then 'main' else 'photo' end
       from generate_series(1, $2::bigint) g`,
        [now, ROWS - FUTURE],
      );
      // Entries that have not started yet, newer than every ended one: from an hour on.
      await emulator.query(
        `insert into public.namecard (card_id, stamp_start, stamp_end, type)
       select ${MAIN_CARD_SQL}, $1::bigint + 60 * ${MINUTE} + g * ${MINUTE}, $1::bigint + 60 * ${MINUTE} + g * ${MINUTE} + ${MINUTE} - 1, 'photo'
       from generate_series(1, $2::bigint) g`,
        [now, FUTURE],
      );
      for (const { indexdef } of indexes) await emulator.query(indexdef);
      await emulator.query('vacuum analyze public.namecard');
      // The query runs once before it is explained, in the same backend: the first call of a
      // function in a connection (namecard_instant_allowed, behind the lookup) reads the system
      // catalogs into that connection's caches, ~150 page hits counted in the plan's buffers.
      // A request of the lookup pays them once per pooled connection, not per request; the
      // pages this test bounds are the ones every request reads.
      await emulator.query(`
      create function public.test_explain_as_anon(q text) returns json
      language plpgsql as $f$
      declare result json;
      begin
        perform set_config('role', 'anon', true);
        execute q;
        execute 'explain (analyze, buffers, format json) ' || q into result;
        return result;
      end $f$`);
    }, 600_000);
    afterAll(async () => {
      await emulator?.stop();
      await database?.drop();
    });

    it(`uses ${INDEX} and reads a handful of pages when no entry is active`, async () => {
      expect(await emulator.query('select count(*)::int as n from public.namecard')).toEqual([
        { n: ROWS },
      ]);
      const plan = await explainAsAnon();
      expect(indexesUsed(plan)).toContain(INDEX);
      expect(plan['Actual Rows']).toBe(0);
      expect(blocks(plan), JSON.stringify(plan)).toBeLessThan(MAX_BLOCKS);
      expect(await lookup()).toEqual([]);
    });

    it('still reads a handful of pages with a few active entries among 10^6, and answers the newest', async () => {
      await emulator.query(
        `insert into public.namecard (stamp_start, stamp_end, type) values
         (null, $1, 'photo'), ($2, $3, 'main'), (null, $4, 'photo')`,
        [now + 60 * MINUTE, now - MINUTE, now + 120 * MINUTE, now + 30 * MINUTE],
      );
      try {
        const plan = await explainAsAnon();
        expect(indexesUsed(plan)).toContain(INDEX);
        expect(plan['Actual Rows']).toBe(1);
        expect(blocks(plan), JSON.stringify(plan)).toBeLessThan(MAX_BLOCKS);
        expect(await lookup()).toEqual([
          expect.objectContaining({
            stamp_start: null,
            stamp_end: now + 30 * MINUTE,
            type: 'photo',
          }),
        ]);
      } finally {
        await emulator.query('delete from public.namecard where id > $1', [ROWS]);
      }
    });

    // The timeline is one read whose cost grows with the segments it answers (at most
    // 24), not with the table: each step of its walk is a few index probes.
    it('answers the timeline view (namecard_status) from a few hundred pages at 10^6 rows', async () => {
      const [row] = await emulator.query<{ plan: [{ Plan: PlanNode }] }>(
        'select public.test_explain_as_anon($1) as plan',
        [`select now, active, timeline from public.namecard_status('main')`],
      );
      const plan = row!.plan[0].Plan;
      expect(blocks(plan), JSON.stringify(plan)).toBeLessThan(MAX_STATUS_BLOCKS);
      const res = await fetch(viewUrl(emulator.url, emulator.anonKey, STATUS_VIEW));
      const [status] = (await res.json()) as {
        timeline: { type: string; from: number; to: number | null }[];
      }[];
      // Main until the first future entry an hour on, then one-minute photo entries, each
      // followed by main until the next: capped at 24 segments, the last one not open-ended.
      expect(status!.timeline).toHaveLength(24);
      expect(status!.timeline[1]).toEqual({
        type: 'photo',
        from: now + 61 * MINUTE,
        to: now + 62 * MINUTE - 1,
      });
      expect(status!.timeline[23]!.to).not.toBeNull();
    });

    // Prepared statements across requests only exist with a PostgreSQL server.
    if (kind === 'postgres') {
      it('keeps the index plan for the view read as a prepared statement many times, with the role settings PostgREST applies', async () => {
        const client = new pg.Client({ connectionString: database!.url });
        await client.connect();
        try {
          const settings = await client.query<{ setting: string }>(
            `select unnest(setconfig) as setting from pg_db_role_setting s
           join pg_roles r on r.oid = s.setrole where r.rolname = 'anon'`,
          );
          expect(settings.rows.map((r) => r.setting)).toContain(
            'plan_cache_mode=force_custom_plan',
          );
          // PostgREST sends the limit as a parameter; the view's clock is read at execution.
          await client.query(`prepare lookup(bigint) as ${LOOKUP} limit $1`);
          // As PostgREST runs it: one transaction per request, role and role settings local.
          const asAnon = async (sql: string) => {
            await client.query('begin');
            await client.query(`select set_config('role', 'anon', true)`);
            for (const { setting } of settings.rows) {
              const [name, value] = setting.split('=') as [string, string];
              await client.query('select set_config($1, $2, true)', [name, value]);
            }
            const result = await client.query(sql);
            await client.query('commit');
            return result;
          };
          // Postgres considers a generic plan from the sixth execution on.
          for (let i = 0; i < 8; i++) await asAnon(`execute lookup(${i + 1})`);
          const explained = await asAnon(
            `explain (analyze, buffers, format json) execute lookup(1)`,
          );
          const plan = (explained.rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })[
            'QUERY PLAN'
          ][0].Plan;
          expect(indexesUsed(plan)).toContain(INDEX);
          expect(blocks(plan), JSON.stringify(plan)).toBeLessThan(MAX_BLOCKS);
        } finally {
          await client.end();
        }
      });
    }
  },
);
