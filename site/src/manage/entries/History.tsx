import { localTimeZone } from '../../../../shared/core/format.js';
import { describeEntry, describeStateSoon, isUpcoming } from './describe.js';
import type { ProfileEntry } from '../../../../shared/supabase/data.js';
import { HISTORY_SIZE, cardLabels, type CardStateResult } from './useCardState.js';

/**
 * Past entries (ended, ended early, cancelled), newest first, collapsed under "History": the
 * timeline above shows what still counts. Ids are shown, as the CLI's `list` does.
 */
export function History({
  result,
  profiles,
}: {
  result: CardStateResult;
  /** The card's profiles, for their labels (the status's otherwise). */
  profiles?: readonly ProfileEntry[];
}) {
  if (result.state !== 'ready') return null;
  const { recent, states, status } = result.data;
  const past = recent
    .map((row) => ({ row, state: states.get(row.id) }))
    .filter(
      (item): item is { row: typeof item.row; state: NonNullable<typeof item.state> } =>
        item.state !== undefined && !isUpcoming(item.state),
    )
    .slice(0, HISTORY_SIZE);
  if (past.length === 0) return null;
  const zone = localTimeZone();
  return (
    <details className="history">
      <summary>
        History ({past.length === HISTORY_SIZE ? `last ${past.length}` : past.length})
      </summary>
      <ol aria-label="History">
        {past.map(({ row, state }) => (
          <li key={row.id} className={`state-${state.state}`}>
            <span>{describeEntry(row, status.now, zone, cardLabels(result.data, profiles))}</span>{' '}
            <span className="muted">· {describeStateSoon(state, status.now, zone)}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
