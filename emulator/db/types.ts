/**
 * The emulator's view of a database: PGlite (embedded, single connection) or a
 * PostgreSQL server reached through a `pg` pool. Both adapters return rows as plain
 * objects with the same value types: bigint as a JS number (every bigint the project
 * stores is an id or an epoch-ms stamp, both far below 2^53), timestamptz as Date,
 * json/jsonb parsed, uuid as string.
 */
export interface Queryable {
  /**
   * Runs one parameterised statement (`$1`, `$2`, …) and returns its rows. Without
   * parameters the SQL may hold several statements; the rows are the last one's.
   * @throws the database error (with its SQLSTATE in `code`) when a statement fails.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs a script of several statements without parameters (migrations, bootstrap).
   * @throws the database error of the first failing statement.
   */
  exec(script: string): Promise<void>;
}

/** The role API requests log in as (Supabase's PostgREST connects as it too). */
export const API_LOGIN_ROLE = 'authenticator';

/**
 * One emulator database, PGlite or a PostgreSQL server: queries as the superuser, and
 * transactions as the superuser or as the API login role.
 */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` inside BEGIN … COMMIT on one connection; rolls back and rethrows when
   * `fn` throws or a statement fails. On PGlite transactions run one at a time.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Like `transaction`, but as the API login role `authenticator` (not a superuser),
   * for PostgREST requests: inside, `set_config('role', …)` may switch only to roles
   * `authenticator` is a member of, as PostgREST's authenticator connection can.
   * PostgreSQL: a second pool logged in as `authenticator`; PGlite: see pglite.ts.
   * @throws like `transaction`; on PostgreSQL also when `authenticator` cannot log in.
   */
  apiTransaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Closes every connection (PGlite: flushes and closes the data directory). */
  close(): Promise<void>;
}

/** A database error as both drivers report it (SQLSTATE in `code`). */
export interface DbError extends Error {
  code?: string;
  detail?: string;
  hint?: string;
  constraint?: string;
  table?: string;
  column?: string;
}

/** True when `e` carries a SQLSTATE code, i.e. came from Postgres itself. */
export function isDbError(e: unknown): e is DbError & { code: string } {
  return (
    e instanceof Error &&
    typeof (e as DbError).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((e as DbError).code ?? '')
  );
}

/** Parses an int8 text value to a number (see the module comment). */
export function parseInt8(text: string): number {
  return Number(text);
}
