import { Command } from 'commander';
import { InputError } from '../../shared/core/errors.js';
import { formatWhen, localTimeZone } from '../../shared/core/format.js';
import { describeSeries, isSeriesRow, shortTime } from '../../shared/core/series.js';
import { profileLabel } from '../../shared/core/types.js';
import { out, print, printJson } from '../output.js';
import { resolveConfig } from '../settings.js';
import { showType } from '../terminal-safe.js';

/** The options of `namecard cancel` (global ones included), as typed. */
export interface CancelOptions {
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/** An entry id as typed: a whole number from 1 (ids are what `namecard list` shows). */
function parseId(value: string): number {
  const id = /^[1-9]\d{0,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw new InputError(
      'id',
      'an entry id, a whole number such as 12 (see `namecard list`)',
      value,
    );
  }
  return id;
}

/**
 * `namecard cancel <id>`: the entry stops counting for good, by the server's clock
 * (`namecard_cancel(entry_id)`): running, it ends now; scheduled, it never starts. The row
 * stays, marked cancelled. An unknown or ended entry is refused (exit 1). Then it shows the
 * timeline from now on.
 *
 * @throws InputError for a malformed id (exit 2); SessionError, ApiError (PT404 unknown entry,
 *   PT409 ended or stopped already), NetworkError, OutcomeUnknownError (exit 1)
 */
export async function runCancel(idText: string, options: CancelOptions): Promise<void> {
  const id = parseId(idText);
  const config = resolveConfig(options);
  const [{ requireWriter }, { cancelEntry }, { statusJson, timelineLines }] = await Promise.all([
    import('../writer.js'),
    import('../../shared/supabase/data.js'),
    import('../outlook.js'),
  ]);
  const owner = await requireWriter(config);
  // One request: it cancels the entry and answers what visitors get afterwards.
  const { cancelled: row, status } = await owner.run(({ client, transport }) =>
    transport.guard(() => cancelEntry(client, id), { act: 'cancel' }),
  );
  if (options.json) {
    printJson({ cancelled: row, ...statusJson(status, config) });
    return;
  }
  const zone = localTimeZone();
  // Ids are shared by entries and series: a series' cancel ends the series for good.
  if (isSeriesRow(row)) {
    print(
      `${out.green('✔')} Cancelled series ${row.id}: ${out.bold(showType(row.type))} (${profileLabel(row.type)}) ${describeSeries({ ...row, start_time: shortTime(row.start_time), end_time: shortTime(row.end_time) }, true).replace(/^\S+ /, '')}. It ends for good; its past occurrences stay in the history.`,
      ...timelineLines(status, config, zone),
    );
    return;
  }
  const planned = row.planned_end ?? row.stamp_end;
  const when = (ms: number) => formatWhen(ms, status.now, zone);
  const span =
    row.stamp_start == null
      ? `until ${when(planned)}`
      : `from ${when(row.stamp_start)} until ${when(planned)}`;
  print(
    `${out.green('✔')} Cancelled entry ${row.id}: ${out.bold(showType(row.type))} (${profileLabel(row.type, status.labels)}) ${span}`,
    ...timelineLines(status, config, zone),
  );
}

export const cancelCommand = new Command('cancel')
  .description(
    'cancel a scheduled or running entry, or a weekly series, for good (ids: namecard list)',
  )
  .argument('<id>', 'the entry or series id, as `namecard list` or `set --json` shows it')
  .option('--json', 'print the result as one JSON document')
  .action((id: string, _options: object, command: Command) =>
    runCancel(id, command.optsWithGlobals<CancelOptions>()),
  );
