import { useRef, useState } from 'react';
import { describeFollowing, describeNow } from '../../../shared/core/describe.js';
import { localTimeZone } from '../../../shared/core/format.js';
import { isCancellable, type EntryState } from '../../../shared/core/timeline.js';
import type { NamecardRow } from '../../../shared/core/types.js';
import { cancelEntry, endNow } from '../../../shared/supabase/data.js';
import { supabase } from '../supabase.js';
import {
  describeAfter,
  describeEntry,
  describeStateSoon,
  errorMessage,
  isUpcoming,
} from './describe.js';
import { profileTone } from './profile-tone.js';
import { TimelineBar } from './TimelineBar.js';
import { timelineAt, useServerNow, type CardState, type CardStateResult } from './useCardState.js';

interface CardTimelineProps {
  result: CardStateResult;
  refresh: () => Promise<CardState | undefined>;
}

/** The outcome of End now or Cancel, in words. */
type Outcome = { tone: 'ok' | 'error'; text: string } | null;

/** When an entry takes effect, for ordering the list: now, its start, its return, never. */
function takesEffect(state: EntryState, now: number): number {
  if (state.state === 'on-now') return now;
  if (state.state === 'scheduled') return state.from;
  if (state.state === 'comes-back') return state.at;
  return Number.POSITIVE_INFINITY;
}

/**
 * The card's timeline: what visitors get now (with End now while something is in force), the
 * picture from now to the last change, what follows in words, and the entries that still
 * count, each with Cancel. Times are read at a glance; the zone is named once, at the top.
 */
export function CardTimeline({ result, refresh }: CardTimelineProps) {
  const card = result.status === 'ready' ? result.card : null;
  const now = useServerNow(card);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const zone = localTimeZone();

  /** Runs a change, then reads again; the outcome takes the focus (the button may be gone). */
  async function change(run: () => Promise<string>, failure: string) {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ tone: 'ok', text: await run() });
    } catch (error) {
      setOutcome({ tone: 'error', text: `${failure}: ${errorMessage(error)}` });
      await refresh();
    } finally {
      setBusy(false);
      requestAnimationFrame(() => outcomeRef.current?.focus());
    }
  }

  const end = () =>
    change(async () => {
      const { ended: stopped } = await endNow(supabase);
      const fresh = await refresh();
      if (stopped.length === 0) return 'Nothing to end: visitors already go to the main site.';
      const ids = stopped.map((row) => `#${row.id}`).join(', ');
      return `Ended now (${ids} stopped). ${describeAfter(fresh?.status, zone)}`;
    }, 'Could not end it');

  const cancel = (row: NamecardRow, at: number) =>
    change(async () => {
      await cancelEntry(supabase, row.id);
      const fresh = await refresh();
      return `Cancelled ${describeEntry(row, at, zone)}. ${describeAfter(fresh?.status, zone)}`;
    }, `Could not cancel #${row.id}`);

  let body;
  if (result.status === 'loading') body = <p>Reading the current card…</p>;
  else if (result.status === 'failed' || !card || now === null) {
    body = (
      <p>Could not read the current card: {result.status === 'failed' ? result.message : ''}</p>
    );
  } else {
    const segments = timelineAt(card, now);
    const [first] = segments;
    const { labels } = card.status;
    const following = describeFollowing(segments, now, zone, segments.length, labels);
    const upcoming = card.open
      .filter((row) => {
        const state = card.states.get(row.id);
        return state && isUpcoming(state) && isCancellable(row, card.status.now);
      })
      .map((row) => ({ row, state: card.states.get(row.id)! }))
      .sort(
        (a, b) =>
          takesEffect(a.state, card.status.now) - takesEffect(b.state, card.status.now) ||
          b.row.id - a.row.id,
      );
    body = (
      <>
        <p className="now-line" data-testid="now-line">
          <span className="label">Now</span> visitors get{' '}
          {first ? describeNow(first, now, zone, labels) : 'the main site'}.
        </p>
        {card.status.active && (
          <button
            type="button"
            className="button secondary end-now"
            disabled={busy}
            onClick={() => void end()}
          >
            End now
          </button>
        )}
        <TimelineBar segments={segments} now={now} timeZone={zone} labels={labels} />
        {following.length > 0 && (
          <ol className="following" aria-label="What follows">
            {following.map((line, index) => {
              const type = segments[index + 1]?.type;
              const { tone, style } = type === undefined ? { tone: '' } : profileTone(type);
              return (
                <li key={line} className={tone && `profile-dot-${tone}`} style={style}>
                  {line}
                </li>
              );
            })}
          </ol>
        )}
        {upcoming.length > 0 && (
          <section className="entries" aria-labelledby="entries-heading">
            <h2 id="entries-heading">Entries that still count</h2>
            <ul>
              {upcoming.map(({ row, state }) => (
                <li key={row.id} data-testid={`entry-${row.id}`}>
                  <span>
                    {describeEntry(row, card.status.now, zone, labels)}
                    <span className="muted">
                      {' '}
                      · {describeStateSoon(state, card.status.now, zone)}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="button secondary small-button"
                    aria-label={`Cancel entry #${row.id}`}
                    disabled={busy}
                    onClick={() => void cancel(row, card.status.now)}
                  >
                    Cancel
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </>
    );
  }

  return (
    <div className="current" data-testid="current-card">
      {body}
      <div ref={outcomeRef} tabIndex={-1} className="outcome" data-testid="change-outcome">
        <p aria-live="polite" className="status ok">
          {outcome?.tone === 'ok' ? outcome.text : ''}
        </p>
        {outcome?.tone === 'error' && (
          <p role="alert" className="status error">
            {outcome.text}
          </p>
        )}
      </div>
    </div>
  );
}
