import { RestError, parseError } from './errors.js';

/**
 * The PostgREST query-string grammar the product uses, parsed into plain data.
 * Own code: no library speaks PostgREST's grammar. Only names and values come out
 * of here; SQL is built elsewhere from validated names and bound parameters.
 *
 *   select=*|col,alias:col          order=col[.asc|.desc][.nullsfirst|.nullslast],…
 *   limit=N  offset=N               <col>=[not.]<op>.<value>   (combined with AND)
 *   op: eq neq gt gte lt lte in is  in.(a,"b,c")   is.null|not_null|true|false|unknown
 */

export const FILTER_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is'] as const;
/** One of the filter operators in FILTER_OPS. */
export type FilterOp = (typeof FILTER_OPS)[number];
/** The values `is.` accepts. */
export const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;
/** One of IS_VALUES. */
export type IsValue = (typeof IS_VALUES)[number];

/** One `<col>=[not.]<op>.<value>` condition: `in` has a list, `is` one of IS_VALUES. */
export type Filter =
  | { column: string; negate: boolean; op: Exclude<FilterOp, 'in' | 'is'>; value: string }
  | { column: string; negate: boolean; op: 'in'; value: string[] }
  | { column: string; negate: boolean; op: 'is'; value: IsValue };

/** One term of `order=`: a column, its direction, and where nulls go. */
export interface OrderTerm {
  column: string;
  descending: boolean;
  nulls?: 'first' | 'last';
}

/** `column: '*'` selects every column. */
export interface SelectItem {
  column: string;
  alias?: string;
}

/** A request's query string, parsed: select, order, filters, limit and offset. */
export interface ParsedQuery {
  select: SelectItem[];
  order: OrderTerm[];
  filters: Filter[];
  limit?: number;
  offset?: number;
  /** POST `columns=`: which keys of the body to insert. */
  columns?: string[];
  /**
   * The first resource the select embeds (`select=*,created_by(*)`), which the emulator answers
   * as PostgREST does when no foreign key relates it (run.ts: 400 PGRST200).
   */
  embed?: string;
  /**
   * GET/HEAD of a function (`rpcArgs`): the parameters whose value is no
   * `[not.]op.value` filter, which PostgREST passes as the function's arguments.
   */
  args?: [string, string][];
}

/** Parameters that are not filters. `apikey` is the gateway's, never a column. */
const RESERVED = new Set([
  'select',
  'order',
  'limit',
  'offset',
  'columns',
  'on_conflict',
  'apikey',
]);

const failed = (what: string, input: string, column: number, details: string) =>
  parseError(`"failed to parse ${what} (${input})" (line 1, column ${column})`, details);

/**
 * Parses a request's query string.
 * @param opts.rpcArgs a GET/HEAD of a function: a parameter that is not a filter is
 * one of its arguments (into `args`) rather than an error, as in PostgREST.
 * @throws RestError 400 PGRST100 for a filter, order or select that does not parse;
 * 416 PGRST103 for a negative limit or offset.
 */
export function parseQuery(params: URLSearchParams, opts: { rpcArgs?: boolean } = {}): ParsedQuery {
  const query: ParsedQuery = { select: [{ column: '*' }], order: [], filters: [] };
  if (opts.rpcArgs) query.args = [];
  for (const [key, raw] of params) {
    switch (key) {
      case 'select': {
        const embed = embeddedResource(raw);
        if (embed !== undefined) query.embed = embed;
        else query.select = parseSelect(raw);
        break;
      }
      case 'order':
        query.order = parseOrder(raw);
        break;
      case 'limit':
        query.limit = parseCount(raw, 'Limit') ?? query.limit;
        break;
      case 'offset':
        query.offset = parseCount(raw, 'Offset') ?? query.offset;
        break;
      case 'columns':
        query.columns = splitList(raw).map((c) => c.trim());
        break;
      default:
        if (RESERVED.has(key)) break;
        if (['or', 'and', 'not.or', 'not.and'].includes(key)) {
          throw failed('logic tree', raw, 1, 'or/and trees are not supported by the emulator');
        }
        if (query.args) {
          const filter = tryParseFilter(key, raw);
          if (filter) query.filters.push(filter);
          else query.args.push([key, raw]);
        } else {
          query.filters.push(parseFilter(key, raw));
        }
    }
  }
  return query;
}

/** A number of rows; anything but digits is ignored, as PostgREST ignores it. */
function parseCount(raw: string, what: 'Limit' | 'Offset'): number | undefined {
  if (/^-\d+$/.test(raw.trim())) {
    throw new RestError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `${what} should be greater than or equal to zero.`,
    );
  }
  return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
}

const IDENT = /^[^.,:()"\s]+$/;

/**
 * The name of the first embedded resource in a select (`name(…)`, `alias:name(…)`,
 * `name!hint(…)`), or undefined when it embeds none.
 */
function embeddedResource(raw: string): string | undefined {
  return /(?:^|,)\s*(?:[^,:()]+:)?([^,:()!]+?)\s*(?:![^,()]+)?\(/.exec(raw)?.[1]?.trim();
}

function parseSelect(raw: string): SelectItem[] {
  if (raw.trim() === '') return [{ column: '*' }];
  let offset = 1;
  return raw.split(',').map((part) => {
    const item = part.trim();
    const [left, right] = item.includes(':') ? item.split(/:(.*)/s) : [item, undefined];
    const column = (right ?? left ?? '').trim();
    const alias = right === undefined ? undefined : (left ?? '').trim();
    const ok =
      column === '*'
        ? alias === undefined
        : IDENT.test(column) && (alias === undefined || IDENT.test(alias));
    if (!ok) {
      throw failed(
        'select parameter',
        raw,
        offset,
        `unsupported select item "${item}": the emulator accepts *, column or alias:column`,
      );
    }
    offset += part.length + 1;
    return alias === undefined ? { column } : { column, alias };
  });
}

function parseOrder(raw: string): OrderTerm[] {
  let offset = 1;
  return raw.split(',').map((part) => {
    const [column = '', ...mods] = part.trim().split('.');
    const term: OrderTerm = { column, descending: false };
    const bad = (details: string) => failed('order', raw, offset, details);
    if (!IDENT.test(column)) throw bad('expected a column name');
    for (const mod of mods) {
      if (mod === 'asc' || mod === 'desc') term.descending = mod === 'desc';
      else if (mod === 'nullsfirst' || mod === 'nullslast')
        term.nulls = mod === 'nullsfirst' ? 'first' : 'last';
      else throw bad(`unexpected "${mod}" expecting "asc", "desc", "nullsfirst" or "nullslast"`);
    }
    offset += part.length + 1;
    return term;
  });
}

function parseFilter(column: string, raw: string): Filter {
  let rest = raw;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const op = dot < 0 ? rest : rest.slice(0, dot);
  const value = dot < 0 ? undefined : rest.slice(dot + 1);
  const column1 = raw.length - rest.length + 1;
  if (!(FILTER_OPS as readonly string[]).includes(op) || value === undefined) {
    throw failed(
      'filter',
      raw,
      column1,
      `unexpected ${rest === '' ? 'end of input' : `"${rest.slice(0, 1)}"`} expecting "not" or operator (eq, gt, ...)`,
    );
  }
  if (op === 'in') return { column, negate, op, value: parseInList(raw, value, column1 + 3) };
  if (op === 'is') {
    const v = value.toLowerCase();
    if (!(IS_VALUES as readonly string[]).includes(v)) {
      throw failed(
        'filter',
        raw,
        column1 + 3,
        `unexpected "${value}" expecting null, not_null, true, false or unknown`,
      );
    }
    return { column, negate, op, value: v as IsValue };
  }
  return { column, negate, op: op as Exclude<FilterOp, 'in' | 'is'>, value };
}

function tryParseFilter(column: string, raw: string): Filter | undefined {
  try {
    return parseFilter(column, raw);
  } catch (e) {
    if (e instanceof RestError) return undefined;
    throw e;
  }
}

/** `(a,b,"c,d")` → ['a','b','c,d']; `()` → []. */
function parseInList(raw: string, value: string, column: number): string[] {
  if (!value.startsWith('(') || !value.endsWith(')')) {
    throw failed('filter', raw, column, 'expected a list in parentheses, e.g. in.(1,2,3)');
  }
  const inner = value.slice(1, -1);
  return inner === '' ? [] : splitList(inner);
}

/** Splits on commas outside double quotes; `\"` and `\\` escape inside quotes. */
function splitList(text: string): string[] {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '\\' && i + 1 < text.length) current += text[++i];
      else if (ch === '"') quoted = false;
      else current += ch;
    } else if (ch === '"') {
      quoted = true;
      wasQuoted = true;
    } else if (ch === ',') {
      items.push(wasQuoted ? current : current.trim());
      current = '';
      wasQuoted = false;
    } else {
      current += ch;
    }
  }
  items.push(wasQuoted ? current : current.trim());
  return items;
}

/**
 * Parses a `Range: first-last` header (items); undefined when absent or malformed,
 * as PostgREST ignores a range it cannot read.
 */
export function parseRangeHeader(
  header: string | undefined,
): { offset: number; limit?: number } | undefined {
  const m = /^\s*(?:items=)?(\d+)-(\d*)\s*$/.exec(header ?? '');
  if (!m) return undefined;
  const first = Number(m[1]);
  if (m[2] === '') return { offset: first };
  const last = Number(m[2]);
  return last < first ? undefined : { offset: first, limit: last - first + 1 };
}

/** The `Prefer` header's settings the emulator honours (defaults: minimal, no count). */
export interface Preferences {
  return: 'representation' | 'minimal' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  missingDefault: boolean;
}

/** Reads the `Prefer` header(s): return=…, count=…, missing=default; others ignored. */
export function parsePrefer(header: string | undefined): Preferences {
  const prefs: Preferences = { return: 'minimal', missingDefault: false };
  for (const part of (header ?? '').split(',')) {
    const [k, v] = part
      .trim()
      .split('=')
      .map((s) => s.trim());
    if (k === 'return' && (v === 'representation' || v === 'minimal' || v === 'headers-only'))
      prefs.return = v;
    if (k === 'count' && (v === 'exact' || v === 'planned' || v === 'estimated')) prefs.count = v;
    if (k === 'missing' && v === 'default') prefs.missingDefault = true;
  }
  return prefs;
}
