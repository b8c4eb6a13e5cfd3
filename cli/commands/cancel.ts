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
 * @throws InputError for a malformed id, CardConflictError (exit 2); SessionError, ApiError (PT404 unknown entry,
 *   PT409 ended or stopped already), NetworkError, OutcomeUnknownError (exit 1)
 */
export async function runCancel(idText: string, options: CancelOptions): Promise<void> {
  const id = parseEntryId(idText);
  const settings = resolveConfig(options);
  const [{ onRunCard }, { cancelEntry }] = await Promise.all([
    import('../session/cards.js'),
    import('../../shared/supabase/data.js'),
  ]);
  const { caller, card, config } = await onRunCard(settings);
  // One request: it cancels the entry and answers what visitors get afterwards.
  const outcome = await caller.run(({ client, transport }) =>
    transport.guard(() => cancelEntry(client, id, card.slug), { act: 'cancel' }),
  );
  const { withLabels } = await import('../terminal/labels.js');
  const status = await withLabels(caller, outcome.status, [outcome.cancelled.type], card.slug);
  showCancel({ ...outcome, status }, options, config, localTimeZone);
}

export const cancelCommand = commandOf('cancel', ({ args, options }) =>
  runCancel(args.id, options),
);
