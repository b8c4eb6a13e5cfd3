import { Command } from 'commander';
import { InputError } from '../../shared/core/errors.js';
import { activeEntry } from '../../shared/core/rules.js';
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

export const listCommand = new Command('list')
  .description('list entries, newest first')
  // The default is in the text: commander would quote a string default ("20").
  .option('--limit <n>', `how many entries to show (default: ${DEFAULT_LIMIT})`)
  .option('--json', 'print the result as one JSON document')
  .action(async (_options: object, command: Command) => {
    const options = command.optsWithGlobals<{ limit?: string; json?: boolean; apiUrl?: string }>();
    const limit = parseLimit(options.limit);
    const config = resolveConfig(options);
    // Reads are public (RLS lets anon read), so no sign-in is needed.
    const [{ connect }, { listEntries }, time] = await Promise.all([
      import('../connect.js'),
      import('../../shared/supabase/data.js'),
      import('../../shared/calendar/time.js'),
    ]);
    const { client, transport } = connect(config);
    const now = Date.now();
    const rows = await transport.guard(() => listEntries(client, limit));
    // Rows come newest first, so any row newer than the active entry has ended: the active
    // entry among these rows is the active entry of the whole table, when it is listed.
    const activeId = activeEntry(rows, now)?.id;

    if (options.json) {
      printJson({
        entries: rows.map((row) => ({
          ...row,
          ends_at: new Date(row.stamp_end).toISOString(),
          active: row.id === activeId,
        })),
      });
      return;
    }
    if (rows.length === 0) {
      print('No entries yet: visitors go to the main site.');
      return;
    }
    const idWidth = Math.max(...rows.map((row) => String(row.id).length));
    const typeWidth = Math.max(...rows.map((row) => String(row.type).length));
    print(
      ...rows.map((row) => {
        const state =
          row.id === activeId
            ? out.green('active')
            : row.stamp_end <= now
              ? out.dim('ended')
              : out.dim('superseded');
        const mark = row.id === activeId ? out.green('*') : ' ';
        const id = String(row.id).padStart(idWidth);
        const type = String(row.type).padEnd(typeWidth);
        return `${mark} ${id}  ${type}  ${time.formatStamp(row.stamp_end)}  ${state}`;
      }),
    );
  });
