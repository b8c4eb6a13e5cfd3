import {
  describeFollowing,
  describeNow,
  describeState,
  visitorsGet,
} from '../../../../shared/core/describe.js';
import type { EntryFieldNames } from '../../../../shared/core/entry-rules.js';
import { formatRelative, formatWhen } from '../../../../shared/core/format.js';
import type { CardStatus, StatusSeries } from '../../../../shared/core/lookup.js';
import { foldSeries, seriesWords } from '../../../../shared/core/series.js';
import type { EntryState, Segment } from '../../../../shared/core/timeline.js';
import { profileLabel, type NamecardRow } from '../../../../shared/core/types.js';

// The manage page's words for entries and their states, with times read at a glance
// (`today 18:00`, `Wed 09:00`); the page names the zone once, in its header line. Pure
// functions of what they are given: nothing here imports the page's hooks or components.

/** The set form's fields as messages name them, so that a refusal points at what to change. */
export const FORM_FIELD_NAMES: EntryFieldNames = {
  profile: 'Profile',
  date: 'Date',
  time: 'Time',
  from: 'Start',
  for: 'Duration',
  timeZone: 'time zone',
};

/**
 * An entry in a few words, with its id (Cancel takes one): `#12 Photographer from Wed 09:00
 * until Wed 18:00`. A stopped entry shows the end it was planned with. An occurrence of a
 * weekly series (End now stops the one in force) says so: `this time of weekly series #4
 * (Photographer from today 10:00 until today 18:00)`.
 */
export function describeEntry(
  row: NamecardRow & { series?: boolean },
  now: number,
  timeZone: string,
  labels: Readonly<Record<string, string>> = {},
): string {
  const from = row.stamp_start == null ? '' : ` from ${formatWhen(row.stamp_start, now, timeZone)}`;
  const end = row.planned_end ?? row.stamp_end;
  const words = `${profileLabel(row.type, labels)}${from} until ${formatWhen(end, now, timeZone)}`;
  return row.series ? `this time of weekly series #${row.id} (${words})` : `#${row.id} ${words}`;
}

/** One line of the list under the timeline picture: its words and the profile it marks. */
export interface FollowingItem {
  key: string;
  text: string;
  /** The profile whose colour marks the line; none for "And more changes after that". */
  type?: string;
}

/**
 * The list under the timeline picture: each coming change in words (`Then Photographer from
 * Wed 09:00 until Wed 18:00`) and each weekly series in one line (`Photographer every Sat
 * 10:00–18:00, next Sat 10:00`), in the order they come; a series' occurrences are not
 * repeated as changes of their own (foldSeries), while the picture keeps drawing them.
 *
 * @param segments the timeline from `now` (cardTimeline)
 * @param series the series with an occurrence ahead (the status's)
 * @param now epoch ms (the server's now, estimated)
 * @param timeZone IANA time zone of the times shown (named once, at the top of the page)
 * @param labels the profiles' labels from the server
 */
export function followingItems(
  segments: readonly Segment[],
  series: readonly StatusSeries[],
  now: number,
  timeZone: string,
  labels: Readonly<Record<string, string>>,
): FollowingItem[] {
  const folded = foldSeries(segments, series);
  const lines = describeFollowing(folded, now, timeZone, folded.length, labels);
  const changes = folded.slice(1).map((segment, index) => ({
    at: segment.from,
    item: { key: `change-${segment.from}`, text: lines[index]!, type: segment.type },
  }));
  const weekly = series.map((s) => {
    const words = seriesWords(s, s.next, now, timeZone);
    const text = `${visitorsGet(s.type, labels)} ${words.rule}, ${words.next}`;
    return { at: s.next, item: { key: `series-${s.id}`, text, type: s.type } };
  });
  const more = lines.slice(changes.length).map((text) => ({ key: text, text }));
  return [...[...changes, ...weekly].sort((a, b) => a.at - b.at).map((x) => x.item), ...more];
}

/**
 * An entry's state in the words both faces use (shared/core/describe.ts), with a hint of how
 * far off a start or a return is: `scheduled from Wed 09:00 (in 2 days)`.
 */
export function describeStateSoon(state: EntryState, now: number, timeZone: string): string {
  const words = describeState(state, now, timeZone);
  if (state.state === 'scheduled') return `${words} (${formatRelative(state.from, now)})`;
  if (state.state === 'comes-back') return `${words} (${formatRelative(state.at, now)})`;
  return words;
}

/** Whether a state belongs to an entry that still counts (running, coming or covered). */
export function isUpcoming(state: EntryState): boolean {
  return ['on-now', 'scheduled', 'comes-back', 'never-shown'].includes(state.state);
}

/**
 * What visitors get after a change, in words: `Visitors now get the main site. Then
 * Photographer again from Wed 09:00 (in 2 days) until Wed 18:00.`
 *
 * @param status the card's status read after the change, or undefined when that read failed
 * @param timeZone IANA time zone of the times shown
 */
export function describeAfter(status: CardStatus | undefined, timeZone: string): string {
  if (!status) return '(The current state could not be read again.)';
  const { now, timeline, labels } = status;
  const [first] = timeline;
  if (!first) return '';
  const next = nextChange(timeline, now, timeZone, labels);
  const visitors = `Visitors now get ${describeNow(first, now, timeZone, labels)}.`;
  return next ? `${visitors} ${next}.` : visitors;
}

/**
 * The first change after now in words (`Then Photographer from Wed 09:00 …`), or undefined
 * when the timeline has no second segment: decided on the segments, not on the sentence.
 */
function nextChange(
  timeline: readonly Segment[],
  now: number,
  timeZone: string,
  labels: Readonly<Record<string, string>>,
): string | undefined {
  if (timeline.length < 2) return undefined;
  return describeFollowing(timeline.slice(0, 2), now, timeZone, 1, labels)[0];
}

/** Whether two timelines are the same, segment for segment. */
export function sameTimeline(a: readonly Segment[], b: readonly Segment[]): boolean {
  return (
    a.length === b.length &&
    a.every((s, i) => s.type === b[i]!.type && s.from === b[i]!.from && s.to === b[i]!.to)
  );
}

/**
 * What visitors will get after a change (End now, Cancel), said before it is made: `Visitors
 * will get the main site until Wed 09:00 (in 2 days) instead. Then Photographer from Wed 09:00
 * until Wed 18:00.`; `Visitors still get …` when they keep the same profile now (the change
 * is in what follows); a change that leaves the timeline as it is says so.
 *
 * @param before the timeline from `now` as it is (segments, as `timeline()` answers them)
 * @param after the timeline from `now` once the change is made
 * @param now epoch ms (the server's now, estimated)
 * @param timeZone IANA time zone of the times shown
 * @param labels the profiles' labels from the server (the status's `labels`)
 */
export function describeInstead(
  before: readonly Segment[],
  after: readonly Segment[],
  now: number,
  timeZone: string,
  labels: Readonly<Record<string, string>> = {},
): string {
  const [first] = after;
  if (!first) return '';
  if (sameTimeline(before, after))
    return 'What visitors get does not change: a newer entry covers its time.';
  const next = nextChange(after, now, timeZone, labels);
  const then = next ? ` ${next}.` : '';
  const changesNow = before[0]?.type !== first.type;
  const visitors = changesNow
    ? `Visitors will get ${describeNow(first, now, timeZone, labels)} instead.`
    : `Visitors still get ${describeNow(first, now, timeZone, labels)}.`;
  return `${visitors}${then}`;
}
