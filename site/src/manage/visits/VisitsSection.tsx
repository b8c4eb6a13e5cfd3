import {
  DEFAULT_VISIT_DAYS,
  dayStarts,
  summarizeVisits,
  visitWindow,
  type VisitSummary,
} from '../../../../shared/calendar/visits.js';
import { localTimeZone } from '../../../../shared/core/format.js';
import { labelsOf, profileLabel, type ProfileLabels } from '../../../../shared/core/profiles.js';
import { fetchVisitCounts, listProfiles } from '../../../../shared/supabase/data.js';
import { supabase } from '../../supabase.js';
import { useCardScope, type CardScope } from '../card/card-scope.js';
import { useLoad } from '../parts/useLoad.js';
import { VisitsChart, CHANNELS } from './VisitsChart.js';
import './visits.css';

/**
 * The last 30 days in this browser's zone, from the card's counts (same sums as `stats`), and
 * the profiles' labels (removed ones too: their past visits still count), so that each profile
 * is named as everywhere else.
 */
async function loadSummary(
  scope: CardScope,
): Promise<{ summary: VisitSummary; labels: ProfileLabels }> {
  const window = visitWindow(Date.now(), DEFAULT_VISIT_DAYS, localTimeZone());
  const [counts, profiles] = await Promise.all([
    fetchVisitCounts(supabase, dayStarts(window), scope.slug),
    listProfiles(supabase, { removed: true, card: scope.slug }),
  ]);
  return { summary: summarizeVisits(counts, window), labels: labelsOf(profiles) };
}

/**
 * Visits: the last 30 days as bars per day, split by channel, today marked; the totals; and a
 * table of the same numbers as the chart's text alternative.
 */
export function VisitsSection() {
  const scope = useCardScope();
  const loaded = useLoad(() => loadSummary(scope), [scope]);

  return (
    <section className="card visits" aria-labelledby="visits-heading" data-testid="visits">
      <h2 id="visits-heading">Visits</h2>
      {loaded.state === 'loading' && <p className="muted small">Loading the visit counts…</p>}
      {loaded.state === 'error' && (
        <p className="status error" role="alert">
          Could not load the visit counts: {loaded.error}
        </p>
      )}
      {loaded.state === 'ready' && <Summary {...loaded.data} />}
      <p className="muted small">
        Counts only: no cookies, no addresses, no devices are kept. Your own visits from a browser
        where you are signed in are not counted.
      </p>
    </section>
  );
}

function Summary({ summary, labels }: { summary: VisitSummary; labels: ProfileLabels }) {
  const first = summary.days[0]!.day;
  const last = summary.days.at(-1)!.day;
  // No visits yet: a sentence says so, where a chart and a table would show only zeros.
  if (summary.total === 0) {
    return (
      <p className="visits-none" data-testid="visits-none">
        No visits yet in the last {summary.days.length} days ({first} to {last}, {summary.time_zone}
        ). Visits through your card link, its QR code or an NFC tag show here by day.
      </p>
    );
  }
  return (
    <>
      <p className="visits-total">
        <strong data-testid="visits-total">{summary.total}</strong>{' '}
        {summary.total === 1 ? 'visit' : 'visits'} in the last {summary.days.length} days ({first}{' '}
        to {last}, {summary.time_zone})
      </p>
      <ul className="visits-totals small" data-testid="visits-by-via">
        {CHANNELS.map((c) => (
          <li key={c.via}>
            <span className={`swatch ${c.via}`} aria-hidden="true" /> {c.label}:{' '}
            <span data-via={c.via}>{summary.by_via[c.via]}</span>
          </li>
        ))}
        <li>
          {Object.entries(summary.by_type).map(([type, visits], index) => (
            <span key={type}>
              {index > 0 && ', '}
              {profileLabel(type, labels)}: <span data-type={type}>{visits}</span>
            </span>
          ))}
        </li>
      </ul>
      <VisitsChart summary={summary} />
      <details className="small">
        <summary>The counts by day, as a table</summary>
        <table className="visits-table">
          <caption className="sr-only">Visits per day by channel</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Visits</th>
              {CHANNELS.map((c) => (
                <th scope="col" key={c.via}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {summary.days
              .slice()
              .reverse()
              .map((d) => (
                <tr key={d.day}>
                  <th scope="row">{d.day === last ? `${d.day} (today)` : d.day}</th>
                  <td>{d.total}</td>
                  {CHANNELS.map((c) => (
                    <td key={c.via}>{d.by_via[c.via]}</td>
                  ))}
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </>
  );
}
