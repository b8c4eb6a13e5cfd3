import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { run as migra } from '@pgkit/migra';
import pg from 'pg';
import { parse as parseToml } from 'smol-toml';
import {
  findPostgresBinDir,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../tests/support/postgres.js';
import { layOutSupabase } from '../tests/support/supabase-layout.js';

// The database has two texts: supabase/migrations/ (the deployment history, applied once each
// by hosted Supabase and the emulator) and supabase/schemas/ (the current form of every object,
// Supabase's declarative schemas). This module builds a database from each on PostgreSQL laid
// out as Supabase's images, and tells how they differ: `npm run db:diff` writes the difference
// as a new migration, and tests/emulator/schema-files.test.ts fails while there is one.

const run = promisify(execFile);

/** The repository's `supabase/` folder. */
export const SUPABASE_DIR = fileURLToPath(new URL('../supabase/', import.meta.url));

/** The migrations, `<version>_<name>.sql`, applied in file-name order. */
export const MIGRATIONS_DIR = path.join(SUPABASE_DIR, 'migrations');

/** The schemas the project owns; every other one (auth, the ledger, the catalogs) is Supabase's. */
export const PROJECT_SCHEMAS = ['public', 'private'] as const;

/**
 * The schema files, in the order they apply: `[db.migrations] schema_paths` of
 * supabase/config.toml, each relative to supabase/ (as the Supabase CLI reads them).
 * @returns absolute paths of the files
 * @throws Error when the setting is missing, names a file that does not exist, or a pattern
 *   (this reader takes plain file paths only)
 */
export async function schemaPaths(): Promise<string[]> {
  const config = parseToml(await readFile(path.join(SUPABASE_DIR, 'config.toml'), 'utf8')) as {
    db?: { migrations?: { schema_paths?: unknown } };
  };
  const paths = config.db?.migrations?.schema_paths;
  if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string')) {
    throw new Error(
      'supabase/config.toml: `[db.migrations] schema_paths` must list the schema files',
    );
  }
  const files = await readdir(path.join(SUPABASE_DIR, 'schemas'));
  return paths.map((p) => {
    if (/[*?[]/.test(p)) throw new Error(`schema_paths: name each file, not a pattern: \`${p}\``);
    const file = path.resolve(SUPABASE_DIR, p);
    if (
      path.dirname(file) !== path.join(SUPABASE_DIR, 'schemas') ||
      !files.includes(path.basename(file))
    ) {
      throw new Error(`schema_paths: \`${p}\` is not a file of supabase/schemas/`);
    }
    return file;
  });
}

/** The migration files in the order they apply. */
export async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR))
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => path.join(MIGRATIONS_DIR, f));
}

/** Runs `sql` in one transaction on `url`, naming `label` when it fails. */
async function applyFile(url: string, file: string, sql?: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(sql ?? (await readFile(file, 'utf8')));
    await client.query('commit');
  } catch (e) {
    throw new Error(`${path.relative(SUPABASE_DIR, file)}: ${(e as Error).message}`, { cause: e });
  } finally {
    await client.end();
  }
}

/**
 * Applies SQL files to a database in order, each in its own transaction, as the connection's
 * role (`postgres` on a Supabase layout, as `supabase db push` runs them).
 * @throws Error naming the file whose statement failed
 */
export async function applyFiles(url: string, files: readonly string[]): Promise<void> {
  for (const file of files) await applyFile(url, file);
}

/** Two databases of one throwaway server, laid out as Supabase's images. */
export interface SchemaDatabases {
  /** `postgres`' connection string to the database built from supabase/migrations/. */
  migrated: string;
  /** `postgres`' connection string to the database built from supabase/schemas/. */
  declared: string;
  /** Stops the server and deletes its files. */
  stop(): Promise<void>;
}

/**
 * Starts a throwaway PostgreSQL server, lays out two databases as Supabase's images and builds
 * one from the migrations, the other from the schema files.
 * @throws Error naming the file that failed to apply (the server is stopped then)
 */
export async function buildSchemaDatabases(): Promise<SchemaDatabases> {
  const server: ThrowawayPostgres = await startThrowawayPostgres({ superuser: 'supabase_admin' });
  try {
    const migrated = await layOutSupabase(server.url, { database: 'from_migrations' });
    const declared = await layOutSupabase(server.url, { database: 'from_schemas' });
    await applyFiles(migrated, await migrationFiles());
    await applyFiles(declared, await schemaPaths());
    return { migrated, declared, stop: () => server.stop() };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** Every schema of the database at `url` that the project does not own. */
async function foreignSchemas(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ nspname: string }>(
    `select nspname from pg_namespace where nspname <> all ($1::text[]) order by 1`,
    [PROJECT_SCHEMAS],
  );
  return rows.map((r) => r.nspname);
}

/**
 * Every table, view, column and function of the project's schemas, by the target of a `comment
 * on` statement (`view public.v`, `column public.t.c`, `function public.f(x bigint)`), with its
 * comment or null.
 */
async function comments(url: string): Promise<Map<string, string | null>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ target: string; comment: string | null }>(
      `select case c.relkind when 'v' then 'view ' else 'table ' end
                || format('%I.%I', n.nspname, c.relname) as target,
              obj_description(c.oid, 'pg_class') as comment
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any ($1) and c.relkind in ('r', 'v', 'p')
       union all
       select 'column ' || format('%I.%I.%I', n.nspname, c.relname, a.attname),
              col_description(c.oid, a.attnum)
         from pg_attribute a join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any ($1) and c.relkind in ('r', 'v', 'p')
          and a.attnum > 0 and not a.attisdropped
       union all
       select 'function ' || format('%I.%I(%s)', n.nspname, p.proname,
                pg_get_function_identity_arguments(p.oid)), obj_description(p.oid, 'pg_proc')
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = any ($1)`,
      [PROJECT_SCHEMAS],
    );
    return new Map(rows.map((r) => [r.target, r.comment]));
  } finally {
    await client.end();
  }
}

/** One privilege: `grant <privilege> on <target> to <grantee>` (columns: `(col) on table …`). */
interface Privilege {
  /** `table public.x`, `sequence public.s`, `function public.f(bigint)`, `schema private`; a column's table. */
  target: string;
  /** `select`, `insert (stamp_end)`, `execute`, `usage` … */
  privilege: string;
  /** A role's name, or `public`. */
  grantee: string;
}

const PRIVILEGES_QUERY = `
  with objects as (
    select case c.relkind when 'S' then 'sequence ' else 'table ' end
             || format('%I.%I', n.nspname, c.relname) as target, null::text as col,
           coalesce(c.relacl, acldefault((case c.relkind when 'S' then 's' else 'r' end)::"char", c.relowner)) as acl,
           c.relowner as owner
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any ($1) and c.relkind in ('r', 'v', 'p', 'S')
    union all
    select 'table ' || format('%I.%I', n.nspname, c.relname), format('%I', a.attname), a.attacl, c.relowner
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any ($1) and a.attacl is not null and a.attnum > 0 and not a.attisdropped
    union all
    select 'function ' || format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)),
           null, coalesce(p.proacl, acldefault('f'::"char", p.proowner)), p.proowner
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = any ($1)
    union all
    select 'schema ' || format('%I', n.nspname), null, coalesce(n.nspacl, acldefault('n'::"char", n.nspowner)), n.nspowner
      from pg_namespace n where n.nspname = any ($1)
  )
  select o.target, lower(x.privilege_type) || coalesce(' (' || o.col || ')', '')
           || case when x.is_grantable then ' with grant option' else '' end as privilege,
         case when x.grantee = 0 then 'public' when r.rolname is not null
           then format('%I', r.rolname) end as grantee
    from objects o left join lateral aclexplode(o.acl) x on x.grantee <> o.owner
    left join pg_roles r on r.oid = x.grantee`;

/**
 * Every privilege held on the project's tables, views, sequences, columns, functions and schemas
 * by a role other than the owner, and every such object (`targets`), with privileges or not.
 */
async function privileges(url: string): Promise<{ targets: Set<string>; grants: Privilege[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      target: string;
      privilege: string | null;
      grantee: string | null;
    }>(PRIVILEGES_QUERY, [PROJECT_SCHEMAS]);
    return {
      targets: new Set(rows.map((r) => r.target)),
      grants: rows.flatMap((r) =>
        r.privilege !== null && r.grantee !== null
          ? [{ target: r.target, privilege: r.privilege, grantee: r.grantee }]
          : [],
      ),
    };
  } finally {
    await client.end();
  }
}

/** `grant insert (c) on table t to r` from a privilege of a column, `grant select on table t …` otherwise. */
function privilegeStatement(verb: 'grant' | 'revoke', p: Privilege): string {
  const option = p.privilege.endsWith(' with grant option');
  const bare = p.privilege.replace(/ with grant option$/, '');
  const [, kind = '', column] = /^(\w+)(?: \((.+)\))?$/.exec(bare) ?? [];
  const what = column ? `${kind} (${column})` : kind;
  return verb === 'grant'
    ? `grant ${what} on ${p.target} to ${p.grantee}${option ? ' with grant option' : ''};`
    : `revoke ${what} on ${p.target} from ${p.grantee};`;
}

/**
 * The grants and revokes that give `to`'s privileges to `from`. An object new in `to`, or one
 * the migration drops and creates again (`recreated`), first loses every privilege it may have
 * been created with (hosted Supabase's default privileges grant new objects of public to the
 * API roles), then gets `to`'s.
 */
async function privilegeChanges(
  from: string,
  to: string,
  recreated: ReadonlySet<string>,
): Promise<string[]> {
  const [before, after] = await Promise.all([privileges(from), privileges(to)]);
  const key = (p: Privilege) => `${p.target}|${p.privilege}|${p.grantee}`;
  const existing = new Set([...before.targets].filter((t) => !recreated.has(t)));
  const had = new Set(before.grants.filter((p) => existing.has(p.target)).map(key));
  const has = new Set(after.grants.map(key));
  const statements: string[] = [];
  for (const target of after.targets) {
    if (!existing.has(target) && !target.startsWith('schema ')) {
      statements.push(`revoke all on ${target} from public, anon, authenticated, service_role;`);
    }
  }
  for (const p of before.grants) {
    if (existing.has(p.target) && after.targets.has(p.target) && !has.has(key(p))) {
      statements.push(privilegeStatement('revoke', p));
    }
  }
  for (const p of after.grants) {
    if (!had.has(key(p))) statements.push(privilegeStatement('grant', p));
  }
  return statements;
}

/** The options (`security_invoker = true`) of every view of the project's schemas. */
async function viewOptions(url: string): Promise<Map<string, string[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ view: string; options: string[] | null }>(
      `select format('%I.%I', n.nspname, c.relname) as view, c.reloptions as options
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'v' and n.nspname = any ($1)`,
      [PROJECT_SCHEMAS],
    );
    return new Map(rows.map((r) => [r.view, r.options ?? []]));
  } finally {
    await client.end();
  }
}

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/**
 * The settings (`set search_path = ''`, `set jit = 'off'` …) of every function of the project's
 * schemas, by `schema.name(identity arguments)`: migra compares a function's body and signature,
 * not these.
 */
async function functionSettings(url: string): Promise<Map<string, string[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ fn: string; config: string[] | null }>(
      `select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
                as fn, p.proconfig as config
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = any ($1)`,
      [PROJECT_SCHEMAS],
    );
    return new Map(rows.map((r) => [r.fn, r.config ?? []]));
  } finally {
    await client.end();
  }
}

/** `alter function` statements giving the functions both databases have `to`'s settings. */
async function settingChanges(from: string, to: string, migraSql: string): Promise<string[]> {
  const [before, after] = await Promise.all([functionSettings(from), functionSettings(to)]);
  const statements: string[] = [];
  for (const [fn, config] of after) {
    const was = before.get(fn);
    const name = fn.slice(0, fn.indexOf('('));
    const remade = new RegExp(`create or replace function ${name.replace('.', '\\.')}\\(`, 'i');
    if (was === undefined || was.join('\n') === config.join('\n') || remade.test(migraSql))
      continue;
    statements.push(`alter function ${fn} reset all;`);
    for (const setting of config) {
      const [key = '', value = ''] = setting.split(/=(.*)/s);
      statements.push(`alter function ${fn} set ${key} = ${literal(value)};`);
    }
  }
  return statements;
}

/**
 * The objects a migra script drops that `to` still has, so that it creates them again: their
 * privileges and comments are then `to`'s to restore. As privilege targets (`table public.v`
 * for a view too) and comment targets (`view public.v`).
 */
function droppedObjects(migraSql: string): Set<string> {
  const objects = new Set<string>();
  const drops = /drop (view|function|table) if exists "([^"]+)"\."([^"]+)"(\([^)]*\))?/gi;
  for (const [, kind = '', schema, name, args = ''] of migraSql.matchAll(drops)) {
    const object = `${schema}.${name}${args}`;
    if (kind.toLowerCase() === 'view') objects.add(`view ${object}`).add(`table ${object}`);
    else objects.add(`${kind.toLowerCase()} ${object}`);
  }
  return objects;
}

/**
 * What migra leaves out and this project uses: function settings (`set jit = 'off'`: migra
 * compares only bodies and signatures), privileges beyond whole tables (migra compares only
 * table grants: not those of views, columns, functions, sequences or schemas), comments (not
 * compared) and view options such as `security_invoker` (migra re-creates a changed view
 * without them, and `create or replace view` without a `with` clause drops them). Statements
 * that make `from` say what `to` says.
 */
async function supplements(from: string, to: string, migraSql: string): Promise<string[]> {
  const recreated = droppedObjects(migraSql);
  const statements: string[] = [
    ...(await settingChanges(from, to, migraSql)),
    ...(await privilegeChanges(from, to, recreated)),
  ];
  const [before, after] = await Promise.all([comments(from), comments(to)]);
  for (const [target, comment] of after) {
    const was = recreated.has(target) ? null : (before.get(target) ?? null);
    if (was !== comment) {
      statements.push(`comment on ${target} is ${comment === null ? 'null' : literal(comment)};`);
    }
  }
  const [oldViews, newViews] = await Promise.all([viewOptions(from), viewOptions(to)]);
  for (const [view, options] of newViews) {
    const [schema, name] = view.split('.');
    const remade = new RegExp(`create (or replace )?view "${schema}"\\."${name}"`, 'i').test(
      migraSql,
    );
    const changed = (oldViews.get(view) ?? []).join(',') !== options.join(',');
    if ((remade || changed) && options.length > 0) {
      statements.push(`alter view ${view} set (${options.join(', ')});`);
    }
  }
  return statements;
}

/**
 * migra's statements in an order that applies. migra creates views after functions and drops
 * functions first, so: a view that calls none of the project's functions (a plain select of a
 * table, whose row type a function may take) is made before the functions; a function that
 * goes for good is dropped after the views are made again (a view re-created with `create or
 * replace` may still use it until then); and function bodies are checked when called, not when
 * created (as pg_dump's scripts do), so that functions may refer to each other in any order.
 */
function applicableOrder(statements: string[], target: ReadonlySet<string>): string[] {
  const removed = (s: string) => {
    const m = /^drop function if exists "([^"]+)"\."([^"]+)"/i.exec(s);
    return m !== null && !target.has(`${m[1]}.${m[2]}`);
  };
  const isView = (s: string) => /^create (or replace )?view /i.test(s);
  const plainView = (s: string) => isView(s) && !/\b(is_)?namecard_\w*\(/i.test(s);
  const isDrop = (s: string) => /^drop /i.test(s);
  const rest = statements.filter((s) => !removed(s) && !plainView(s));
  const firstCreate = rest.findIndex((s) => !isDrop(s) && !/^set /i.test(s));
  const head = firstCreate < 0 ? rest : rest.slice(0, firstCreate);
  const tail = firstCreate < 0 ? [] : rest.slice(firstCreate);
  const lastView = tail.findLastIndex(isView);
  const bodies = statements.includes('set check_function_bodies = off;')
    ? []
    : ['set check_function_bodies = off;'];
  return [
    ...bodies,
    ...head,
    ...statements.filter(plainView),
    ...tail.slice(0, lastView + 1),
    ...statements.filter(removed),
    ...tail.slice(lastView + 1),
  ];
}

/** The names (`schema.name`) of the functions of the project's schemas at `url`. */
async function functionNames(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select distinct n.nspname || '.' || p.proname as name
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = any ($1)`,
      [PROJECT_SCHEMAS],
    );
    return new Set(rows.map((r) => r.name));
  } finally {
    await client.end();
  }
}

/**
 * The statements that turn the database at `from` into the one at `to`, in the project's
 * schemas (public, private): migra's (@pgkit/migra, the diff engine behind `supabase db diff`),
 * then the privileges, comments and view options migra leaves out. Empty when the two agree.
 * @param from connection string of the database to change
 * @param to connection string of the database to reach
 */
export async function schemaDifference(from: string, to: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: to });
  await client.connect();
  const excludeSchema = await foreignSchemas(client).finally(() => client.end());
  // Privileges are compared by privilegeChanges, for every kind of object, not by migra.
  const migration = await migra(from, to, { unsafe: true, withPrivileges: false, excludeSchema });
  const migraSql = migration.sql;
  const statements = [...migration.statements]
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (s.endsWith(';') ? s : `${s};`));
  const extra = await supplements(from, to, migraSql);
  if (statements.length === 0 && extra.length === 0) return [];
  return [...applicableOrder(statements, await functionNames(to)), ...extra];
}

/** Sorts each run of consecutive GRANT/REVOKE lines: the order of an ACL's items means nothing. */
function sortPrivileges(lines: string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  for (const line of [...lines, '']) {
    if (/^(GRANT|REVOKE) /.test(line)) {
      run.push(line);
      continue;
    }
    out.push(...run.sort(), line);
    run = [];
  }
  return out.slice(0, -1);
}

/**
 * The project's schemas of the database at `url` as pg_dump writes them (schema only), minus
 * the lines that differ between two dumps of one database (the restrict key), each object's
 * privileges in a fixed order. Two databases with the same text have the same tables, columns,
 * constraints, indexes, functions, views, triggers, policies, grants, comments and owners.
 */
export async function dumpSchema(url: string): Promise<string> {
  const bin = findPostgresBinDir();
  const pgDump = bin ? path.join(bin, 'pg_dump') : 'pg_dump';
  const args = ['--schema-only', ...PROJECT_SCHEMAS.flatMap((s) => ['--schema', s]), url];
  const { stdout } = await run(pgDump, args, { maxBuffer: 64 * 1024 * 1024 });
  const lines = stdout
    .split('\n')
    .filter((line) => !/^\\(un)?restrict /.test(line) && !/^-- Dumped (from|by) /.test(line));
  return sortPrivileges(lines).join('\n');
}
