import { localTimeZone } from '../../../../shared/core/format.js';
import { calendarFile } from '../../../../shared/calendar/ics.js';
import { profileLabel, type ProfileLabels } from '../../../../shared/core/profiles.js';
import type { SeriesRow } from '../../../../shared/core/series.js';
import {
  OPEN_ENTRIES,
  cancelEntry,
  listEntries,
  type ProfileEntry,
} from '../../../../shared/supabase/data.js';
import { listSeries } from '../../../../shared/supabase/series.js';
import { supabase } from '../../supabase.js';
import { may, useCardScope } from '../card/card-scope.js';
import { AskFirst } from '../parts/AskFirst.js';
import type { Question } from '../parts/question.js';
import { OutcomeLine } from '../parts/Outcome.js';
import { useChange } from '../parts/useChange.js';
import { describeInstead } from '../entries/describe.js';
import { cardLabels, cardTimeline, serverNow, type CardState } from '../entries/useCardState.js';
import { useLoad } from '../parts/useLoad.js';
import { seriesLine } from './weekly.js';

/** How many days ahead the calendar file covers (as `namecard calendar` by default). */
const CALENDAR_DAYS = 90;

interface Read {
  series: SeriesRow[];
  /** A Blob URL of the card's schedule as an iCalendar file. */
  calendar: string;
}

/**
 * The series and the same .ics file as `namecard calendar`, read at the server's `now`; the
 * file's URL is let go of when this read is no longer wanted (`signal`).
 */
async function read(
  card: string,
  now: number,
  labels: ProfileLabels,
  signal: AbortSignal,
): Promise<Read> {
  const [entries, { series }] = await Promise.all([
    listEntries(supabase, { limit: OPEN_ENTRIES, endingAfter: now, card }),
    listSeries(supabase, card),
  ]);
  const text = calendarFile({ entries, series, now, days: CALENDAR_DAYS, labels });
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
 * good; the question says what visitors get instead, by the page's own `cardTimeline`), and a
 * link to download the schedule as an .ics file. Loaded after the first draw (Temporal and the
 * iCalendar code are in its chunk); read again at each new card state.
 *
 * @param profiles the card's profiles, for their labels (the status's otherwise)
 */
export function SeriesSection({
  card,
  profiles,
  refresh,
}: {
  card: CardState;
  profiles?: readonly ProfileEntry[];
  refresh: () => Promise<CardState | undefined>;
}) {
  const scope = useCardScope();
  const change = useChange();
  const now = card.status.now;
  const labels = cardLabels(card, profiles);
  // Read again at each new card state (at its `now`) and with new labels.
  const loaded = useLoad(
    (signal) => read(scope.slug, card.status.now, cardLabels(card, profiles), signal),
    [scope, card, profiles],
  );

  const cancel = (series: SeriesRow) =>
    change.run(async () => {
      await cancelEntry(supabase, series.id, scope.slug);
      await refresh();
      return `Cancelled series #${series.id}: it ends for good.`;
    }, `Series #${series.id} was not cancelled`);

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
            <span>{seriesLine(s, profileLabel(s.type, labels), now)}</span>{' '}
            {may(scope, 'editor') && (
              <AskFirst
                label="Cancel"
                name={`Cancel series #${s.id}`}
                busy={change.busy}
                question={() => cancelQuestion(card, s, labels)}
                onConfirm={() => void cancel(s)}
              />
            )}
          </li>
        ))}
      </ul>
      <OutcomeLine outcome={change.outcome} />
      <a className="button secondary" href={loaded.data.calendar} download="namecard.ics">
        Download calendar (.ics)
      </a>
    </section>
  );
}

/**
 * The question before a series is cancelled, asked at the server's now (estimated): what ends,
 * and what visitors will get instead, by `cardTimeline` with the cancel made (the page's own
 * timeline rule and rows).
 */
function cancelQuestion(card: CardState, series: SeriesRow, labels: ProfileLabels): Question {
  const at = serverNow(card);
  const before = cardTimeline(card, at);
  const after = cardTimeline(card, at, { kind: 'cancel', id: series.id });
  return {
    heading: `Cancel series #${series.id}?`,
    confirm: 'Yes, end the series',
    text: (
      <>
        <p>
          {seriesLine(series, profileLabel(series.type, labels), card.status.now)}: the series ends
          for good, with no more occurrences (one running now stops). Its past occurrences stay in
          the history.
        </p>
        <p data-testid="confirm-instead">
          {describeInstead(before, after, at, localTimeZone(), labels)}
        </p>
      </>
    ),
  };
}
