import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// The migration's security properties, read from the catalog after it is applied.
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

  it('grants select of the visitor columns to anon and of all columns to authenticated, insert of stamp_end, type and stamp_start to authenticated only', async () => {
    const visitorColumns = ['id', 'type', 'stamp_start', 'stamp_end'];
    const auditColumns = ['created_at', 'created_by'];
    // anon: no table-wide select, only the columns a visitor needs.
    expect(await one<boolean>(`has_table_privilege('anon', 'public.namecard', 'SELECT')`)).toBe(
      false,
    );
    for (const column of visitorColumns) {
      expect(
        await one<boolean>(
          `has_column_privilege('anon', 'public.namecard', '${column}', 'SELECT')`,
        ),
      ).toBe(true);
    }
    for (const column of auditColumns) {
      expect(
        await one<boolean>(
          `has_column_privilege('anon', 'public.namecard', '${column}', 'SELECT')`,
        ),
      ).toBe(false);
    }
    expect(
      await one<boolean>(`has_table_privilege('authenticated', 'public.namecard', 'SELECT')`),
    ).toBe(true);
    for (const role of ['anon', 'authenticated']) {
      for (const privilege of ['UPDATE', 'DELETE', 'TRUNCATE']) {
        expect(
          await one<boolean>(`has_table_privilege('${role}', 'public.namecard', '${privilege}')`),
        ).toBe(false);
      }
      for (const view of ['namecard_active', 'namecard_status']) {
        expect(
          await one<boolean>(`has_table_privilege('${role}', 'public.${view}', 'SELECT')`),
        ).toBe(true);
      }
    }
    expect(
      await one<boolean>(`has_table_privilege('anon', 'public.namecard_access', 'SELECT')`),
    ).toBe(false);
    expect(
      await one<boolean>(
        `has_table_privilege('authenticated', 'public.namecard_access', 'SELECT')`,
      ),
    ).toBe(true);
    expect(
      await one<boolean>(`has_any_column_privilege('anon', 'public.namecard', 'INSERT')`),
    ).toBe(false);
    for (const column of ['stamp_end', 'type', 'stamp_start']) {
      expect(
        await one<boolean>(
          `has_column_privilege('authenticated', 'public.namecard', '${column}', 'INSERT')`,
        ),
      ).toBe(true);
    }
    for (const column of [
      'id',
      'created_at',
      'created_by',
      'stopped_at',
      'stop_kind',
      'planned_end',
    ]) {
      expect(
        await one<boolean>(
          `has_column_privilege('authenticated', 'public.namecard', '${column}', 'INSERT')`,
        ),
      ).toBe(false);
    }
  });

  it('lets only signed-in users run end now and cancel (roles are checked inside); everyone reads the timeline through the status, not the walk itself', async () => {
    // Each takes its card last since cards came (issue 40): `card text`, null for the first card.
    for (const fn of ['namecard_end_now(text)', 'namecard_cancel(bigint, text)']) {
      expect(await one<boolean>(`has_function_privilege('anon', 'public.${fn}', 'EXECUTE')`)).toBe(
        false,
      );
      expect(
        await one<boolean>(`has_function_privilege('authenticated', 'public.${fn}', 'EXECUTE')`),
      ).toBe(true);
    }
    for (const role of ['anon', 'authenticated']) {
      expect(
        await one<boolean>(`has_table_privilege('${role}', 'public.namecard_status', 'SELECT')`),
      ).toBe(true);
      expect(
        await one<boolean>(
          `has_function_privilege('${role}', 'public.namecard_status(text)', 'EXECUTE')`,
        ),
      ).toBe(true);
      // Round 5: the walk and the exact expansion take arguments that scale their work; the
      // status calls them with fixed ones, nobody else may.
      for (const fn of ['namecard_active_at(bigint)', 'namecard_timeline_at(bigint, integer)']) {
        expect(
          await one<boolean>(`has_function_privilege('${role}', 'public.${fn}', 'EXECUTE')`),
        ).toBe(false);
      }
    }
  });

  // Since cards (issue 40): anon reads the first card's entries (as it read the one card's),
  // anyone signed in the first card's and their own cards', editors and owners insert into their
  // cards; each policy asks the one helper once per statement (an InitPlan).
  it('has exactly one permissive policy per action and role: reads of the first card and members, inserts for editors', async () => {
    const policies = await emulator.query(
      `select policyname, cmd, roles::text[] as roles, qual, with_check
       from pg_policies where schemaname = 'public' and tablename = 'namecard' order by policyname`,
    );
    const helper = (role: string) =>
      `( SELECT private.namecard_cards_where('${role}'::text) AS namecard_cards_where)::bigint[]`;
    expect(policies).toEqual([
      {
        policyname: 'namecard_editor_insert',
        cmd: 'INSERT',
        roles: ['authenticated'],
        qual: null,
        with_check: `(card_id = ANY (${helper('editor')}))`,
      },
      {
        policyname: 'namecard_member_read',
        cmd: 'SELECT',
        roles: ['authenticated'],
        qual: `((card_id = namecard_first_card()) OR (card_id = ANY (${helper('viewer')})))`,
        with_check: null,
      },
      {
        policyname: 'namecard_read',
        cmd: 'SELECT',
        roles: ['anon'],
        qual: '(card_id = namecard_first_card())',
        with_check: null,
      },
    ]);
  });

  it('keeps the owner list unreadable by the API roles', async () => {
    for (const role of ['anon', 'authenticated']) {
      expect(
        await one<boolean>(`has_table_privilege('${role}', 'private.namecard_owner', 'SELECT')`),
      ).toBe(false);
      expect(
        await one<boolean>(`has_table_privilege('${role}', 'private.namecard_owner', 'INSERT')`),
      ).toBe(false);
    }
    expect(await one<boolean>(`has_schema_privilege('anon', 'private', 'USAGE')`)).toBe(false);
  });

  it('pins the search path of the security-definer helper and lets only authenticated run it', async () => {
    const [fn] = await emulator.query<{ prosecdef: boolean; proconfig: string[] }>(
      `select prosecdef, proconfig from pg_proc where oid = 'private.is_namecard_owner()'::regprocedure`,
    );
    expect(fn).toEqual({ prosecdef: true, proconfig: ['search_path=""'] });
    expect(
      await one<boolean>(
        `has_function_privilege('anon', 'private.is_namecard_owner()', 'EXECUTE')`,
      ),
    ).toBe(false);
    expect(
      await one<boolean>(
        `has_function_privilege('authenticated', 'private.is_namecard_owner()', 'EXECUTE')`,
      ),
    ).toBe(true);
  });

  // The card first since cards (issue 40): a card's entries are one range of the index.
  it('indexes stamp_end for the active-entry lookup', async () => {
    expect(
      await one<string>(
        `(select indexdef from pg_indexes where indexname = 'namecard_stamp_end_idx')`,
      ),
    ).toMatch(/USING btree \(card_id, stamp_end\)/);
  });
});
