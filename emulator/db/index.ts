export type { Db, DbError, Queryable } from './types.js';
export { API_LOGIN_ROLE, isDbError } from './types.js';
export { openPglite } from './pglite.js';
export { openPostgres } from './postgres.js';
