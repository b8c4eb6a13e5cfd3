import type { SupabaseClient } from '@supabase/supabase-js';
import { NamecardError } from '../../shared/core/errors.js';
import { connect, type Connection } from './connect.js';
import type { CliConfig } from './settings.js';

// A run with NAMECARD_TOKEN (issue 41): no session, no conf, no password. The commands keep
// their data calls (shared/supabase/); the token's client sends each call a token may make to
// the token's own function (supabase/schemas/tokens.sql), the token in the POST body and the
// card left to the token, and refuses every other call before anything is sent. So a command the
// token cannot run stops at its first call, with nothing written.

/** What a run with a token cannot do: a person's session is needed (exit 1). */
export class TokenScopeError extends NamecardError {
  constructor(what: string) {
    super(
      'token_scope',
      `a card token cannot do this (${what}): an editor token sets, ends and cancels its card, a viewer token reads it; members, profiles and tokens need an owner signed in`,
      'Unset NAMECARD_TOKEN and sign in with `namecard login` as a member of the card',
    );
  }
}

/** The member's functions a token stands in for, and the token's function each becomes. */
const TOKEN_CALLS: Readonly<Record<string, string>> = {
  namecard_set: 'namecard_token_set',
  namecard_set_series: 'namecard_token_set_series',
  namecard_end_now: 'namecard_token_end_now',
  namecard_cancel: 'namecard_token_cancel',
  namecard_card_status: 'namecard_token_status',
  namecard_visit_days: 'namecard_token_visit_days',
  namecard_preview: 'namecard_token_preview',
};

/** A row as the token's reads answer it. */
type Row = Record<string, unknown>;

/**
 * The tables a member's commands read, and the token's read that answers each (its rows, with
 * the filters below applied here). `namecard_access` (may the caller set the card?) is the
 * token's role.
 */
const TOKEN_READS: Readonly<Record<string, (rpc: TokenRpc) => Promise<Row[]>>> = {
  namecard: (rpc) => rpc('namecard_token_entries', { max_rows: 1000 }),
  namecard_series: async (rpc) => (await rpc('namecard_token_series', {})).series as Row[],
  namecard_series_stop: async (rpc) => (await rpc('namecard_token_series', {})).stops as Row[],
  namecard_profile: (rpc) => rpc('namecard_token_profiles', {}),
  namecard_access: async (rpc) => [
    { can_set: (await rpc('namecard_token_whoami', {})).role === 'editor' },
  ],
};

/** Numbers by value, anything else as text: the order of the columns the commands sort on. */
const compare = (a: unknown, b: unknown): number =>
  typeof a === 'number' && typeof b === 'number'
    ? a - b
    : String(a ?? '').localeCompare(String(b ?? ''));

/** One call of a token's function: its answer, or the call's error thrown. */
type TokenRpc = (fn: string, args: Row) => Promise<Row & Row[]>;

/**
 * A read of `table` through the token's function, with the few filters the data calls use
 * (shared/supabase/): eq, gt, is, in, order by one column, limit. The card's own filter
 * (`card_id`) is the token's already. Why own code: a token's reads are functions, not tables,
 * and this lets every command keep its one set of data calls. Any write throws TokenScopeError.
 */
function tokenRead(table: string, rpc: TokenRpc): unknown {
  const read = TOKEN_READS[table];
  if (read === undefined) throw new TokenScopeError(`reading ${table}`);
  const keep: ((row: Row) => boolean)[] = [];
  let order: { column: string; ascending: boolean } | undefined;
  let limit = Infinity;
  const refuse = () => {
    throw new TokenScopeError(`changing ${table}`);
  };
  const builder = {
    select: () => builder,
    eq: (column: string, value: unknown) => {
      if (column !== 'card_id') keep.push((row) => row[column] === value);
      return builder;
    },
    gt: (column: string, value: number) => {
      keep.push((row) => Number(row[column]) > value);
      return builder;
    },
    is: (column: string, value: null) => {
      keep.push((row) => (row[column] ?? null) === value);
      return builder;
    },
    in: (column: string, values: unknown[]) => {
      keep.push((row) => values.includes(row[column]));
      return builder;
    },
    order: (column: string, options: { ascending?: boolean } = {}) => {
      order = { column, ascending: options.ascending ?? true };
      return builder;
    },
    limit: (n: number) => {
      limit = n;
      return builder;
    },
    insert: refuse,
    update: refuse,
    delete: refuse,
    upsert: refuse,
    then<T>(
      done: (value: { data: Row[] | null; error: unknown; status: number }) => T,
      fail?: (e: unknown) => T,
    ) {
      const answer = read(rpc).then(
        (rows) => {
          let data = rows.filter((row) => keep.every((k) => k(row)));
          if (order) {
            const { column, ascending } = order;
            data = [...data].sort((a, b) => compare(a[column], b[column]) * (ascending ? 1 : -1));
          }
          return { data: data.slice(0, limit), error: null, status: 200 };
        },
        (error: { failure?: unknown }) => (error.failure ?? Promise.reject(error)) as never,
      );
      return answer.then(done, fail);
    },
  };
  return builder;
}

/**
 * `client` acting with `token`: `rpc` of a member's write or read goes to the token's function
 * (the `card` argument dropped: the token's card is the card), `from` reads through the token's
 * read functions; any other `rpc`, and any write of a table, throws TokenScopeError at once.
 * Everything else is the client's own.
 */
function tokenClient(client: SupabaseClient, token: string): SupabaseClient {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'rpc') {
        return (
          fn: string,
          args: Record<string, unknown> = {},
          options?: Parameters<SupabaseClient['rpc']>[2],
        ) => {
          const mapped = TOKEN_CALLS[fn];
          if (mapped === undefined) throw new TokenScopeError(fn);
          const { card: _card, ...rest } = args;
          return target.rpc(mapped, { token, ...rest }, options);
        };
      }
      if (prop === 'from') {
        const rpc: TokenRpc = async (fn, args) => {
          const result = await target.rpc(fn, { token, ...args });
          // The call's failure as postgrest-js gives it, for the data call to turn into its error.
          if (result.error)
            throw Object.assign(new Error(result.error.message), { failure: result });
          return result.data as Row & Row[];
        };
        return (table: string) => tokenRead(table, rpc);
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/**
 * The connection of a run with a card token: the anon key, no session, and the token's client.
 *
 * @param config the run's settings, with `token`
 */
export function tokenConnection(config: CliConfig & { token: string }): Connection {
  const { client, transport } = connect(config);
  return { client: tokenClient(client, config.token), transport };
}
