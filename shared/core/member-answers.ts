import { ApiError } from './errors.js';
import { parseStatus, type CardStatus } from './lookup.js';
import { MAIN_PROFILE, isProfileType, type ProfileLabels } from './profiles.js';
import { narrowRow } from './rules.js';
import type { NamecardRow, NewEntry } from './types.js';

// What a member's calls answer, checked and narrowed: shared by the supabase-js data calls
// (shared/supabase/data.ts) and the CLI's light path, which sends the same requests without
// supabase-js (with a card token, or a stored access token that is valid). One home for the
// answers' shapes, so both refuse a malformed answer with the same words.

/** The profile table: each card's profiles, their labels and destinations. */
export const PROFILE_TABLE = 'namecard_profile';

/** The profile table's columns a member reads. */
export const PROFILE_COLUMNS = 'name,label,url,removed_at';

/**
 * The profiles a write's answer names without their label: the status's `labels` cover only the
 * profiles its timeline names, so an entry just ended or cancelled, or a series whose
 * occurrences are further off, may be missing. Built-in profiles are left out (their labels are
 * known here), so that a write about main or photo stays one request.
 *
 * @param types the profiles the output names
 * @param labels the labels the answer carried
 * @returns the names to read the labels of, without repeats
 */
export function labelsToRead(types: readonly string[], labels: ProfileLabels): string[] {
  return [...new Set(types)].filter((t) => !isProfileType(t) && !Object.hasOwn(labels, t));
}

/**
 * The query that reads the labels of some of a card's profiles (a member's read of the profile
 * table, as PostgREST's query string): a member of several cards reads all their profiles, so the
 * card's id filters them.
 *
 * @param cardId the card's id (`namecard_cards()`'s `id`)
 */
export function labelQuery(names: readonly string[], cardId: number): Record<string, string> {
  return { select: PROFILE_COLUMNS, card_id: `eq.${cardId}`, name: `in.(${names.join(',')})` };
}

/**
 * The query that reads a card's profiles not removed, by name (a member's read of the profile
 * table, as PostgREST's query string), as shared/supabase/data.ts's listProfiles reads them.
 *
 * @param cardId the card's id (`namecard_cards()`'s `id`)
 */
export function profileQuery(cardId: number): Record<string, string> {
  return {
    select: PROFILE_COLUMNS,
    card_id: `eq.${cardId}`,
    removed_at: 'is.null',
    order: 'name.asc',
  };
}

/** One row of `public.namecard_profile`, as a member reads it. */
export interface ProfileEntry {
  /** What entries store in `type` and the CLI types: `^[a-z][a-z0-9-]{0,31}$`. */
  name: string;
  /** What people see, at most 60 characters. */
  label: string;
  /** The destination, or null: main and photo then follow the build's settings. */
  url: string | null;
  /** When the owner removed it (ISO timestamp), or null. Removed profiles stay for history. */
  removed_at: string | null;
}

/** Keeps what a profile row must have; a malformed row from a hostile answer is dropped. */
export function isProfileEntry(row: unknown): row is ProfileEntry {
  if (typeof row !== 'object' || row === null) return false;
  const { name, label, url, removed_at } = row as Record<string, unknown>;
  return (
    typeof name === 'string' &&
    typeof label === 'string' &&
    (url === null || typeof url === 'string') &&
    (removed_at === null || typeof removed_at === 'string')
  );
}

/**
 * The profiles of a read of the profile table (ordered by name): the well-formed rows, main
 * first, the others in the server's order.
 *
 * @param data the parsed JSON answer (null when empty)
 */
export function profilesOf(data: unknown): ProfileEntry[] {
  const rows = ((data ?? []) as unknown[]).filter(isProfileEntry);
  const main = MAIN_PROFILE.type;
  return [...rows.filter((r) => r.name === main), ...rows.filter((r) => r.name !== main)];
}

/** An answer's rows, checked and narrowed; `what` names them in the error. */
function rowsOf(value: unknown, what: string, status: number): NamecardRow[] {
  if (!Array.isArray(value)) {
    throw new ApiError(status, 'invalid_response', `The server answered no list of ${what}`);
  }
  return (value as NamecardRow[]).map(narrowRow);
}

/**
 * The JSON object a write function answered.
 *
 * @param status the answer's HTTP status, named in the error
 * @throws ApiError `invalid_response` when it is not an object
 */
export function answerOf(data: unknown, status: number): Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ApiError(status, 'invalid_response', 'The server answered no JSON object');
  }
  return data as Record<string, unknown>;
}

/** What End now answers (`public.namecard_end_now()`). */
export interface EndOutcome {
  /** The entries this call stopped, newest first; empty when nothing visitors get changed. */
  ended: NamecardRow[];
  /**
   * The entries in force when the call began that another call (a cancel, another End now)
   * stopped while this one waited: what that call did (`stop_kind`, `stopped_at`).
   */
  alreadyStopped: NamecardRow[];
  /** What visitors get afterwards, by the server's clock. */
  status: CardStatus;
}

/**
 * Reads what `public.namecard_end_now()` answered.
 *
 * @param data the parsed JSON answer; `status` its HTTP status
 * @throws ApiError `invalid_response` for an answer of another shape
 */
export function endOutcome(data: unknown, status: number): EndOutcome {
  const answer = answerOf(data, status);
  return {
    ended: rowsOf(answer.ended, 'ended entries', status),
    alreadyStopped: rowsOf(answer.already_stopped, 'stopped entries', status),
    status: parseStatus(answer),
  };
}

/**
 * Reads what `public.namecard_cancel(entry_id)` answered.
 *
 * @param data the parsed JSON answer; `status` its HTTP status
 * @returns the cancelled entry as stored, and the status after it
 * @throws ApiError `no_row` without the entry, `invalid_response` for another shape
 */
export function cancelOutcome(
  data: unknown,
  status: number,
): { cancelled: NamecardRow; status: CardStatus } {
  const answer = answerOf(data, status);
  if (typeof answer.cancelled !== 'object' || answer.cancelled === null) {
    throw new ApiError(status, 'no_row', 'The server did not return the entry');
  }
  return { cancelled: narrowRow(answer.cancelled as NamecardRow), status: parseStatus(answer) };
}

/**
 * Reads what `public.namecard_set(type, stamp_start, stamp_end, card)` answered.
 *
 * @param data the parsed JSON answer; `status` its HTTP status
 * @returns the entry as stored, and the status after it
 * @throws ApiError `no_row` without the entry, `invalid_response` for another shape
 */
export function setOutcome(
  data: unknown,
  status: number,
): { entry: NamecardRow; status: CardStatus } {
  const answer = answerOf(data, status);
  if (typeof answer.entry !== 'object' || answer.entry === null) {
    throw new ApiError(status, 'no_row', 'The server did not return the stored entry');
  }
  return { entry: narrowRow(answer.entry as NamecardRow), status: parseStatus(answer) };
}

/** The arguments of `public.namecard_set`, from a planned entry (epoch ms) and the card's slug. */
export function setArgs(entry: NewEntry, card: string): Record<string, unknown> {
  return {
    type: entry.type,
    stamp_start: entry.stamp_start ?? null,
    stamp_end: entry.stamp_end,
    card,
  };
}
