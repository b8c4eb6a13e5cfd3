import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { MAIN_CARD } from '../../shared/core/cards.js';
import { GO_FUNCTION, STATUS_FUNCTION, lookupUrl } from '../../shared/core/lookup.js';
import {
  DB_KINDS,
  createTestDatabase,
  type TestDatabase,
  overPostgres,
  MAIN_CARD_SQL,
} from '../support/emulator.js';
import { cardRowId } from '../support/entries.js';

const ROWS = 1_000_000;
const FUTURE = 100_000;
const MINUTE = 60_000;
// The product's lookup as PostgREST calls it, with the card main named.
const LOOKUP = `select id, type, stamp_start, stamp_end from public.namecard_go('${MAIN_CARD}')`;
// The rule's two partial indexes: the card's entries without a start by their end, and the
// started ones by their range.
const INDEXES = ['namecard_open_end_idx', 'namecard_started_range_idx'];
// A stabbing query on the GiST index reads the paths whose bounding ranges contain now: one
// page to about a hundred, depending on how the index split. Walking the primary key backwards
// past the 10^5 future entries instead reads about a thousand pages.
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

// /go's lookup (rpc/namecard_go) must stay cheap at 10^6 rows of the card main, 10^5 of them not
// started yet (newer than every ended entry, so walking the primary key backwards would read them
// all), both with nothing active and with a few active entries. namecard_go is PL/pgSQL planned
// once a session with a generic plan, which EXPLAIN of the call cannot open: its one statement is
// explained as it runs it, a prepared statement with the slug a parameter under
// force_generic_plan (the function's own text, read from the catalog), beside the rule's query
// for the card and the instant as constants and the call itself as anon.
describe.each(DB_KINDS)(
  'the lookup at 10^6 rows (10^5 not started) over %s',
  { timeout: 300_000 },
  (kind) => {
    let emulator: RunningEmulator;
    let database: TestDatabase | undefined;
    /** The rule's query namecard_go runs, for the card main at `at` (epoch ms) as constants. */
    let ruleAt: (at: number) => string;
    /** namecard_go's one statement, its slug the parameter $1. */
    let goStatement: string;
    const now = Date.now();

    const planOf = async (fn: string, ...args: string[]): Promise<PlanNode> => {
      const [row] = await emulator.query<{ plan: [{ Plan: PlanNode }] }>(
        `select public.${fn}(${args.map((_, i) => `$${i + 1}`).join(', ')}) as plan`,
        args,
      );
      return row!.plan[0].Plan;
    };
    /** EXPLAIN (ANALYZE, BUFFERS) of `sql` run as `anon`, so that RLS and grants apply. */
    const explainAsAnon = (sql: string) => planOf('test_explain_as_anon', sql);
    /** The same as the tables' owner, as namecard_go (security definer) runs its statement. */
    const explainAsOwner = (sql: string) => planOf('test_explain_as_owner', sql);
    /** namecard_go's statement for the card main, as its generic plan runs it. */
    const explainGeneric = () => planOf('test_explain_generic', goStatement, MAIN_CARD);
    const lookup = async () => {
      const res = await fetch(lookupUrl(emulator.url, emulator.anonKey, GO_FUNCTION, MAIN_CARD));
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
      expect(indexes.map((i) => i.indexname)).toEqual(expect.arrayContaining(INDEXES));
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
      const cardId = await cardRowId(emulator);
      ruleAt = (at) =>
        `select id, type, stamp_start, stamp_end
         from private.namecard_in_force_at(${cardId}, ${at}, 'lookup')`;
      const [source] = await emulator.query<{ body: string }>(
        `select prosrc as body from pg_proc where oid = 'public.namecard_go(text)'::regprocedure`,
      );
      const statement = /return query\s+([\s\S]*?);\s*end;/.exec(source!.body)?.[1];
      expect(statement, source!.body).toBeDefined();
      goStatement = statement!.replaceAll('namecard_go.card', '$1::text');
      // Each query runs once before it is explained, in the same backend: the first call of a
      // function in a connection reads the system catalogs into that connection's caches, and
      // a PL/pgSQL function plans its statements then, pages a pooled connection pays once, not
      // per request; the pages this test bounds are the ones every request reads.
      await emulator.query(`
      -- EXPLAIN (ANALYZE, BUFFERS) of q as anon, after one run of it in the same backend.
      create function public.test_explain_as_anon(q text) returns json
      language plpgsql as $f$
      declare result json;
      begin
        perform set_config('role', 'anon', true);
        execute q;
        execute 'explain (analyze, buffers, format json) ' || q into result;
        return result;
      end $f$;
      -- The same as the caller of this function (the emulator's superuser, who owns the tables
      -- and the security-definer functions): what namecard_go's own statement runs as.
      create function public.test_explain_as_owner(q text) returns json
      language plpgsql as $f$
      declare result json;
      begin
        execute q;
        execute 'explain (analyze, buffers, format json) ' || q into result;
        return result;
      end $f$;
      -- The same of q prepared with one text parameter $1 and executed with arg under
      -- force_generic_plan: the plan a PL/pgSQL function with plan_cache_mode force_generic_plan
      -- keeps for its statement.
      create function public.test_explain_generic(q text, arg text) returns json
      language plpgsql as $f$
      declare result json;
      begin
        perform set_config('plan_cache_mode', 'force_generic_plan', true);
        execute 'prepare test_generic(text) as ' || q;
        execute 'execute test_generic(' || quote_literal(arg) || ')';
        execute 'explain (analyze, buffers, format json) execute test_generic('
          || quote_literal(arg) || ')' into result;
        execute 'deallocate test_generic';
        return result;
      end $f$`);
    }, 600_000);
    afterAll(async () => {
      await emulator?.stop();
      await database?.drop();
    });

    /**
     * The rule's query, namecard_go's generic plan of it and the call as anon each read a handful
     * of pages, the first two through INDEXES, and answer `rows` rows.
     */
    const expectCheap = async (rows: number) => {
      const plans = {
        rule: await explainAsOwner(ruleAt(now)),
        generic: await explainGeneric(),
        call: await explainAsAnon(LOOKUP),
      };
      // The call's plan is one function scan: its indexes are those of its statement's plans.
      for (const plan of [plans.rule, plans.generic]) {
        expect(indexesUsed(plan)).toEqual(expect.arrayContaining(INDEXES));
      }
      for (const [what, plan] of Object.entries(plans)) {
        expect(plan['Actual Rows'], what).toBe(rows);
        expect(blocks(plan), `${what}: ${JSON.stringify(plan)}`).toBeLessThan(MAX_BLOCKS);
      }
    };

    it(`uses ${INDEXES.join(' and ')} and reads a handful of pages when no entry is active`, async () => {
      expect(await emulator.query('select count(*)::int as n from public.namecard')).toEqual([
        { n: ROWS },
      ]);
      await expectCheap(0);
      expect(await lookup()).toEqual([]);
    });

    it('still reads a handful of pages with a few active entries among 10^6, and answers the newest', async () => {
      await emulator.query(
        `insert into public.namecard (card_id, stamp_start, stamp_end, type)
         select ${MAIN_CARD_SQL}, v.* from (values
           (null::bigint, $1::bigint, 'photo'), ($2, $3, 'main'), (null, $4, 'photo')) as v`,
        [now + 60 * MINUTE, now - MINUTE, now + 120 * MINUTE, now + 30 * MINUTE],
      );
      try {
        await expectCheap(1);
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
    it('answers the timeline (namecard_status) from a few hundred pages at 10^6 rows', async () => {
      const plan = await explainAsAnon(
        `select now, active, timeline from public.namecard_status('${MAIN_CARD}')`,
      );
      expect(blocks(plan), JSON.stringify(plan)).toBeLessThan(MAX_STATUS_BLOCKS);
      const res = await fetch(
        lookupUrl(emulator.url, emulator.anonKey, STATUS_FUNCTION, MAIN_CARD),
      );
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
      it('reads a handful of pages a call when the lookup runs as a prepared statement many times, with the role settings PostgREST applies', async () => {
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
          // PostgREST sends the slug and the limit as parameters; the clock is read at execution.
          await client.query(
            `prepare lookup(text, bigint) as
             select id, type, stamp_start, stamp_end from public.namecard_go($1) limit $2`,
          );
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
          for (let i = 0; i < 8; i++) await asAnon(`execute lookup('${MAIN_CARD}', ${i + 1})`);
          const explained = await asAnon(
            `explain (analyze, buffers, format json) execute lookup('${MAIN_CARD}', 1)`,
          );
          const plan = (explained.rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })[
            'QUERY PLAN'
          ][0].Plan;
          expect(blocks(plan), JSON.stringify(plan)).toBeLessThan(MAX_BLOCKS);
        } finally {
          await client.end();
        }
      });
    }
  },
);
