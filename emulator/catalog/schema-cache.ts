import { API_LOGIN_ROLE, type Queryable } from '../db/index.js';

/**
 * Whether API requests may switch to a role: `allowed` when the login role
 * `authenticator` is a member of it (anon, authenticated, service_role, and itself, as
 * PostgreSQL allows `SET ROLE` to the session user), `missing` when no such role exists,
 * `denied` otherwise (the superuser, pg_* roles).
 */
export type RoleAccess = 'allowed' | 'missing' | 'denied';

/** The privileges a REST write needs: POST, PATCH, DELETE. */
export type WritePrivilege = 'INSERT' | 'UPDATE' | 'DELETE';

/** One column of a table or view of the exposed schema. */
export interface ColumnInfo {
  name: string;
  /** Whether an insert may leave it out (default, identity or generated). */
  hasDefault: boolean;
}

/** A table or view of the exposed schema, as requests may name it. */
export interface TableInfo {
  schema: string;
  name: string;
  /** Its columns by name. */
  columns: Map<string, ColumnInfo>;
}

/** An input parameter of a function, in declaration order. */
export interface RoutineParam {
  /** The declared name; '' for an unnamed parameter. */
  name: string;
  /** The type as PostgreSQL spells it (format_type), used as the cast of its argument. */
  type: string;
  /** False when the parameter has a default. */
  required: boolean;
  variadic: boolean;
}

/** One function of the exposed schema (one overload of a name), as PostgREST caches it. */
export interface RoutineInfo {
  oid: number;
  schema: string;
  name: string;
  params: RoutineParam[];
  /** `returns setof …` / `returns table (…)`. */
  returnsSet: boolean;
  returnsVoid: boolean;
  /**
   * Column names of a composite result (a table's row type, a composite type, or
   * OUT/TABLE parameters); undefined for a scalar result (including `record`).
   */
  columns?: string[];
  /** pg_proc.provolatile: immutable, stable or volatile. */
  volatility: 'i' | 's' | 'v';
  /**
   * The return type's name, which PostgreSQL qualifies the result's columns with in the errors
   * PostgREST 12 passes on: a table's row type, or `record` for OUT/TABLE parameters.
   */
  relation: string;
}

/**
 * Table and column names of the exposed schema, read from the catalog as the
 * superuser (so the answer does not depend on the request's role). Every name in a
 * request is checked against it before it reaches SQL. Found tables are cached
 * for `ttlMs`; misses are not, so a table created later is found at once.
 */
export class SchemaCache {
  private readonly tables = new Map<string, { info: TableInfo; at: number }>();
  private readonly roles = new Map<
    string,
    { settings: { names: string[]; values: string[] }; at: number }
  >();

  private readonly access = new Map<string, { access: RoleAccess; at: number }>();

  private readonly routines = new Map<string, { list: RoutineInfo[]; at: number }>();

  private readonly privileges = new Map<
    string,
    { answer: { granted: boolean; kind: string }; at: number }
  >();

  constructor(private readonly ttlMs = 5_000) {}

  /**
   * Decides from the catalog's role memberships whether a request may run as
   * `role`, as PostgreSQL decides PostgREST's `SET ROLE` from its login role.
   * Existing roles are cached like tables.
   */
  async roleAccess(db: Queryable, role: string): Promise<RoleAccess> {
    const hit = this.access.get(role);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.access;
    const [row] = await db.query<{ member: boolean }>(
      `select pg_has_role($2, r.oid, 'member') as member
       from pg_catalog.pg_roles r where r.rolname = $1`,
      [role, API_LOGIN_ROLE],
    );
    const access: RoleAccess = !row ? 'missing' : row.member ? 'allowed' : 'denied';
    // Misses are not kept: any signed token could fill the cache with invented names.
    if (access !== 'missing') this.access.set(role, { access, at: Date.now() });
    return access;
  }

  /** The table, or undefined when `schema.name` is no table or view. */
  async table(db: Queryable, schema: string, name: string): Promise<TableInfo | undefined> {
    const key = `${schema}.${name}`;
    const hit = this.tables.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.info;
    const rows = await db.query<{ name: string; has_default: boolean }>(
      `select a.attname as name,
              (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as has_default
       from pg_catalog.pg_attribute a
       join pg_catalog.pg_class c on c.oid = a.attrelid
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p', 'v', 'm', 'f')
         and a.attnum > 0 and not a.attisdropped
       order by a.attnum`,
      [schema, name],
    );
    if (rows.length === 0) {
      this.tables.delete(key);
      return undefined;
    }
    const info: TableInfo = {
      schema,
      name,
      columns: new Map(rows.map((r) => [r.name, { name: r.name, hasDefault: r.has_default }])),
    };
    this.tables.set(key, { info, at: Date.now() });
    return info;
  }

  /**
   * Every callable overload of the function `schema.name` (plain functions, not
   * procedures, aggregates or trigger functions; at most one unnamed parameter, as
   * PostgREST keeps only those), read from the catalog as the superuser. Found
   * names are cached like tables; with `fresh` (after a cached entry matched no
   * argument set) the catalog is read again, so functions created or replaced at
   * run time are found at once.
   * @returns the overloads (none: no such function), and whether they came from the cache.
   */
  async routine(
    db: Queryable,
    schema: string,
    name: string,
    opts: { fresh?: boolean } = {},
  ): Promise<{ overloads: RoutineInfo[]; cached: boolean }> {
    const key = `${schema}.${name}`;
    const hit = this.routines.get(key);
    if (!opts.fresh && hit && Date.now() - hit.at < this.ttlMs) {
      return { overloads: hit.list, cached: true };
    }
    const rows = await db.query<RoutineRow>(ROUTINE_SQL, [schema, name]);
    const list = rows.map((r) => toRoutine(schema, name, r)).filter((r) => r !== undefined);
    if (list.length === 0) this.routines.delete(key);
    else this.routines.set(key, { list, at: Date.now() });
    return { overloads: list, cached: false };
  }

  /** Names of all functions in `schema`, for PGRST202's "Perhaps you meant" hint. */
  async routineNames(db: Queryable, schema: string): Promise<string[]> {
    const rows = await db.query<{ name: string }>(
      `select distinct p.proname as name from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
       where n.nspname = $1 and p.prokind = 'f'
         and p.prorettype <> 'pg_catalog.trigger'::pg_catalog.regtype`,
      [schema],
    );
    return rows.map((r) => r.name);
  }

  /**
   * The role's `ALTER ROLE … SET` settings (for this database or all), which
   * PostgREST ≥ 11.1 applies transaction-locally to every request it runs as that
   * role ("impersonated role settings"). Cached like tables.
   */
  async roleSettings(db: Queryable, role: string): Promise<{ names: string[]; values: string[] }> {
    const hit = this.roles.get(role);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.settings;
    const rows = await db.query<{ setting: string }>(
      `select unnest(s.setconfig) as setting
       from pg_catalog.pg_db_role_setting s
       join pg_catalog.pg_roles r on r.oid = s.setrole
       where r.rolname = $1
         and s.setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_database()))
       order by s.setdatabase`,
      [role],
    );
    const byName = new Map<string, string>();
    for (const { setting } of rows) {
      const eq = setting.indexOf('=');
      if (eq > 0) byName.set(setting.slice(0, eq), setting.slice(eq + 1));
    }
    const settings = { names: [...byName.keys()], values: [...byName.values()] };
    this.roles.set(role, { settings, at: Date.now() });
    return settings;
  }

  /**
   * Whether `role` holds `privilege` on the table at all: for INSERT and UPDATE on the
   * table or on any of its columns (has_any_column_privilege), for DELETE on the table
   * (has_table_privilege). False means the statement can only fail with 42501
   * "permission denied for table …"; true says nothing about row-level security.
   * Cached like tables; `role` must exist (checked by roleAccess first).
   * @returns whether it is granted, and the relation's kind as PostgreSQL names it in
   * that error ("table", "view", …); undefined when `schema.name` is no table or view.
   */
  async hasPrivilege(
    db: Queryable,
    role: string,
    schema: string,
    name: string,
    privilege: WritePrivilege,
  ): Promise<{ granted: boolean; kind: string } | undefined> {
    const key = `${role}\u0000${schema}.${name}\u0000${privilege}`;
    const hit = this.privileges.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.answer;
    const check = privilege === 'DELETE' ? 'has_table_privilege' : 'has_any_column_privilege';
    const [row] = await db.query<{ granted: boolean; kind: string }>(
      `select ${check}($1, c.oid, $4) as granted,
              case c.relkind when 'v' then 'view' when 'm' then 'materialized view'
                when 'f' then 'foreign table' else 'table' end as kind
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $2 and c.relname = $3 and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
      [role, schema, name, privilege],
    );
    if (!row) return undefined;
    const answer = { granted: row.granted, kind: row.kind };
    this.privileges.set(key, { answer, at: Date.now() });
    return answer;
  }

  /** Forgets everything (PostgREST's schema cache reload). */
  clear(): void {
    this.tables.clear();
    this.roles.clear();
    this.access.clear();
    this.routines.clear();
    this.privileges.clear();
  }
}

interface RoutineRow {
  oid: number | string;
  returns_set: boolean;
  returns_void: boolean;
  volatility: 'i' | 's' | 'v';
  /** Every parameter (in, out, inout, variadic, table) in declaration order. */
  args: { name: string | null; type: string; mode: string | null }[] | string;
  n_defaults: number;
  /** Attributes of a composite return type, or null. */
  type_columns: string[] | string | null;
  /** The return type's name. */
  type_name: string;
}

// All parameters with their modes (proallargtypes exists only when some are not IN),
// and the attributes of a composite return type. Trigger functions are left out.
const ROUTINE_SQL = `select p.oid::int8 as oid, p.proretset as returns_set,
  p.prorettype = 'pg_catalog.void'::pg_catalog.regtype as returns_void,
  p.provolatile as volatility, p.pronargdefaults as n_defaults, t.typname as type_name,
  coalesce((select json_agg(json_build_object('name', a.name, 'type', pg_catalog.format_type(a.type, null), 'mode', a.mode) order by a.idx)
    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargnames, p.proargmodes)
      with ordinality as a(type, name, mode, idx)
    where a.type is not null), '[]')::text as args,
  case when t.typtype = 'c' then
    (select json_agg(at.attname order by at.attnum) from pg_catalog.pg_attribute at
     where at.attrelid = t.typrelid and at.attnum > 0 and not at.attisdropped)::text
  end as type_columns
from pg_catalog.pg_proc p
join pg_catalog.pg_namespace n on n.oid = p.pronamespace
join pg_catalog.pg_type t on t.oid = p.prorettype
where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'
  and p.prorettype <> 'pg_catalog.trigger'::pg_catalog.regtype`;

const parseJson = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** A catalog row as a RoutineInfo; undefined when PostgREST could not call it (2+ unnamed inputs). */
function toRoutine(schema: string, name: string, row: RoutineRow): RoutineInfo | undefined {
  const args = parseJson(row.args);
  const inputs = args.filter((a) => a.mode === null || ['i', 'b', 'v'].includes(a.mode));
  const outputs = args.filter((a) => a.mode !== null && ['o', 'b', 't'].includes(a.mode));
  if (inputs.filter((a) => !a.name).length > 1) return undefined;
  const firstOptional = inputs.length - Number(row.n_defaults);
  const params = inputs.map((a, i) => ({
    name: a.name ?? '',
    type: a.type,
    required: i < firstOptional,
    variadic: a.mode === 'v',
  }));
  const typeColumns = row.type_columns === null ? undefined : parseJson(row.type_columns);
  // OUT/TABLE parameters make the result a row of those columns, as in PostgREST.
  const columns = outputs.length > 0 ? outputs.map((a) => a.name ?? '') : typeColumns;
  return {
    oid: Number(row.oid),
    schema,
    name,
    params,
    returnsSet: row.returns_set,
    returnsVoid: row.returns_void,
    volatility: row.volatility,
    relation: row.type_name,
    ...(columns ? { columns } : {}),
  };
}
