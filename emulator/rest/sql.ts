import { RestError } from './errors.js';
import type { Filter, OrderTerm, ParsedQuery, SelectItem } from './query.js';
import type { RoutineInfo, RoutineParam, TableInfo } from '../catalog/schema-cache.js';

/**
 * SQL for the PostgREST subset. Own code (PostgREST's query builder is Haskell).
 * Safety: identifiers come only from the schema cache (unknown names are rejected
 * before any SQL is built) and are quoted; every value is a bound parameter; limit
 * and offset are validated integers. Results are rendered to JSON by Postgres
 * (json_agg), as PostgREST does, so bigint, numeric and timestamps keep their
 * PostgreSQL text form.
 */

export interface Statement {
  sql: string;
  params: unknown[];
}

/** Double-quotes an identifier, doubling embedded quotes. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const qualified = (t: TableInfo) => `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;

/**
 * Checks a column name against the table.
 * @throws RestError 400 42703 `column <table>.<name> does not exist`, PostgreSQL's text.
 */
export function column(table: TableInfo, name: string): string {
  if (!table.columns.has(name)) {
    throw new RestError(400, '42703', `column ${table.name}.${name} does not exist`);
  }
  return quoteIdent(name);
}

function selectList(table: TableInfo, items: SelectItem[], qualifier = ''): string {
  return items
    .map((item) => {
      if (item.column === '*') return `${qualifier}*`;
      const col = column(table, item.column);
      return `${qualifier}${col} as ${quoteIdent(item.alias ?? item.column)}`;
    })
    .join(', ');
}

const COMPARATORS = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function whereClause(
  table: TableInfo,
  filters: Filter[],
  params: unknown[],
  qualifier = '',
): string {
  if (filters.length === 0) return '';
  const bind = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const parts = filters.map((f) => {
    const col = qualifier + column(table, f.column);
    let cond: string;
    if (f.op === 'is')
      cond = f.value === 'not_null' ? `${col} is not null` : `${col} is ${f.value}`;
    else if (f.op === 'in')
      cond = f.value.length === 0 ? 'false' : `${col} in (${f.value.map(bind).join(', ')})`;
    else cond = `${col} ${COMPARATORS[f.op]} ${bind(f.value)}`;
    return f.negate ? `not (${cond})` : cond;
  });
  return ` where ${parts.join(' and ')}`;
}

function orderClause(table: TableInfo, order: OrderTerm[], qualifier = ''): string {
  if (order.length === 0) return '';
  const terms = order.map((o) => {
    const nulls = o.nulls ? ` nulls ${o.nulls}` : '';
    return `${qualifier}${column(table, o.column)} ${o.descending ? 'desc' : 'asc'}${nulls}`;
  });
  return ` order by ${terms.join(', ')}`;
}

/** Renders the CTE `pgrst_source` as `{body, page_count[, total]}`. */
function render(source: string, totalSql?: string): string {
  const total = totalSql ? `, (${totalSql}) as total` : '';
  return `with pgrst_source as (${source})
select coalesce((select json_agg(s) from pgrst_source s), '[]')::text as body,
       (select count(*) from pgrst_source) as page_count${total}`;
}

/**
 * GET: one statement returning `{body, page_count, total?}`; `total` (with
 * `withTotal`) counts every row matching the filters, ignoring limit/offset.
 * @throws RestError 42703 for an unknown column.
 */
export function buildRead(table: TableInfo, q: ParsedQuery, withTotal: boolean): Statement {
  const params: unknown[] = [];
  const where = whereClause(table, q.filters, params);
  const limit = q.limit !== undefined ? ` limit ${Math.trunc(q.limit)}` : '';
  const offset = q.offset ? ` offset ${Math.trunc(q.offset)}` : '';
  const source = `select ${selectList(table, q.select)} from ${qualified(table)}${where}${orderClause(table, q.order)}${limit}${offset}`;
  const total = withTotal ? `select count(*) from ${qualified(table)}${where}` : undefined;
  return { sql: render(source, total), params };
}

/**
 * POST: inserts `rows` taking `columns` from each (a key a row lacks becomes NULL);
 * with no columns every row takes all defaults. Returns the rows as `body` when
 * `representation`, and the inserted count as `page_count`.
 * @throws RestError 400 PGRST204 for a key that is not a column of the table.
 */
export function buildInsert(
  table: TableInfo,
  rows: Record<string, unknown>[],
  columns: string[],
  opts: { representation: boolean; select: SelectItem[] },
): Statement {
  requireColumns(table, columns);
  const returning = opts.representation ? selectList(table, opts.select) : '1';
  if (columns.length === 0) {
    // A zero-column select: every column takes its default, once per row.
    const source = `insert into ${qualified(table)} select from generate_series(1, ${rows.length}) returning ${returning}`;
    return { sql: render(source), params: [] };
  }
  const cols = columns.map(quoteIdent).join(', ');
  const source = `insert into ${qualified(table)} (${cols})
  select ${cols} from json_populate_recordset(null::${qualified(table)}, $1::json)
  returning ${returning}`;
  return { sql: render(source), params: [JSON.stringify(rows)] };
}

/** PostgREST's PGRST204 for a body key that is not a column of the table. */
function requireColumns(table: TableInfo, names: readonly string[]): void {
  for (const name of names) {
    if (!table.columns.has(name)) {
      throw new RestError(
        400,
        'PGRST204',
        `Column '${name}' of relation '${table.name}' does not exist`,
      );
    }
  }
}

/**
 * PostgREST 12 filters and orders a function's result after its `select`: a filter or order on a
 * column the select leaves out names no column there (fixed in PostgREST 13).
 * @throws RestError 400 42703 `column <relation>.<column> does not exist`, as PostgreSQL words it
 *   (the filters first, as PostgreSQL reads WHERE before ORDER BY).
 */
function unselectedFilter(routine: RoutineInfo, q: ParsedQuery): void {
  if (q.select.length === 0 || q.select.some((item) => item.column === '*')) return;
  const selected = new Set(q.select.map((item) => item.column));
  const named = [...q.filters.map((f) => f.column), ...q.order.map((o) => o.column)];
  const missing = named.find((column) => !selected.has(column));
  if (missing !== undefined) {
    throw new RestError(400, '42703', `column ${routine.relation}.${missing} does not exist`);
  }
}

/**
 * PATCH: sets the body's keys on every row matching the filters.
 * @throws RestError 400 PGRST204 for a key that is not a column; 42703 for an
 * unknown filter column.
 */
export function buildUpdate(
  table: TableInfo,
  patch: Record<string, unknown>,
  q: ParsedQuery,
  representation: boolean,
): Statement {
  const keys = Object.keys(patch);
  requireColumns(table, keys);
  const params: unknown[] = [JSON.stringify(patch)];
  // Qualified: pgrst_body has the same column names as the table.
  const where = whereClause(table, q.filters, params, `${qualified(table)}.`);
  const returning = representation ? selectList(table, q.select, `${qualified(table)}.`) : '1';
  if (keys.length === 0) {
    // PostgREST answers an empty patch without touching the table.
    const source = `select ${returning} from ${qualified(table)} where false`;
    return { sql: render(source), params: [] };
  }
  const sets = keys.map((k) => `${quoteIdent(k)} = pgrst_body.${quoteIdent(k)}`).join(', ');
  const source = `update ${qualified(table)} set ${sets}
  from json_populate_record(null::${qualified(table)}, $1::json) pgrst_body${where}
  returning ${returning}`;
  return { sql: render(source), params };
}

/** DELETE: deletes every row matching the filters. */
export function buildDelete(table: TableInfo, q: ParsedQuery, representation: boolean): Statement {
  const params: unknown[] = [];
  const where = whereClause(table, q.filters, params);
  const returning = representation ? selectList(table, q.select) : '1';
  const source = `delete from ${qualified(table)}${where} returning ${returning}`;
  return { sql: render(source), params };
}

/**
 * How the arguments of a function call arrive (PostgREST's three ways):
 * - `json`: a JSON object whose keys name parameters (POST application/json), passed
 *   whole as one parameter and split by json_to_record into the declared types;
 * - `direct`: text values by parameter name (GET query string, form-urlencoded POST),
 *   each one parameter cast to its declared type; the last of repeated values
 *   counts, except for a variadic parameter, which takes them all as its array;
 * - `single`: the one unnamed parameter's value (the raw body of a text/plain POST,
 *   or the whole JSON body for an unnamed json/jsonb parameter).
 */
export type CallArgs =
  | { kind: 'json'; body: string; keys: string[] }
  | { kind: 'direct'; values: Map<string, string[]> }
  | { kind: 'single'; value: string | Buffer };

/**
 * A function call as one statement returning `{body, page_count}`, shaped as
 * PostgREST shapes it: a scalar result as that JSON value (`null` when NULL); a set
 * of scalars as an array; a composite result as an object; a set of rows as an
 * array of objects, with `select`, filters, `order`, `limit` and `offset` applied.
 * Only arguments for the parameters in `args` are passed, so the others take their
 * defaults; every value is a bound parameter cast to the declared type. With `withTotal`
 * (`Prefer: count=…`) it also answers `total`, the rows of the result that match the filters,
 * ignoring limit and offset, from the same one call of the function.
 * @throws RestError 400 42703 for a select, filter or order column the result lacks.
 */
export function buildCall(
  routine: RoutineInfo,
  args: CallArgs,
  q: ParsedQuery,
  withTotal = false,
): Statement {
  const params: unknown[] = [];
  const bind = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const fn = `${quoteIdent(routine.schema)}.${quoteIdent(routine.name)}`;
  let from = '';
  let call: string;
  if (args.kind === 'single') {
    const [param] = routine.params;
    call = `${fn}(${bind(args.value)}::${param?.type ?? 'text'})`;
  } else if (args.kind === 'direct') {
    const named = routine.params.filter((p) => args.values.has(p.name));
    const arg = (p: RoutineParam) => {
      const values = args.values.get(p.name) ?? [];
      if (p.variadic) return `variadic ${quoteIdent(p.name)} := ${bind(values)}::text[]::${p.type}`;
      return `${quoteIdent(p.name)} := ${bind(values.at(-1))}::${p.type}`;
    };
    call = `${fn}(${named.map(arg).join(', ')})`;
  } else {
    const named = routine.params.filter((p) => args.keys.includes(p.name));
    if (named.length > 0) {
      const record = named.map((p) => `${quoteIdent(p.name)} ${p.type}`).join(', ');
      from = `json_to_record(${bind(args.body)}::json) as pgrst_body(${record}), lateral `;
    }
    const arg = (p: RoutineParam) =>
      `${p.variadic ? 'variadic ' : ''}${quoteIdent(p.name)} := pgrst_body.${quoteIdent(p.name)}`;
    call = `${fn}(${named.map(arg).join(', ')})`;
  }
  const limit = q.limit !== undefined ? ` limit ${Math.trunc(q.limit)}` : '';
  const offset = q.offset ? ` offset ${Math.trunc(q.offset)}` : '';
  // The result's columns, checked like a table's; a scalar result has none to name.
  const result: TableInfo = {
    schema: routine.schema,
    name: routine.name,
    columns: new Map((routine.columns ?? []).map((c) => [c, { name: c, hasDefault: false }])),
  };
  unselectedFilter(routine, q);
  const where = whereClause(result, q.filters, params, 'pgrst_call.');
  const order = orderClause(result, q.order, 'pgrst_call.');
  const page = `${limit}${offset}`;
  if (!routine.columns) {
    const source = `select pgrst_call.pgrst_scalar from ${from}(select ${call} as pgrst_scalar) pgrst_call${where}${order}`;
    const agg = routine.returnsSet
      ? `coalesce(json_agg(s.pgrst_scalar), '[]')::text`
      : `coalesce((json_agg(s.pgrst_scalar)->0)::text, 'null')`;
    return { sql: renderCall(source, page, agg, withTotal), params };
  }
  const source = `select ${selectList(result, q.select, 'pgrst_call.')} from ${from}${call} pgrst_call${where}${order}`;
  const agg = routine.returnsSet
    ? `coalesce(json_agg(s), '[]')::text`
    : `coalesce((json_agg(s)->0)::text, 'null')`;
  return { sql: renderCall(source, page, agg, withTotal), params };
}

/**
 * A call's statement: `body` aggregated by `agg` over the rows `s` of `source` narrowed by
 * `page` (limit and offset), `page_count` those rows and, `withTotal`, `total` the rows of
 * `source`. The call's rows are read once (a materialised CTE), however often they are counted:
 * a function that writes runs once.
 */
function renderCall(source: string, page: string, agg: string, withTotal: boolean): string {
  if (!withTotal) {
    return `with pgrst_source as (${source}${page})
select (select ${agg} from pgrst_source s) as body,
       (select count(*) from pgrst_source) as page_count`;
  }
  return `with pgrst_all as materialized (${source}),
pgrst_source as (select * from pgrst_all${page})
select (select ${agg} from pgrst_source s) as body,
       (select count(*) from pgrst_source) as page_count,
       (select count(*) from pgrst_all) as total`;
}
