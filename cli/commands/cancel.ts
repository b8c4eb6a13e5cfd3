import { localTimeZone } from '../../shared/core/format.js';
import { commandOf } from '../grammar/commander.js';
import { parseEntryId, showCancel } from '../terminal/cancel-show.js';
import { resolveConfig } from '../session/settings.js';

/** The options of `namecard cancel` (global ones included), as typed. */
export interface CancelOptions {
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
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
  const id = parseEntryId(idText);
  const config = resolveConfig(options);
  const [{ requireWriter }, { cancelEntry }] = await Promise.all([
    import('../session/writer.js'),
    import('../../shared/supabase/data.js'),
  ]);
  const owner = await requireWriter(config);
  // One request: it cancels the entry and answers what visitors get afterwards.
  const outcome = await owner.run(({ client, transport }) =>
    transport.guard(() => cancelEntry(client, id, config.card), { act: 'cancel' }),
  );
  const { withLabels } = await import('../terminal/labels.js');
  const status = await withLabels(owner, outcome.status, [outcome.cancelled.type]);
  showCancel({ ...outcome, status }, options, config, localTimeZone);
}

export const cancelCommand = commandOf('cancel', ({ args, options }) =>
  runCancel(args.id, options),
);
