import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { DB_KINDS, startTestEmulator } from '../support/emulator.js';

// What the API roles (anon, authenticated, service_role) may do in schemas public and private,
// grant by grant, against the list below: a grant added or removed anywhere fails this test. In
// private an API role may execute only what PostgreSQL or PostgREST runs as the caller
// (namecard_cards_where, which every row-level security policy calls; namecard_pre_request, the
// check of every request): every other worker there runs only inside a public entry point that
// checked the caller first, so no role may call one to go around that check. Column grants are
// listed where a role holds a privilege on some columns only.

/** Every grant to an API role on the schemas, the functions and the relations of public and private. */
const GRANTS_SQL = `
  with roles (r) as (values ('anon'), ('authenticated'), ('service_role')),
  fns as (
    select p.oid, n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as name
    from pg_proc as p join pg_namespace as n on n.oid = p.pronamespace
    where n.nspname in ('public', 'private')
  ),
  rels as (
    select c.oid, n.nspname || '.' || c.relname as name, c.relkind
    from pg_class as c join pg_namespace as n on n.oid = c.relnamespace
    where n.nspname in ('public', 'private') and c.relkind in ('r', 'v', 'm', 'p', 'f', 'S')
  ),
  privs (p) as (values ('select'), ('insert'), ('update'), ('delete'), ('truncate'), ('references'), ('trigger')),
  colprivs (p) as (values ('select'), ('insert'), ('update'), ('references'))
  select line from (
    select 'usage on schema ' || s || ': ' || string_agg(r, ', ' order by r) as line
    from unnest(array['public', 'private']) as s cross join roles
    where has_schema_privilege(r, s, 'usage') group by s
    union all
    select 'execute ' || f.name || ': ' || string_agg(r, ', ' order by r)
    from fns as f cross join roles
    where has_function_privilege(r, f.oid, 'execute') group by f.name
    union all
    select p || ' on ' || c.name || ': ' || string_agg(r, ', ' order by r)
    from rels as c cross join privs cross join roles
    where c.relkind <> 'S' and has_table_privilege(r, c.oid, p) group by c.name, p
    union all
    select x.p || ' on ' || c.name || ': ' || string_agg(r, ', ' order by r)
    from rels as c cross join (values ('usage'), ('select'), ('update')) as x (p) cross join roles
    where c.relkind = 'S' and has_sequence_privilege(r, c.oid, x.p) group by c.name, x.p
    union all
    select p || ' (' || string_agg(a.attname, ', ' order by a.attnum) || ') on ' || c.name || ': ' || r
    from rels as c cross join colprivs cross join roles
    join pg_attribute as a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relkind <> 'S' and not has_table_privilege(r, c.oid, p)
      and has_column_privilege(r, c.oid, a.attnum, p)
    group by c.name, p, r
  ) as x
  order by line`;

const EXPECTED = [
  'delete on public.namecard_profile: authenticated, service_role',
  'delete on public.namecard_visit: service_role',
  'execute private.namecard_cards_where(min_role text): anon, authenticated, service_role',
  'execute private.namecard_pre_request(): anon, authenticated, service_role',
  'execute public.namecard_caller(): anon, authenticated, service_role',
  'execute public.namecard_cancel(entry_id bigint, card text): anon, authenticated, service_role',
  'execute public.namecard_card_add(slug text, name text): authenticated, service_role',
  'execute public.namecard_card_remove(card text): authenticated, service_role',
  'execute public.namecard_card_rename(card text, name text): authenticated, service_role',
  'execute public.namecard_cards(): anon, authenticated, service_role',
  'execute public.namecard_count_visit(via text, card text): anon, authenticated, service_role',
  'execute public.namecard_end_now(card text): anon, authenticated, service_role',
  'execute public.namecard_go(card text): anon, authenticated, service_role',
  'execute public.namecard_member_accept(code text): authenticated, service_role',
  'execute public.namecard_member_invite(role text, card text, valid_seconds integer): authenticated, service_role',
  'execute public.namecard_member_invites(card text): authenticated, service_role',
  'execute public.namecard_member_remove(email text, card text): authenticated, service_role',
  'execute public.namecard_member_revoke_invite(invitation_id bigint, card text): authenticated, service_role',
  'execute public.namecard_member_role(email text, role text, card text): authenticated, service_role',
  'execute public.namecard_members(card text): authenticated, service_role',
  'execute public.namecard_occurrences(card text, from_ms bigint, to_ms bigint): anon, authenticated, service_role',
  'execute public.namecard_preview(at_ms bigint[], card text): anon, authenticated, service_role',
  'execute public.namecard_remove_profile(profile_name text, card text): authenticated, service_role',
  'execute public.namecard_schema_version(): anon, authenticated, service_role',
  'execute public.namecard_set(type text, stamp_start bigint, stamp_end bigint, card text): anon, authenticated, service_role',
  'execute public.namecard_set_series(type text, weekdays smallint[], start_time time without time zone, end_time time without time zone, time_zone text, card text, first_date date, last_date date): anon, authenticated, service_role',
  'execute public.namecard_status(card text): anon, authenticated, service_role',
  'execute public.namecard_token_create(name text, card text, role text, valid_seconds integer): authenticated, service_role',
  'execute public.namecard_token_revoke(name text, card text): authenticated, service_role',
  'execute public.namecard_tokens(card text): authenticated, service_role',
  'execute public.namecard_visit_days(day_starts bigint[], card text): anon, authenticated, service_role',
  'insert (name, label, url, card_id) on public.namecard_profile: authenticated',
  'insert on public.namecard: service_role',
  'insert on public.namecard_card: service_role',
  'insert on public.namecard_profile: service_role',
  'insert on public.namecard_series: service_role',
  'insert on public.namecard_series_stop: service_role',
  'insert on public.namecard_visit: service_role',
  'select on public.namecard: anon, authenticated, service_role',
  'select on public.namecard_card: authenticated, service_role',
  'select on public.namecard_profile: anon, authenticated, service_role',
  'select on public.namecard_series: anon, authenticated, service_role',
  'select on public.namecard_series_stop: anon, authenticated, service_role',
  'select on public.namecard_visit: anon, authenticated, service_role',
  'update (label, url, removed_at) on public.namecard_profile: authenticated',
  'update on public.namecard_card: service_role',
  'update on public.namecard_profile: service_role',
  'update on public.namecard_series: service_role',
  'update on public.namecard_series_stop: service_role',
  'update on public.namecard_visit: service_role',
  'usage on public.namecard_id_seq: service_role',
  'usage on schema private: anon, authenticated, service_role',
  'usage on schema public: anon, authenticated, service_role',
];

describe.each(DB_KINDS)('the grants of the API roles over %s', (kind) => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator(kind);
  });
  afterAll(() => emulator?.stop());

  test('are exactly the expected list', async () => {
    const rows = await emulator.query<{ line: string }>(GRANTS_SQL);
    expect(rows.map((r) => r.line)).toEqual(EXPECTED);
  });

  test('in private, an API role executes only the row-level security helper and the pre-request check', async () => {
    const rows = await emulator.query<{ line: string }>(GRANTS_SQL);
    expect(rows.map((r) => r.line).filter((line) => /^execute private\./.test(line))).toEqual([
      'execute private.namecard_cards_where(min_role text): anon, authenticated, service_role',
      'execute private.namecard_pre_request(): anon, authenticated, service_role',
    ]);
  });

  test('a grant added or removed is found (the comparison can fail)', async () => {
    await emulator.query(`grant execute on function private.namecard_answer(bigint, jsonb) to authenticated;
      revoke select on table public.namecard_series_stop from anon`);
    try {
      const lines = (await emulator.query<{ line: string }>(GRANTS_SQL)).map((r) => r.line);
      expect(lines).toContain(
        'execute private.namecard_answer(card bigint, part jsonb): authenticated',
      );
      expect(lines).toContain('select on public.namecard_series_stop: authenticated, service_role');
      expect(lines).not.toEqual(EXPECTED);
    } finally {
      await emulator.query(`revoke execute on function private.namecard_answer(bigint, jsonb) from authenticated;
        grant select on table public.namecard_series_stop to anon`);
    }
    expect((await emulator.query<{ line: string }>(GRANTS_SQL)).map((r) => r.line)).toEqual(
      EXPECTED,
    );
  });
});
