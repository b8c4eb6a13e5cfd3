import { describeChanges, REFUSAL_WORDS, visitorsGet } from '../../../shared/core/describe.js';
import { isRefusal } from '../../../shared/core/errors.js';
import { formatDuration, formatStamp, localTimeZone } from '../../../shared/core/format.js';
import type { EntryState } from '../../../shared/core/rules.js';
import { MAIN_PROFILE, readProfile } from '../../../shared/core/profiles.js';
import { profileLabel, type NamecardRow } from '../../../shared/core/types.js';
import type { CardState } from './useCardState.js';

/**
 * What visitors get now, for the active entry (`null` when none is active): only `photo`
 * sends them to the photo section, anything else to the main site.
 */
export function describeActive(entry: NamecardRow | null): string {
  if (!entry) return `No active entry: visitors get ${MAIN_PROFILE.label}.`;
  const label = readProfile(entry.type).profile.label;
  return `Visitors now get ${label} until ${formatStamp(entry.stamp_end)}.`;
}

/** What follows the active entry, as sentences ending in a full stop. */
export function describeFollowing(card: CardState): string[] {
  return describeChanges(card.changes, card.active, card.readAt, localTimeZone()).map(
    (sentence) => `${sentence}.`,
  );
}

/** The next scheduled entry: `Next: Photographer from … until …, in 2 days.` */
export function describeNext(next: NamecardRow | null, now: number): string | undefined {
  if (next?.stamp_start == null) return undefined;
  return `Next: ${visitorsGet(next)} from ${formatStamp(next.stamp_start)} until ${formatStamp(next.stamp_end)}, in ${formatDuration(next.stamp_start - now)}.`;
}

/** An entry's state in the history, in words. */
export function describeState(state: EntryState): string {
  switch (state.state) {
    case 'scheduled':
      return `scheduled (from ${formatStamp(state.startsAt)})`;
    case 'paused':
      return `paused (returns at ${formatStamp(state.returnsAt)})`;
    default:
      return state.state;
  }
}

/** An entry for the history: `Photographer, from … until …`. */
export function describeEntry(row: NamecardRow): string {
  const from = row.stamp_start == null ? '' : ` from ${formatStamp(row.stamp_start)}`;
  return `${profileLabel(row.type)}${from} until ${formatStamp(row.stamp_end)}`;
}

/**
 * An error in the owner's words. A refusal by the database (RLS, no grant) means this account
 * is not one of the card's owners; the server's own text is kept after it, in parentheses.
 */
export function errorMessage(error: unknown): string {
  if (isRefusal(error, 'not_owner')) {
    return `${REFUSAL_WORDS.not_owner} (${error.message})`;
  }
  return error instanceof Error ? error.message : String(error);
}
