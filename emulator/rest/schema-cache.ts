import { API_LOGIN_ROLE, type Queryable } from '../db/index.js';

/**
 * Whether API requests may switch to a role: `allowed` when the login role
 * `authenticator` is a member of it (anon, authenticated, service_role), `missing`
 * when no such role exists, `denied` otherwise (the superuser, pg_* roles,
 * authenticator itself).
 */
export type RoleAccess = 'allowed' | 'missing' | 'denied';

/** The privileges a REST write needs: POST, PATCH, DELETE. */
export type WritePrivilege = 'INSERT' | 'UPDATE' | 'DELETE';

export interface ColumnInfo {
  name: string;
  /** Whether an insert may leave it out (default, identity or generated). */
  hasDefault: boolean;
}

export interface TableInfo {
  schema: string;
  name: string;
  columns: Map<string, ColumnInfo>;
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
      `select r.rolname <> $2 and pg_has_role($2, r.oid, 'member') as member
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
    this.privileges.clear();
  }
}
