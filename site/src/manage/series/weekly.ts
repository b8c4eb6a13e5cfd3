import { nextOccurrences } from '../../../../shared/calendar/series.js';
import { InputError } from '../../../../shared/core/errors.js';
import { localTimeZone } from '../../../../shared/core/format.js';
import { seriesWords, type SeriesRow } from '../../../../shared/core/series.js';
import type { SeriesRule } from '../../../../shared/core/series.js';
import { setSeries } from '../../../../shared/supabase/series.js';
import { supabase } from '../../supabase.js';
import { describeAfter } from '../entries/describe.js';
import type { CardState } from '../entries/useCardState.js';

// The "Repeat weekly" part of the set form, loaded only when the user opens it: the weekly
// series the fields ask for, stored through the same shared call as `namecard set --every`.

/** The weekly fields as messages name them. */
export const WEEKLY_FIELD_NAMES = ['Days', 'From', 'Until', 'First day', 'Last day'];

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The series the weekly fields ask for, in the browser's time zone.
 *
 * @param field reads one field of the form by name
 * @param days the checked weekday boxes' values (ISO weekdays as text)
 * @throws InputError naming the field and the expected form; nothing is stored then
 */
export function seriesFromForm(
  field: (name: string) => string,
  days: readonly string[],
): SeriesRule {
  const weekdays = days.map(Number).filter((d) => d >= 1 && d <= 7);
  if (weekdays.length === 0) {
    throw new InputError(
      'Days',
      'at least one day (Mon … Sun)',
      'none',
      'Days: choose at least one day (Mon … Sun)',
    );
  }
  const time = (name: string, label: string) => {
    const value = field(name);
    if (!TIME.test(value)) throw new InputError(label, 'a time HH:MM', value);
    return value;
  };
  const date = (name: string, label: string) => {
    const value = field(name);
    if (value && !DATE.test(value)) throw new InputError(label, 'a date YYYY-MM-DD', value);
    return value || null;
  };
  const first = date('series-first', 'First day');
  const last = date('series-last', 'Last day');
  if (first && last && last < first) {
    throw new InputError('Last day', `on or after the first day (${first})`, last);
  }
  return {
    type: field('profile'),
    weekdays: [...new Set(weekdays)].sort((a, b) => a - b),
    start_time: time('series-start', 'From'),
    end_time: time('series-end', 'Until'),
    time_zone: localTimeZone(),
    first_date: first,
    last_date: last,
  };
}

/** An occurrence's start with its date: `Sat 28 Nov, 10:00`. */
function startWords(at: number, _now: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(at);
}

/**
 * A series in one line as the page shows it: `Photographer every Sat 10:00–18:00, next Sat 28
 * Nov, 10:00` (`no occurrence ahead` when none is). A series set in another zone than the
 * browser's gives its own zone's times and its next start in both zones, each named
 * (seriesWords).
 *
 * @param series the stored series
 * @param label the profile's label
 * @param now epoch ms (the server's now)
 */
export function seriesLine(series: SeriesRow, label: string, now: number): string {
  const [next] = nextOccurrences(series, now, 1);
  const words = seriesWords(series, next?.stamp_start ?? null, now, localTimeZone(), startWords);
  return `${label} ${words.rule}, ${words.next}`;
}

/**
 * Stores the series and says what was stored and what visitors get: `Series set! #12
 * Photographer every Sat 10:00–18:00, next … Visitors now get …`.
 *
 * @param series the series to store
 * @param label the profile's label
 * @param refresh reads the card's state again (after the server confirmed the row)
 * @param card the card's slug
 * @throws ApiError, NetworkError: nothing was stored
 */
export async function storeSeries(
  series: SeriesRule,
  label: string,
  refresh: () => Promise<CardState | undefined>,
  card: string,
): Promise<string> {
  const { series: row, status } = await setSeries(supabase, series, card);
  const fresh = await refresh();
  const now = fresh?.status.now ?? status.now;
  return `Series set! #${row.id} ${seriesLine(row, label, now)}. ${describeAfter(fresh?.status ?? status, localTimeZone())}`;
}
