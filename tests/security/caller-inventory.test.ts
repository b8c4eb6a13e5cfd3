import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';
import { readInventory } from './caller-inventory.js';

// docs/security.md lists everything an API caller can reach (anon, a card token, which calls as
// anon, and a signed-in person, authenticated), each with its cost and its bound. This test reads
// that table and compares it with the catalog: every function of the public and private schemas
// anon or authenticated may execute (in a schema it may use), every relation there it has a
// privilege on. A new grant fails here until its cost is written down; an entry nobody can reach
// any more fails too, so that the list stays the truth.

/** What anon or authenticated can reach in the public and private schemas, as the inventory names it. */
const REACHABLE = `
  with roles (r) as (values ('anon'), ('authenticated'))
  select distinct format('%s.%s(%s)', n.nspname, p.proname, oidvectortypes(p.proargtypes)) as name
  from pg_proc as p join pg_namespace as n on n.oid = p.pronamespace cross join roles
  where n.nspname in ('public', 'private')
    and has_schema_privilege(r, n.oid, 'USAGE')
    and has_function_privilege(r, p.oid, 'EXECUTE')
  union
  select format('%s.%s', n.nspname, c.relname)
  from pg_class as c join pg_namespace as n on n.oid = c.relnamespace cross join roles
  where n.nspname in ('public', 'private')
    and c.relkind in ('r', 'v', 'm', 'p', 'f')
    and has_schema_privilege(r, n.oid, 'USAGE')
    and (has_any_column_privilege(r, c.oid, 'SELECT')
      or has_any_column_privilege(r, c.oid, 'INSERT')
      or has_any_column_privilege(r, c.oid, 'UPDATE')
      or has_table_privilege(r, c.oid, 'DELETE'))
  order by 1`;

describe.each(DB_KINDS)("the callers' inventory over %s", (kind) => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
  });
  afterAll(() => emulator?.stop());

  const reachable = async () =>
    (await emulator.query<{ name: string }>(REACHABLE)).map((r) => r.name.replace(/, /g, ','));

  it('lists exactly what anon and a signed-in person may run and read, once each', async () => {
    const listed = readInventory().map((e) => e.name);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(await reachable());
  });

  it('fails for a function or relation granted to an API role without an entry', async () => {
    const before = await reachable();
    await emulator.query(`
      create function public.test_unlisted(n integer) returns integer language sql as 'select n';
      create function private.test_unlisted() returns integer language sql as 'select 1';
      grant execute on function public.test_unlisted(integer) to authenticated;
      grant execute on function private.test_unlisted() to anon;
      create view public.test_unlisted_view as select 1 as one;
      grant select on public.test_unlisted_view to anon;`);
    try {
      const listed = new Set(readInventory().map((e) => e.name));
      const unlisted = (await reachable()).filter((name) => !listed.has(name));
      expect(unlisted).toEqual([
        'private.test_unlisted()',
        'public.test_unlisted(integer)',
        'public.test_unlisted_view',
      ]);
    } finally {
      await emulator.query(`
        drop function public.test_unlisted(integer);
        drop function private.test_unlisted();
        drop view public.test_unlisted_view;`);
    }
    expect(await reachable()).toEqual(before);
  });
});
