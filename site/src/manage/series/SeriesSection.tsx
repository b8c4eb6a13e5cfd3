import { useState } from 'react';
import { calendarFile } from '../../../../shared/calendar/ics.js';
import { narrowType } from '../../../../shared/core/profiles.js';
import type { SeriesRow } from '../../../../shared/core/series.js';
import { profileLabel } from '../../../../shared/core/types.js';
import { OPEN_ENTRIES, cancelEntry, listEntries } from '../../../../shared/supabase/data.js';
import { listSeries } from '../../../../shared/supabase/series.js';
import { supabase } from '../../supabase.js';
import { ConfirmDialog } from '../ConfirmDialog.js';
import { errorMessage } from '../describe.js';
import type { CardState } from '../useCardState.js';
import { useLoad } from '../useLoad.js';
import { seriesLine } from './weekly.js';

/** How many days ahead the calendar file covers (as `namecard calendar` by default). */
const CALENDAR_DAYS = 90;
const label = (type: string) => profileLabel(narrowType(type));

interface Read {
  series: SeriesRow[];
  /** A Blob URL of the card's schedule as an iCalendar file. */
  calendar: string;
}

/**
 * The series and the same .ics file as `namecard calendar`, read at the server's `now`; the
 * file's URL is let go of when this read is no longer wanted (`signal`).
 */
async function read(now: number, signal: AbortSignal): Promise<Read> {
  const [entries, { series }] = await Promise.all([
    listEntries(supabase, { limit: OPEN_ENTRIES, endingAfter: now }),
    listSeries(supabase),
  ]);
  const text = calendarFile({ entries, series, now, days: CALENDAR_DAYS, label });
  const calendar = URL.createObjectURL(new Blob([text], { type: 'text/calendar' }));
  const release = () => URL.revokeObjectURL(calendar);
  if (signal.aborted) release();
  else signal.addEventListener('abort', release, { once: true });
  return { series, calendar };
}

/** Live: not cancelled, and with an occurrence ahead or no last date passed. */
const live = (s: SeriesRow, today: string) =>
  s.stopped_at == null && (s.last_date == null || s.last_date >= today);

/**
 * The weekly series, each in one line with a Cancel that asks first (it ends the series for
 * good), and a link to download the schedule as an .ics file. Loaded after the first draw
 * (Temporal and the iCalendar code are in its chunk); read again at each new card state.
 */
export function SeriesSection({
  card,
  refresh,
}: {
  card: CardState;
  refresh: () => Promise<CardState | undefined>;
}) {
  const [asking, setAsking] = useState<SeriesRow | null>(null);
  const [outcome, setOutcome] = useState<{ tone: string; text: string } | null>(null);
  const now = card.status.now;
  // Read again at each new card state, at its `now`.
  const loaded = useLoad((signal) => read(card.status.now, signal), [card]);

  async function cancel(series: SeriesRow) {
    try {
      await cancelEntry(supabase, series.id);
      setOutcome({ tone: 'ok', text: `Cancelled series #${series.id}: it ends for good.` });
      await refresh();
    } catch (error) {
      setOutcome({
        tone: 'error',
        text: `Series #${series.id} was not cancelled: ${errorMessage(error)}`,
      });
    }
  }

  if (loaded.state !== 'ready') {
    return (
      <section className="series" aria-label="Weekly series">
        {loaded.state === 'loading' ? (
          <p className="muted small">Reading the weekly series…</p>
        ) : (
          <p className="status error">Could not read the weekly series: {loaded.error}</p>
        )}
      </section>
    );
  }
  const today = new Date(now).toISOString().slice(0, 10);
  const shown = loaded.data.series.filter((s) => live(s, today));
  return (
    <section className="series" aria-labelledby="series-heading" data-testid="series">
      <h2 id="series-heading">Weekly series</h2>
      {shown.length === 0 && <p className="muted small">No weekly series.</p>}
      <ul className="series-list">
        {shown.map((s) => (
          <li key={s.id} data-testid="series-line">
            <span>{seriesLine(s, label(s.type), now)}</span>{' '}
            <button
              type="button"
              className="button secondary small-button"
              aria-label={`Cancel series #${s.id}`}
              onClick={() => setAsking(s)}
            >
              Cancel
            </button>
          </li>
        ))}
      </ul>
      <p role="status" className={`status${outcome ? ` ${outcome.tone}` : ''}`}>
        {outcome?.text}
      </p>
      <a className="button secondary" href={loaded.data.calendar} download="namecard.ics">
        Download calendar (.ics)
      </a>
      {asking && (
        <ConfirmDialog
          heading={`Cancel series #${asking.id}?`}
          confirm="Yes, end the series"
          onConfirm={() => {
            const s = asking;
            setAsking(null);
            void cancel(s);
          }}
          onDismiss={() => setAsking(null)}
        >
          <p>
            {seriesLine(asking, label(asking.type), now)}: the series ends for good, with no more
            occurrences (one running now stops). Its past occurrences stay in the history.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
