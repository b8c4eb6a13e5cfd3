import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { makeCard, person, type Person } from '../support/cards.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// Row-level security asks the caller's standing once per statement, not once per row
// (Supabase's RLS performance guide): every policy calls private.namecard_cards_where(role)
// wrapped in `(select …)`, which the planner runs once as an InitPlan. Shown two ways on both
// databases: EXPLAIN of a member's read of many rows (one InitPlan calling the helper, run once;
// no SubPlan), and the helper's call count in the transaction of a read and of a many-row insert
// (of profiles, the table members write through the API).

const ROWS = 200;
/** Profiles inserted at once: a card holds at most 50, main and photo among them. */
const PROFILES = 40;

interface PlanNode {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Subplan Name'?: string;
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  Output?: string[];
  Filter?: string;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

describe.each(DB_KINDS)('the role check over %s', { timeout: 120_000 }, (kind) => {
  let emulator: RunningEmulator;
  let owner: Person;
  let card: number;

  /** Runs `query` as `who` (role authenticated, their JWT claims) in one transaction. */
  const asMember = async <T>(who: Person, query: string, wrap: 'explain' | 'calls'): Promise<T> => {
    const claims = JSON.stringify({ sub: who.id, role: 'authenticated' });
    const [row] = await emulator.query<{ result: T }>(
      `select public.test_as_member($1, $2, $3) as result`,
      [claims, query, wrap],
    );
    return row!.result;
  };

  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
    owner = await person(emulator, 'planner@plan.test');
    card = await makeCard(emulator, owner, 'planned');
    await emulator.query(
      `insert into public.namecard (card_id, type, stamp_end)
       select $1, 'main', 1000000 + g from generate_series(1, ${ROWS}) as g`,
      [card],
    );
    await emulator.query(
      `insert into public.namecard_visit (card_id, bucket, type, via, visits, running)
       select $1, g * 900000, 'main', 'qr', 1, g from generate_series(1, ${ROWS}) as g`,
      [card],
    );
    // EXPLAIN (ANALYZE, VERBOSE) or the helper's calls in this transaction, of a query run as a
    // signed-in member: the role and claims PostgREST sets, functions counted while it runs.
    await emulator.query(`
      create function public.test_as_member(claims text, q text, wrap text) returns json
      language plpgsql as $f$
      declare result json; before bigint; after bigint;
      begin
        perform set_config('track_functions', 'all', true);
        perform set_config('request.jwt.claims', claims, true);
        perform set_config('role', 'authenticated', true);
        if wrap = 'explain' then
          execute 'explain (analyze, verbose, format json) ' || q into result;
          return result;
        end if;
        -- The counts not yet flushed to the statistics: those of this statement are the increase.
        before := coalesce(pg_stat_get_xact_function_calls(
          'private.namecard_cards_where(text)'::regprocedure), 0);
        execute q;
        after := pg_stat_get_xact_function_calls(
          'private.namecard_cards_where(text)'::regprocedure);
        return to_json(after - before);
      end $f$`);
  });
  afterAll(() => emulator?.stop());

  it.each(['namecard', 'namecard_visit'])(
    "EXPLAIN of a member's read of %s: the helper once, as an InitPlan, over every row",
    async (table) => {
      const [{ Plan: plan }] = await asMember<[{ Plan: PlanNode }]>(
        owner,
        `select * from public.${table} where card_id = ${card}`,
        'explain',
      );
      const all = nodes(plan);
      const checks = all.filter(
        (n) =>
          n['Parent Relationship'] === 'InitPlan' &&
          (n.Output ?? []).some((o) => o.includes('namecard_cards_where')),
      );
      expect(checks, JSON.stringify(plan)).toHaveLength(1);
      expect(checks[0]!['Actual Loops']).toBe(1);
      expect(all.filter((n) => n['Parent Relationship'] === 'SubPlan')).toEqual([]);
      expect(plan['Actual Rows']).toBe(ROWS);
    },
  );

  it('a read of many rows and an insert of many rows each call the helper once', async () => {
    expect(
      await asMember<number>(
        owner,
        `select * from public.namecard where card_id = ${card}`,
        'calls',
      ),
    ).toBe(1);
    expect(
      await asMember<number>(
        owner,
        `insert into public.namecard_profile (card_id, name, label, url)
         select ${card}, 'extra-' || g, 'Extra ' || g, 'https://card.example/' || g
         from generate_series(1, ${PROFILES}) as g`,
        'calls',
      ),
    ).toBe(1);
    expect(
      await emulator.query(
        `select count(*)::int as n from public.namecard_profile where name like 'extra-%'`,
      ),
    ).toEqual([{ n: PROFILES }]);
  });
});
