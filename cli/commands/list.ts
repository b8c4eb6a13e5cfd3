import { Command } from 'commander';
import { InputError } from '../../shared/core/errors.js';
import { entryStates, type EntryState } from '../../shared/core/rules.js';
import { out, print, printJson } from '../output.js';
import { resolveConfig } from '../settings.js';

const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 20;

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new InputError('--limit', `a whole number from 1 to ${MAX_LIMIT}`, value);
  }
  return limit;
}

/** The options of `namecard list` (global ones included), as typed. */
export interface ListOptions {
  limit?: string;
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/**
 * `namecard list`: entries newest first with their start, end and state. Signed in (stored
 * session or CI credentials) it reads every column as the owner; signed out, the columns
 * anyone may read. The active entry is the server's answer (`namecard_active`).
 */
export async function runList(options: ListOptions): Promise<void> {
  const limit = parseLimit(options.limit ?? String(DEFAULT_LIMIT));
  const config = resolveConfig(options);
  const [{ connect }, { findOwner }, { listEntries }, { fetchActiveEntry }, format] =
    await Promise.all([
      import('../connect.js'),
      import('../session.js'),
      import('../../shared/supabase/data.js'),
      import('../../shared/core/lookup.js'),
      import('../../shared/core/format.js'),
    ]);
  const owner = await findOwner(config);
  const { client, transport } = owner ?? connect(config);
  const [rows, active] = await transport.guard(() =>
    Promise.all([
      listEntries(client, { limit, owner: owner !== undefined }),
      fetchActiveEntry({
        supabaseUrl: config.supabaseUrl,
        anonKey: config.anonKey,
        fetch: transport.fetch,
      }),
    ]),
  );
  const now = Date.now();
  const states = entryStates(rows, now, active?.id ?? null);
  const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

  if (options.json) {
    printJson({
      entries: rows.map((row) => {
        const state = states.get(row.id) ?? { state: 'ended' };
        return {
          ...row,
          stamp_start: row.stamp_start ?? null,
          starts_at: iso(row.stamp_start),
          ends_at: iso(row.stamp_end),
          active: state.state === 'active',
          state: state.state,
          ...('returnsAt' in state ? { returns_at: iso(state.returnsAt) } : {}),
          ...('startsAt' in state ? { takes_effect_at: iso(state.startsAt) } : {}),
        };
      }),
    });
    return;
  }
  if (rows.length === 0) {
    print('No entries yet: visitors go to the main site.');
    return;
  }
  const describe = (state: EntryState | undefined): string => {
    switch (state?.state) {
      case 'active':
        return out.green('active');
      case 'scheduled':
        return out.cyan(`scheduled (from ${format.formatStamp(state.startsAt)})`);
      case 'paused':
        return out.yellow(`paused (returns at ${format.formatStamp(state.returnsAt)})`);
      case 'superseded':
        return out.dim('superseded');
      default:
        return out.dim('ended');
    }
  };
  const idWidth = Math.max(...rows.map((row) => String(row.id).length));
  const typeWidth = Math.max(...rows.map((row) => String(row.type).length));
  print(
    ...rows.map((row) => {
      const state = states.get(row.id);
      const mark = state?.state === 'active' ? out.green('*') : ' ';
      const id = String(row.id).padStart(idWidth);
      const type = String(row.type).padEnd(typeWidth);
      const from = row.stamp_start == null ? '' : `from ${format.formatStamp(row.stamp_start)} to `;
      return `${mark} ${id}  ${type}  ${from}${format.formatStamp(row.stamp_end)}  ${describe(state)}`;
    }),
  );
}

export const listCommand = new Command('list')
  .description('list entries, newest first')
  // The default is in the text: commander would quote a string default ("20").
  .option('--limit <n>', `how many entries to show (default: ${DEFAULT_LIMIT})`)
  .option('--json', 'print the result as one JSON document')
  .action((_options: object, command: Command) => runList(command.optsWithGlobals<ListOptions>()));
