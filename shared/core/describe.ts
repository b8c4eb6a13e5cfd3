import { formatStamp } from './format.js';
import type { Change } from './rules.js';
import { profileLabel, type NamecardRow } from './types.js';

// What visitors get, in the owner's words, for the CLI and the manage page alike. Intl only
// (through format.ts), so `namecard status` and /manage can use it without Temporal.

/** What visitors get for an entry, or for none: `Photographer` or `the main site`. */
export function visitorsGet(entry: NamecardRow | null | undefined): string {
  return entry?.type === 'photo' ? profileLabel('photo') : 'the main site';
}

/**
 * One change to come, as a sentence: `Then Photographer again until 2030-06-01 18:00 UTC`
 * (an entry that had started and comes back), `Then the main site from … until …` (one not
 * started yet), or `Then the main site` when nothing is active any more (it follows the
 * previous sentence's "until").
 *
 * @param change a change from `changesAfter`
 * @param now epoch milliseconds: an entry that started before it "comes back"
 * @param timeZone IANA time zone to show the stamps in
 */
export function describeChange(change: Change, now: number, timeZone: string): string {
  const { entry } = change;
  if (!entry) return 'Then the main site';
  const label = visitorsGet(entry);
  const until = formatStamp(entry.stamp_end, timeZone);
  const started = entry.stamp_start == null || entry.stamp_start <= now;
  return started
    ? `Then ${label} again until ${until}`
    : `Then ${label} from ${formatStamp(change.at, timeZone)} until ${until}`;
}

/**
 * The changes visitors will see, as sentences: what the owner needs to know after setting the
 * card. A change from one entry to another that sends visitors to the same place (a `main`
 * entry ending into nothing) is not one they see, so it is left out.
 *
 * @param changes from `changesAfter`, in time order
 * @param current the active entry now, or null
 * @param now epoch milliseconds
 * @param timeZone IANA time zone
 * @param max how many sentences at most
 * @example describeChanges(changesAfter(rows, now), activeEntry(rows, now), now, 'UTC')
 * // → ['Then Photographer again until 2030-06-01 18:00 UTC', 'Then the main site']
 */
export function describeChanges(
  changes: readonly Change[],
  current: NamecardRow | null,
  now: number,
  timeZone: string,
  max = 3,
): string[] {
  const sentences: string[] = [];
  let shown = visitorsGet(current);
  for (const change of changes) {
    const next = visitorsGet(change.entry);
    const scheduledPhoto = change.entry?.type === 'photo' && shown === next;
    if (next === shown && !scheduledPhoto) continue;
    sentences.push(describeChange(change, now, timeZone));
    shown = next;
    if (sentences.length >= max) break;
  }
  return sentences;
}
