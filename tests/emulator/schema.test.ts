import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// The migrations' security properties, read from the catalog after they are applied.
describe.each(DB_KINDS)('namecard migration over %s', (kind) => {
  let emulator: RunningEmulator;
  const one = async <T>(sql: string) =>
    (await emulator.query<{ v: T }>(`select ${sql} as v`))[0]!.v;

  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
  });
  afterAll(() => emulator?.stop());

  it('enables row-level security on public.namecard', async () => {
    expect(
      await one<boolean>(
        `(select relrowsecurity from pg_class where oid = 'public.namecard'::regclass)`,
      ),
    ).toBe(true);
  });

  // A card's members read its entries by row-level security, a card token as a member too (its
  // requests run as anon); nobody writes them through the table: set, end now and cancel are
  // functions that check the caller's role on the card first.
  it('grants select of the entries to anon and authenticated, and no write of them', async () => {
    for (const role of ['anon', 'authenticated']) {
      expect(
        await one<boolean>(`has_table_privilege('${role}', 'public.namecard', 'SELECT')`),
      ).toBe(true);
      expect(
        await one<boolean>(`has_any_column_privilege('${role}', 'public.namecard', 'INSERT')`),
      ).toBe(false);
      for (const privilege of ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) {
        expect(
          await one<boolean>(`has_table_privilege('${role}', 'public.namecard', '${privilege}')`),
        ).toBe(false);
      }
    }
  });

  it('lets anon and signed-in users run the writes (the role is checked inside) and the lookups; nobody of the API runs the walk or the rule itself', async () => {
    for (const role of ['anon', 'authenticated']) {
      for (const fn of [
        'namecard_set(text, bigint, bigint, text)',
        'namecard_end_now(text)',
        'namecard_cancel(bigint, text)',
        'namecard_go(text)',
        'namecard_status(text)',
      ]) {
        expect(
          await one<boolean>(`has_function_privilege('${role}', 'public.${fn}', 'EXECUTE')`),
        ).toBe(true);
      }
      // The walk and the rule take arguments that scale their work: the lookups call them
      // with fixed ones, nobody else may.
      for (const fn of [
        'namecard_in_force_at(bigint, bigint, text)',
        'namecard_timeline_until(bigint, bigint, bigint, integer)',
      ]) {
        expect(
          await one<boolean>(`has_function_privilege('${role}', 'private.${fn}', 'EXECUTE')`),
        ).toBe(false);
      }
    }
  });

  // Each policy asks the one helper once per statement (an InitPlan).
  it("has exactly one policy on the entries: the card's members read them", async () => {
    const policies = await emulator.query(
      `select policyname, cmd, roles::text[] as roles, qual, with_check
       from pg_policies where schemaname = 'public' and tablename = 'namecard' order by policyname`,
    );
    expect(policies).toEqual([
      {
        policyname: 'namecard_member_read',
        cmd: 'SELECT',
        roles: ['anon', 'authenticated'],
        qual: `(card_id = ANY (( SELECT private.namecard_cards_where('viewer'::text) AS namecard_cards_where)::bigint[]))`,
        with_check: null,
      },
    ]);
  });

  it('keeps the members, invitations and card tokens unreadable by the API roles', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      for (const table of ['namecard_member', 'namecard_invitation', 'namecard_token']) {
        for (const privilege of ['SELECT', 'INSERT', 'UPDATE', 'DELETE']) {
          expect(
            await one<boolean>(
              `has_table_privilege('${role}', 'private.${table}', '${privilege}')`,
            ),
            `${role} ${privilege} ${table}`,
          ).toBe(false);
        }
      }
    }
  });

  // PostgREST runs the pre-request check before every request, as the request's role; the
  // policies run the helper as the caller. Nothing else of schema private is the API's to run.
  it('lets the API roles run only the pre-request check and the policy helper of schema private, each a security definer with its search path pinned', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      const runnable = await emulator.query<{ fn: string }>(
        `select p.oid::regprocedure::text as fn from pg_proc as p
         join pg_namespace as n on n.oid = p.pronamespace
         where n.nspname = 'private' and has_function_privilege($1, p.oid, 'EXECUTE')
         order by 1`,
        [role],
      );
      expect(
        runnable.map((r) => r.fn),
        role,
      ).toEqual(['private.namecard_cards_where(text)', 'private.namecard_pre_request()']);
    }
    const helpers = await emulator.query<{ prosecdef: boolean; proconfig: string[] }>(
      `select prosecdef, proconfig from pg_proc
       where oid in ('private.namecard_cards_where(text)'::regprocedure,
                     'private.namecard_pre_request()'::regprocedure)`,
    );
    expect(helpers).toEqual([
      { prosecdef: true, proconfig: ['search_path=""'] },
      { prosecdef: true, proconfig: ['search_path=""'] },
    ]);
  });

  // The card first: a card's entries are one range of the index.
  it('indexes stamp_end for the active-entry lookup', async () => {
    expect(
      await one<string>(
        `(select indexdef from pg_indexes where indexname = 'namecard_stamp_end_idx')`,
      ),
    ).toMatch(/USING btree \(card_id, stamp_end\)/);
  });
});
