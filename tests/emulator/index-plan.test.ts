import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, createTestDatabase, type TestDatabase } from '../support/emulator.js';

const ROWS = 1_000_000;
const MINUTE = 60_000;
const LOOKUP = 'select * from public.namecard where stamp_end > $1 order by id desc limit 1';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
const indexesUsed = (plan: PlanNode) =>
  nodes(plan).flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));
const blocks = (plan: PlanNode) =>
  (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);

// The active-entry lookup must stay cheap at 10^6 rows, above all when nothing is
// active (the case where walking the primary key would read the whole table).
describe.each(DB_KINDS)(
  'active-entry lookup at 10^6 rows over %s',
  { timeout: 240_000 },
  (kind) => {
    let emulator: RunningEmulator;
    let database: TestDatabase | undefined;
    const now = Date.now();

    /** EXPLAIN ANALYZE of the lookup, run as `anon` so RLS is part of the plan. */
    const explainAsAnon = async (at: number): Promise<PlanNode> => {
      const [row] = await emulator.query<{ plan: [{ Plan: PlanNode }] }>(
        'select public.test_explain_as_anon($1, $2) as plan',
        [LOOKUP, at],
      );
      return row!.plan[0].Plan;
    };

    beforeAll(async () => {
      if (kind === 'postgres') database = await createTestDatabase();
      emulator = await startEmulator({
        port: 0,
        ...(database ? { databaseUrl: database.url } : {}),
      });
      // Every entry expired: one per minute up to now.
      await emulator.query(
        `insert into public.namecard (stamp_end, type)
       select $1::bigint - ($2::bigint - g) * ${MINUTE} - 1, case when g % 2 = 0 then 'main' else 'photo' end
       from generate_series(1, $2::bigint) g`,
        [now, ROWS],
      );
      await emulator.query('vacuum analyze public.namecard');
      await emulator.query(`
      create function public.test_explain_as_anon(q text, at bigint) returns json
      language plpgsql as $f$
      declare result json;
      begin
        perform set_config('role', 'anon', true);
        execute 'explain (analyze, buffers, format json) ' || replace(q, '$1', at::text) into result;
        return result;
      end $f$`);
    });
    afterAll(async () => {
      await emulator?.stop();
      await database?.drop();
    });

    it('uses namecard_stamp_end_idx and reads a handful of pages when no entry is active', async () => {
      const plan = await explainAsAnon(now);
      expect(indexesUsed(plan)).toEqual(['namecard_stamp_end_idx']);
      expect(blocks(plan)).toBeLessThan(20);
    });

    it('still reads a handful of pages with a few active entries among 10^6', async () => {
      await emulator.query(
        `insert into public.namecard (stamp_end, type) values ($1, 'photo'), ($2, 'main'), ($3, 'photo')`,
        [now + 60 * MINUTE, now + 120 * MINUTE, now + MINUTE],
      );
      const plan = await explainAsAnon(now);
      expect(blocks(plan)).toBeLessThan(20);
      const res = await fetch(
        `${emulator.url}/rest/v1/namecard?select=*&stamp_end=gt.${now}&order=id.desc&limit=1`,
        { headers: { apikey: emulator.anonKey } },
      );
      expect(await res.json()).toEqual([
        expect.objectContaining({ stamp_end: now + MINUTE, type: 'photo' }),
      ]);
      await emulator.query('delete from public.namecard where stamp_end > $1', [now]);
    });

    // Prepared statements across requests only exist with a PostgreSQL server.
    if (kind === 'postgres') {
      it('keeps the index plan for a prepared lookup run many times, with the role settings PostgREST applies', async () => {
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
          await client.query(`prepare lookup(bigint) as ${LOOKUP}`);
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
          for (let i = 0; i < 8; i++) await asAnon(`execute lookup(${now + i})`);
          const explained = await asAnon(
            `explain (analyze, buffers, format json) execute lookup(${now})`,
          );
          const plan = (explained.rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })[
            'QUERY PLAN'
          ][0].Plan;
          expect(indexesUsed(plan)).toEqual(['namecard_stamp_end_idx']);
          expect(blocks(plan)).toBeLessThan(20);
        } finally {
          await client.end();
        }
      });
    }
  },
);
