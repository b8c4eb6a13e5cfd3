import { formatStamp } from '../../../shared/calendar/time.js';
import { PROFILE_LABELS, isProfileType, type NamecardRow } from '../../../shared/core/types.js';

/** The form's label for a profile type; an unknown type is shown as stored. */
export function profileLabel(type: string): string {
  return isProfileType(type) ? PROFILE_LABELS[type] : type;
}

/**
 * What visitors get now, for the active entry (`null` when none is active): only `photo`
 * sends them to the photo section, anything else to the main site.
 */
export function describeActive(entry: NamecardRow | null): string {
  if (!entry) return `No active entry: visitors get ${PROFILE_LABELS.main}.`;
  const label = entry.type === 'photo' ? PROFILE_LABELS.photo : PROFILE_LABELS.main;
  return `Visitors now get ${label} until ${formatStamp(entry.stamp_end)}.`;
}

/**
 * The status line after an insert: the stored entry, and what visitors get now.
 *
 * @param row the row the server stored
 * @param active the active entry read after the insert (`undefined` when that read failed)
 * @param now the browser's clock, epoch milliseconds
 */
export function describeOutcome(
  row: NamecardRow,
  active: NamecardRow | null | undefined,
  now: number,
): string {
  if (row.stamp_end <= now) {
    const visitors = active === undefined ? '' : ` ${describeActive(active)}`;
    return `Saved ${profileLabel(row.type)} until ${formatStamp(row.stamp_end)}, which has already passed, so it is not active.${visitors}`;
  }
  // The new entry has the highest id, so it is the active one unless the re-read says otherwise.
  return `Card set! ${describeActive(active === undefined ? row : active)}`;
}

/** The message of an error for the status line (the server's message for API errors). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
