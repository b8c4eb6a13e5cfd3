import type { ProfileLabels } from '../../../../shared/core/profiles.js';
import { isCancellable, type EntryState } from '../../../../shared/core/timeline.js';
import type { NamecardRow } from '../../../../shared/core/types.js';
import { describeEntry, describeStateSoon, isUpcoming } from './describe.js';
import type { CardState } from './useCardState.js';

/** An entry that still counts, with its state. */
interface Upcoming {
  row: NamecardRow;
  state: EntryState;
}

/** When an entry takes effect, for ordering the list: now, its start, its return, never. */
function takesEffect(state: EntryState, now: number): number {
  if (state.state === 'on-now') return now;
  if (state.state === 'scheduled') return state.from;
  if (state.state === 'comes-back') return state.at;
  return Number.POSITIVE_INFINITY;
}

/** The entries that still count and may be cancelled, in the order they take effect. */
export function upcomingEntries(card: CardState): Upcoming[] {
  const now = card.status.now;
  return card.open
    .filter((row) => {
      const state = card.states.get(row.id);
      return state && isUpcoming(state) && isCancellable(row, now);
    })
    .map((row) => ({ row, state: card.states.get(row.id)! }))
    .sort((a, b) => takesEffect(a.state, now) - takesEffect(b.state, now) || b.row.id - a.row.id);
}

/**
 * The entries that still count, each with its state and, for an editor, a Cancel button.
 *
 * @param now the instant their times are named from, epoch ms
 * @param onCancel Cancel of one entry; none: no Cancel button (a viewer's page)
 */
export function UpcomingEntries({
  upcoming,
  now,
  zone,
  labels,
  busy,
  onCancel,
}: {
  upcoming: readonly Upcoming[];
  now: number;
  zone: string;
  labels: ProfileLabels;
  busy: boolean;
  onCancel?: (row: NamecardRow) => void;
}) {
  if (upcoming.length === 0) return null;
  return (
    <section className="entries" aria-labelledby="entries-heading">
      <h2 id="entries-heading">Entries that still count</h2>
      <ul>
        {upcoming.map(({ row, state }) => (
          <li key={row.id} data-testid={`entry-${row.id}`}>
            <span>
              {describeEntry(row, now, zone, labels)}
              <span className="muted"> · {describeStateSoon(state, now, zone)}</span>
            </span>
            {onCancel && (
              <button
                type="button"
                className="button secondary small-button"
                aria-label={`Cancel entry #${row.id}`}
                disabled={busy}
                onClick={() => onCancel(row)}
              >
                Cancel
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
