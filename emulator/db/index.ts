export type { Db, DbError, Queryable } from './types.js';
export { isDbError } from './types.js';
export { openPglite } from './pglite.js';
export { openPostgres } from './postgres.js';
