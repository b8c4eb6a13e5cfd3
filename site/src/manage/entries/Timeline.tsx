import { useRef, useState } from 'react';
import { describeNow } from '../../../../shared/core/describe.js';
import { localTimeZone } from '../../../../shared/core/format.js';
import { isActiveAt } from '../../../../shared/core/rules.js';
import { isCancellable, type EntryState, type Segment } from '../../../../shared/core/timeline.js';
import type { NamecardRow } from '../../../../shared/core/types.js';
import { cancelEntry, endNow, type ProfileEntry } from '../../../../shared/supabase/data.js';
import { supabase } from '../../supabase.js';
import { may, useCardScope } from '../card/card-scope.js';
import { ConfirmDialog } from '../parts/ConfirmDialog.js';
import { errorMessage } from '../parts/error-words.js';
import {
  describeAfter,
  describeEntry,
  describeInstead,
  describeStateSoon,
  followingItems,
  isUpcoming,
  sameTimeline,
  type FollowingItem,
} from './describe.js';
import { profileTone } from './profile-tone.js';
import { TimelineBar } from './TimelineBar.js';
import {
  cardLabels,
  cardTimeline,
  useServerNow,
  type CardState,
  type CardStateResult,
} from './useCardState.js';

interface TimelineProps {
  result: CardStateResult;
  refresh: () => Promise<CardState | undefined>;
  /** The owner's profiles, for their labels (the status's otherwise). */
  profiles?: readonly ProfileEntry[];
}

/** The outcome of End now or Cancel, in words. */
type Outcome = { tone: 'ok' | 'error'; text: string } | null;

/** A change the page asks about before it is made: End now, or Cancel of one entry. */
type Asking =
  | { kind: 'end'; stopping: NamecardRow[]; after: Segment[]; before: Segment[]; at: number }
  | { kind: 'cancel'; row: NamecardRow; after: Segment[]; before: Segment[]; at: number };

/**
 * The entries and series occurrences in force at `at`: those End now stops
 * (`public.namecard_end_now()`'s rule).
 */
function inForce(card: CardState, at: number): NamecardRow[] {
  return [...card.open, ...card.occurrences].filter((row) => isActiveAt(row, at));
}

/** The labels of profiles by name, from the status (`{ shop: 'Shop' }`). */
type Labels = Readonly<Record<string, string>>;

/** When an entry takes effect, for ordering the list: now, its start, its return, never. */
function takesEffect(state: EntryState, now: number): number {
  if (state.state === 'on-now') return now;
  if (state.state === 'scheduled') return state.from;
  if (state.state === 'comes-back') return state.at;
  return Number.POSITIVE_INFINITY;
}

/**
 * The question before End now at `at`: what it stops (entries and a series' occurrence in
 * force) and what visitors get before and after, both by `cardTimeline`, the function the page
 * draws its timeline with, over the rows the page has; null when that changes nothing (only a
 * main entry in force).
 */
function endQuestion(card: CardState, at: number): Asking | null {
  const before = cardTimeline(card, at);
  const after = cardTimeline(card, at, { kind: 'end' });
  const stopping = inForce(card, at);
  return sameTimeline(before, after) ? null : { kind: 'end', stopping, before, after, at };
}

/** The question before Cancel of `row` at `at`: what visitors get before and after. */
function cancelQuestion(card: CardState, row: NamecardRow, at: number): Asking {
  const before = cardTimeline(card, at);
  const after = cardTimeline(card, at, { kind: 'cancel', id: row.id });
  return { kind: 'cancel', row, before, after, at };
}

/**
 * End now and Cancel for the timeline: each asked first (the question names what visitors will
 * get instead), then made on the server, then the card read again; the outcome in words takes
 * the focus.
 *
 * @param card the card as last read, or null while it is not
 * @param refresh reads the card again
 * @param zone IANA time zone of the times in the words
 * @param labels the profiles' labels the words name them by
 */
function useTimelineChanges(
  card: CardState | null,
  refresh: () => Promise<CardState | undefined>,
  zone: string,
  labels: Labels,
) {
  const scope = useCardScope();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
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
      const { ended: stopped } = await endNow(supabase, scope.slug);
      const fresh = await refresh();
      if (stopped.length === 0) return 'Nothing to end: visitors already go to the main site.';
      const ids = stopped.map((row) => `#${row.id}`).join(', ');
      return `Ended now (${ids} stopped). ${describeAfter(fresh?.status, zone)}`;
    }, 'Could not end it');

  const cancel = (row: NamecardRow, at: number) =>
    change(async () => {
      await cancelEntry(supabase, row.id, scope.slug);
      const fresh = await refresh();
      return `Cancelled ${describeEntry(row, at, zone, labels)}. ${describeAfter(fresh?.status, zone)}`;
    }, `Could not cancel #${row.id}`);

  /** End now, asked first; when it changes nothing (endQuestion), the server is asked at once. */
  function askEnd(at: number) {
    if (!card) return;
    const question = endQuestion(card, at);
    if (question) setAsking(question);
    else void end();
  }

  /** Cancel, asked first: it is for good; the dialog names what visitors will get instead. */
  function askCancel(row: NamecardRow, at: number) {
    if (card) setAsking(cancelQuestion(card, row, at));
  }

  const confirm = () => {
    if (!asking) return;
    setAsking(null);
    if (asking.kind === 'end') void end();
    else void cancel(asking.row, asking.at);
  };
  return {
    busy,
    outcome,
    outcomeRef,
    asking,
    dismiss: () => setAsking(null),
    confirm,
    askEnd,
    askCancel,
  };
}

/**
 * The card's timeline: what visitors get now (with End now while something is in force), the
 * picture from now to the last change, what follows in words, and the entries that still
 * count, each with Cancel. Times are read at a glance; the zone is named once, at the top.
 */
export function Timeline({ result, refresh, profiles }: TimelineProps) {
  const card = result.state === 'ready' ? result.data : null;
  // A viewer is shown the card with nothing to change (the server would refuse it anyway).
  const write = may(useCardScope(), 'editor');
  const now = useServerNow(card);
  const zone = localTimeZone();
  const labels = cardLabels(card, profiles);
  const { busy, outcome, outcomeRef, asking, dismiss, confirm, askEnd, askCancel } =
    useTimelineChanges(card, refresh, zone, labels);
  let body;
  if (result.state === 'loading') body = <p>Reading the current card…</p>;
  else if (result.state === 'error' || !card || now === null) {
    body = <p>Could not read the current card: {result.state === 'error' ? result.error : ''}</p>;
  } else {
    const segments = cardTimeline(card, now);
    const [first] = segments;
    const following = followingItems(segments, card.status.series ?? [], now, zone, labels);
    const upcoming = upcomingEntries(card);
    body = (
      <>
        <p className="now-line" data-testid="now-line">
          <span className="label">Now</span> visitors get{' '}
          {first ? describeNow(first, now, zone, labels) : 'the main site'}.
        </p>
        {write && card.status.active && (
          <button
            type="button"
            className="button secondary end-now"
            disabled={busy}
            onClick={() => askEnd(now)}
          >
            End now
          </button>
        )}
        <TimelineBar segments={segments} now={now} timeZone={zone} labels={labels} />
        <Following items={following} />
        <UpcomingEntries
          upcoming={upcoming}
          now={card.status.now}
          zone={zone}
          labels={labels}
          busy={busy}
          onCancel={write ? (row) => askCancel(row, now) : undefined}
        />
      </>
    );
  }

  return (
    <div className="current" data-testid="current-card">
      {body}
      {asking && (
        <AskDialog
          asking={asking}
          zone={zone}
          labels={labels}
          onDismiss={dismiss}
          onConfirm={confirm}
        />
      )}
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

/** The entries that still count and may be cancelled, in the order they take effect. */
function upcomingEntries(card: CardState): { row: NamecardRow; state: EntryState }[] {
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
 * What follows now: one line per coming change and one per weekly series, each marked with its
 * profile's colour.
 */
function Following({ items }: { items: readonly FollowingItem[] }) {
  if (items.length === 0) return null;
  return (
    <ol className="following" aria-label="What follows">
      {items.map(({ key, text, type }) => {
        const { tone, style } = type === undefined ? { tone: '' } : profileTone(type);
        return (
          <li key={key} className={tone && `profile-dot-${tone}`} style={style}>
            {text}
          </li>
        );
      })}
    </ol>
  );
}

/** The entries that still count, each with its state and a Cancel button. */
function UpcomingEntries({
  upcoming,
  now,
  zone,
  labels,
  busy,
  onCancel,
}: {
  upcoming: { row: NamecardRow; state: EntryState }[];
  now: number;
  zone: string;
  labels: Labels;
  busy: boolean;
  /** Cancel of one entry; none: no Cancel button (a viewer's page). */
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

/** The question before End now or Cancel: what stops, and what visitors will get instead. */
function AskDialog({
  asking,
  zone,
  labels,
  onDismiss,
  onConfirm,
}: {
  asking: Asking;
  zone: string;
  labels: Labels;
  onDismiss: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      heading={asking.kind === 'end' ? 'End now?' : `Cancel #${asking.row.id}?`}
      confirm={asking.kind === 'end' ? 'Yes, end it' : 'Yes, cancel it'}
      onDismiss={onDismiss}
      onConfirm={onConfirm}
    >
      <p>
        {asking.kind === 'end'
          ? `${asking.stopping.map((row) => describeEntry(row, asking.at, zone, labels)).join('; ')} will stop now, for good.`
          : `${describeEntry(asking.row, asking.at, zone, labels)} will be cancelled for good.`}
      </p>
      <p data-testid="confirm-instead">
        {describeInstead(asking.before, asking.after, asking.at, zone, labels)}
      </p>
    </ConfirmDialog>
  );
}
