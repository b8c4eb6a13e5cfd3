import { useEffect } from 'react';
import { describeNow } from '../../../../shared/core/describe.js';
import { localTimeZone } from '../../../../shared/core/format.js';
import type { ProfileEntry } from '../../../../shared/supabase/data.js';
import { may, useCardScope } from '../card/card-scope.js';
import { loadConfirmDialog } from '../later/chunks.js';
import { followingItems, type FollowingItem } from './describe.js';
import { profileTone } from './profile-tone.js';
import { TimelineBar } from './TimelineBar.js';
import { UpcomingEntries, upcomingEntries } from './UpcomingEntries.js';
import {
  cardLabels,
  cardTimeline,
  useServerNow,
  type CardState,
  type CardStateResult,
} from './useCardState.js';
import { useTimelineChanges } from './useTimelineChanges.js';

interface TimelineProps {
  result: CardStateResult;
  refresh: () => Promise<CardState | undefined>;
  /** The card's profiles, for their labels (the status's otherwise). */
  profiles?: readonly ProfileEntry[];
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
  useEffect(() => {
    // End now and Cancel ask first: the question is fetched now, used on a click.
    if (write) loadConfirmDialog().catch(() => undefined);
  }, [write]);
  const now = useServerNow(card);
  const zone = localTimeZone();
  const labels = cardLabels(card, profiles);
  const { busy, outcome, outcomeRef, askEnd, askCancel } = useTimelineChanges(
    card,
    refresh,
    zone,
    labels,
  );
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
