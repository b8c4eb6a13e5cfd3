import { useState } from 'react';
import { MAIN_PROFILE } from '../../../shared/core/profiles.js';
import { insertEntry } from '../../../shared/supabase/data.js';
import { supabase } from '../supabase.js';
import { describeActive, describeFollowing, describeNext, errorMessage } from './describe.js';
import type { CardState, CardStateResult } from './useCardState.js';

interface CurrentCardProps {
  result: CardStateResult;
  refresh: () => Promise<CardState | undefined>;
}

/**
 * What visitors get now and until when, what follows, and the next scheduled change, as the
 * server's views answer them; with "End now" while something other than the main site is
 * active.
 */
export function CurrentCard({ result, refresh }: CurrentCardProps) {
  let lines: string[];
  if (result.status === 'loading') lines = ['Reading the current card…'];
  else if (result.status === 'failed') {
    lines = [`Could not read the current card: ${result.message}`];
  } else {
    const { card } = result;
    const next = describeNext(card.next, card.readAt);
    lines = [describeActive(card.active), ...describeFollowing(card), ...(next ? [next] : [])];
  }
  const active = result.status === 'ready' ? result.card.active : null;
  return (
    <div className="current" data-testid="current-card">
      <p>
        <span className="label">Now</span> {lines[0]}
      </p>
      {lines.slice(1).map((line) => (
        <p key={line} className="small">
          {line}
        </p>
      ))}
      {active && active.type !== MAIN_PROFILE.type && (
        <EndNow until={active.stamp_end} refresh={refresh} />
      )}
    </div>
  );
}

/**
 * "End now": visitors go to the main site from now on. Like `namecard end`, it inserts a
 * `main` entry ending when the active entry would have ended, so that entry does not come back.
 */
function EndNow({ until, refresh }: { until: number; refresh: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function end() {
    setBusy(true);
    setFailure(null);
    try {
      await insertEntry(supabase, { type: MAIN_PROFILE.type, stamp_end: until });
      await refresh();
    } catch (error) {
      setFailure(`Could not end it: ${errorMessage(error)}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="end-now">
      <button type="button" className="button secondary" disabled={busy} onClick={() => void end()}>
        End now
      </button>
      {failure && (
        <p role="alert" className="status error">
          {failure}
        </p>
      )}
    </div>
  );
}
