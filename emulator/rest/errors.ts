import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DbError } from '../db/index.js';

/** An error answered by /rest/v1 with PostgREST's `{code, message, details, hint}`. */
export class RestError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
    this.name = 'RestError';
  }

  toJSON() {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/**
 * PostgREST's HTTP status for a PostgreSQL SQLSTATE (Error.hs `pgErrorStatus`).
 * 42501 (insufficient privilege, including RLS) is 401 for the anon role and 403
 * for any signed-in role; `PTxyz` is status xyz (500 when xyz is no contentful
 * status, which Hono could not send with a body); anything not listed is 400.
 */
export function pgErrorStatus(sqlstate: string, isAnon: boolean): ContentfulStatusCode {
  if (sqlstate === '42501') return isAnon ? 401 : 403;
  // A function's `raise sqlstate 'PT402'` answers HTTP 402 (errors.rst "RAISE errors
  // with HTTP Status Codes"); PostgREST answers 500 when the digits are no number.
  if (sqlstate.startsWith('PT')) {
    const status = /^\d{3}$/.test(sqlstate.slice(2)) ? Number(sqlstate.slice(2)) : 500;
    return (
      status >= 200 && status <= 599 && status !== 204 && status !== 205 && status !== 304
        ? status
        : 500
    ) as ContentfulStatusCode;
  }
  if (sqlstate === '23503' || sqlstate === '23505') return 409;
  if (sqlstate === '25006') return 405;
  if (sqlstate === '42883' || sqlstate === '42P01') return 404;
  if (sqlstate === 'P0001') return 400;
  if (sqlstate === '42P17') return 500;
  const cls = sqlstate.slice(0, 2);
  if (cls === '08' || cls === '53') return 503;
  if (cls === '0L' || cls === '0P' || cls === '28') return 403;
  const serverSide = [
    '09',
    '25',
    '2D',
    '38',
    '39',
    '3B',
    '40',
    '54',
    '55',
    '57',
    '58',
    'F0',
    'HV',
    'P0',
    'XX',
  ];
  if (serverSide.includes(cls)) return 500;
  return 400;
}

/** Turns a database error into the PostgREST error answer. */
export function fromDbError(e: DbError & { code: string }, isAnon: boolean): RestError {
  return new RestError(
    pgErrorStatus(e.code, isAnon),
    e.code,
    e.message,
    e.detail ?? null,
    e.hint ?? null,
  );
}

/** PostgREST 12's answer for a table or view the schema cache does not hold: 404 42P01. */
export const tableNotFound = (schema: string, table: string) =>
  new RestError(404, '42P01', `relation "${schema}.${table}" does not exist`);

/** PostgREST's answer to a query string it cannot parse: 400 PGRST100 with the details. */
export const parseError = (message: string, details: string) =>
  new RestError(400, 'PGRST100', message, details);

/**
 * PostgREST 12's answer to a select that embeds a resource no foreign key relates to the table
 * (`select=*,created_by(*)`): 400 PGRST200. The emulator embeds nothing, so it answers every
 * embedding so; its hint (PostgREST's nearest related table) is left null.
 */
export const noRelationship = (schema: string, table: string, embed: string) =>
  new RestError(
    400,
    'PGRST200',
    `Could not find a relationship between '${table}' and '${embed}' in the schema cache`,
    `Searched for a foreign key relationship between '${table}' and '${embed}' in the schema '${schema}', but no matches were found.`,
  );
