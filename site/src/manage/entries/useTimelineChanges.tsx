import { useRef, useState } from 'react';
import type { ProfileLabels } from '../../../../shared/core/profiles.js';
import { isActiveAt } from '../../../../shared/core/rules.js';
import type { Segment } from '../../../../shared/core/timeline.js';
import type { NamecardRow } from '../../../../shared/core/types.js';
import { cancelEntry, endNow } from '../../../../shared/supabase/data.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { useAsk, type Question } from '../parts/question.js';
import { errorMessage } from '../parts/error-words.js';
import type { Outcome } from '../parts/Outcome.js';
import { describeAfter, describeEntry, describeInstead, sameTimeline } from './describe.js';
import { cardTimeline, type CardState } from './useCardState.js';

/**
 * The entries and series occurrences in force at `at`: those End now stops
 * (`public.namecard_end_now()`'s rule).
 */
function inForce(card: CardState, at: number): NamecardRow[] {
  return [...card.open, ...card.occurrences].filter((row) => isActiveAt(row, at));
}

/** A question before End now or Cancel: what stops, and what visitors will get instead. */
function question(
  heading: string,
  confirm: string,
  stops: string,
  timelines: { before: Segment[]; after: Segment[]; at: number },
  zone: string,
  labels: ProfileLabels,
): Question {
  const { before, after, at } = timelines;
  return {
    heading,
    confirm,
    text: (
      <>
        <p>{stops}</p>
        <p data-testid="confirm-instead">{describeInstead(before, after, at, zone, labels)}</p>
      </>
    ),
  };
}

/**
 * End now and Cancel for the timeline: each asked first (the question names what visitors will
 * get instead, by `cardTimeline`, the function the page draws its timeline with, over the rows
 * the page has), then made on the server, then the card read again; the outcome in words takes
 * the focus. An End now that changes nothing (only a main entry in force) asks nothing.
 *
 * @param card the card as last read, or null while it is not
 * @param refresh reads the card again
 * @param zone IANA time zone of the times in the words
 * @param labels the profiles' labels the words name them by
 */
export function useTimelineChanges(
  card: CardState | null,
  refresh: () => Promise<CardState | undefined>,
  zone: string,
  labels: ProfileLabels,
) {
  const { slug } = useCardScope();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const ask = useAsk();
  const outcomeRef = useRef<HTMLDivElement>(null);

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
      const { ended: stopped } = await endNow(supabase, slug);
      const fresh = await refresh();
      if (stopped.length === 0) return 'Nothing to end: visitors already go to the main site.';
      const ids = stopped.map((row) => `#${row.id}`).join(', ');
      return `Ended now (${ids} stopped). ${describeAfter(fresh?.status, zone)}`;
    }, 'Could not end it');

  const cancel = (row: NamecardRow, at: number) =>
    change(async () => {
      await cancelEntry(supabase, row.id, slug);
      const fresh = await refresh();
      return `Cancelled ${describeEntry(row, at, zone, labels)}. ${describeAfter(fresh?.status, zone)}`;
    }, `Could not cancel #${row.id}`);

  /** End now at `at`, asked first; when it changes nothing, the server is asked at once. */
  function askEnd(at: number) {
    if (!card) return;
    const before = cardTimeline(card, at);
    const after = cardTimeline(card, at, { kind: 'end' });
    if (sameTimeline(before, after)) return void end();
    const stopping = inForce(card, at).map((row) => describeEntry(row, at, zone, labels));
    const stops = `${stopping.join('; ')} will stop now, for good.`;
    ask(
      question('End now?', 'Yes, end it', stops, { before, after, at }, zone, labels),
      () => void end(),
    );
  }

  /** Cancel of `row` at `at`, asked first: it is for good. */
  function askCancel(row: NamecardRow, at: number) {
    if (!card) return;
    const before = cardTimeline(card, at);
    const after = cardTimeline(card, at, { kind: 'cancel', id: row.id });
    const stops = `${describeEntry(row, at, zone, labels)} will be cancelled for good.`;
    const asked = question(
      `Cancel #${row.id}?`,
      'Yes, cancel it',
      stops,
      { before, after, at },
      zone,
      labels,
    );
    ask(asked, () => void cancel(row, at));
  }

  return { busy, outcome, outcomeRef, askEnd, askCancel };
}
