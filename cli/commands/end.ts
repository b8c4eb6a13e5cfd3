import { localTimeZone } from '../../shared/core/format.js';
import { commandOf } from '../grammar/commander.js';
import { showEnd } from '../terminal/end-show.js';
import { resolveConfig } from '../session/settings.js';

/** The options of `namecard end` (global ones included), as typed. */
export interface EndOptions {
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/**
 * `namecard end`: visitors go to the main site now. The server (`namecard_end_now()`, on its
 * own clock) stops every entry in force now, the one visitors get and any older one that would
 * come back after it, and keeps every entry that starts later; rows are marked, never deleted.
 * When that would change nothing visitors get, it stores nothing and says so (exit 0). Then it
 * shows the timeline from now on.
 *
 * @throws CardConflictError (exit 2) for a token run naming another card; SessionError,
 *   ApiError, NetworkError, OutcomeUnknownError (exit 1)
 */
export async function runEnd(options: EndOptions): Promise<void> {
  const settings = resolveConfig(options);
  const [{ onRunCard }, { endNow }] = await Promise.all([
    import('../session/cards.js'),
    import('../../shared/supabase/data.js'),
  ]);
  const { caller, card, config } = await onRunCard(settings);
  // One request: it stops what is in force and answers what visitors get afterwards.
  const outcome = await caller.run(({ client, transport }) =>
    transport.guard(() => endNow(client, card.slug), { act: 'end' }),
  );
  const { withLabels } = await import('../terminal/labels.js');
  const types = [...outcome.ended, ...outcome.alreadyStopped].map((row) => row.type);
  const status = await withLabels(caller, outcome.status, types, card.slug);
  showEnd({ ...outcome, status }, options, config, localTimeZone);
}

export const endCommand = commandOf('end', ({ options }) => runEnd(options));
