import { describeEntry, describeState } from './describe.js';
import type { CardStateResult } from './useCardState.js';

/** The last entries, newest first, each with its state (active, scheduled, paused, …). */
export function CardHistory({ result }: { result: CardStateResult }) {
  if (result.status !== 'ready' || result.card.history.length === 0) return null;
  return (
    <section className="history" aria-label="History">
      <h2>History</h2>
      <ol>
        {result.card.history.map(({ row, state }) => (
          <li key={row.id} className={`state-${state.state}`}>
            <span>{describeEntry(row)}</span> <span className="muted">{describeState(state)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
