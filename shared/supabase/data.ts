import { ApiError } from '../core/errors.js';
import { NAMECARD_TABLE, type CardStatus } from '../core/lookup.js';
import {
  cancelOutcome,
  endOutcome,
  isProfileEntry,
  labelsToRead,
  PROFILE_COLUMNS,
  PROFILE_TABLE,
  profilesOf,
  setArgs,
  setOutcome,
  type EndOutcome,
  type ProfileEntry,
} from '../core/member-answers.js';
import { labelsOf, type ProfileLabels } from '../core/profiles.js';
import { narrowRow } from '../core/rules.js';
import type { NamecardRow, NewEntry } from '../core/types.js';
import type { VisitCount } from '../calendar/visits.js';
import { cardIdOf } from './cards.js';
import { toError, type DataClient } from './errors.js';

export { PROFILE_TABLE, labelsToRead, type DataClient, type EndOutcome, type ProfileEntry };

// A member's data calls through supabase-js (a person's session or a card token): list entries,
// set one (with the status), end now, cancel one, the visits, the profiles. (What visitors get is
// read by core/lookup.ts, with one plain request.) Only the type of the client is imported, so
// code that never creates a client does not load supabase-js. Each takes the card by its slug
// (`card`): functions take the slug, a table read filters on the card's id, learnt once per
// client (cards.ts cardIdOf).

/** Every column: what a member may read. */
const OWNER_COLUMNS =
  'id,type,stamp_start,stamp_end,created_at,created_by,stopped_at,stop_kind,planned_end';

/**
 * How many entries that have not ended a face reads (`listEntries` with `endingAfter`) to
 * work out what follows: far more entries than an owner schedules ahead.
 */
export const OPEN_ENTRIES = 1000;

/**
 * Lists the card's entries newest first (highest `id` first); its members read them.
 *
 * @param client a supabase-js client with a session or a card token
 * @param options.card the card's slug
 * @param options.limit how many rows at most (a positive integer; default 20)
 * @param options.endingAfter only entries whose `stamp_end` is after this (epoch ms): with it,
 *   the rows are every entry that is active or may still become active
 * @returns the rows, newest first
 * @throws ApiError with the server's code and message (PT404 `no such card`); NetworkError
 *   when unreachable
 */
export async function listEntries(
  client: DataClient,
  options: { card: string; limit?: number; endingAfter?: number },
): Promise<NamecardRow[]> {
  // A plain string: supabase-js would otherwise parse the column list at the type level.
  const columns: string = OWNER_COLUMNS;
  let query = client
    .from(NAMECARD_TABLE)
    .select(columns)
    .eq('card_id', await cardIdOf(client, options.card));
  if (options.endingAfter !== undefined) {
    query = query.gt('stamp_end', Math.floor(options.endingAfter));
  }
  const result = await query.order('id', { ascending: false }).limit(options.limit ?? 20);
  if (result.error) throw toError(client, result);
  return ((result.data ?? []) as unknown as NamecardRow[]).map(narrowRow);
}

/**
 * Stores an entry and learns what visitors get afterwards, in one request
 * (`public.namecard_set(type, stamp_start, stamp_end, card)` through `/rest/v1/rpc`). The
 * function checks the caller's role on the card first; the server fills in `id`, `created_at`
 * and `created_by` (the person; none for a card token).
 *
 * @param client a supabase-js client of an editor or owner (or an editor token)
 * @param entry the profile, `stamp_end` and optional `stamp_start` (epoch ms)
 * @param card the card's slug
 * @returns the row as stored, and the card's status (now, active entry, timeline) after it
 * @throws ApiError with the server's code and message (42501 for a non-editor, with details
 *   `needs editor` for a viewer; PT404 `no such card`; 23514 or 23503 for an entry the table
 *   refuses); NetworkError when unreachable
 */
export async function setEntry(
  client: DataClient,
  entry: NewEntry,
  card: string,
): Promise<{ entry: NamecardRow; status: CardStatus }> {
  const result = await client.rpc('namecard_set', setArgs(entry, card));
  if (result.error) throw toError(client, result);
  return setOutcome(result.data, result.status);
}

/**
 * Ends what visitors get now, by the server's clock (`public.namecard_end_now()` through
 * `/rest/v1/rpc`): every entry in force now stops now and is marked ended early; entries that
 * start later stay scheduled. Nothing is stored when that would change nothing visitors get.
 * One request: the answer carries the status after it.
 *
 * @param client a supabase-js client of an editor or owner (or an editor token)
 * @param card the card's slug
 * @returns the entries stopped, those another call stopped first, and the status after it
 * @throws ApiError 42501 `needs editor` for a viewer, PT404 `no such card`; NetworkError when
 *   unreachable
 */
export async function endNow(client: DataClient, card: string): Promise<EndOutcome> {
  const result = await client.rpc('namecard_end_now', { card });
  if (result.error) throw toError(client, result);
  return endOutcome(result.data, result.status);
}

/**
 * Cancels one entry for good, by the server's clock (`public.namecard_cancel(entry_id)`): a
 * running entry stops now, a scheduled one never starts; the row stays, marked cancelled.
 * One request: the answer carries the status after it.
 *
 * @param client a supabase-js client of an editor or owner (or an editor token)
 * @param entryId the entry's `id` (or a series')
 * @param card the card's slug (an id of another card is no entry of it)
 * @returns the cancelled entry as stored, and the status after it
 * @throws ApiError `PT404` for an unknown entry (or card), `PT409` for one that has ended or
 *   was stopped already (by this owner before, or by a call racing this one), 42501 for a
 *   non-editor; NetworkError when unreachable
 */
export async function cancelEntry(
  client: DataClient,
  entryId: number,
  card: string,
): Promise<{ cancelled: NamecardRow; status: CardStatus }> {
  const result = await client.rpc('namecard_cancel', { entry_id: entryId, card });
  if (result.error) throw toError(client, result);
  return cancelOutcome(result.data, result.status);
}

/** The most day starts one call of `namecard_visit_days` takes: 31 days and the end of the last. */
export const VISIT_DAYS_PER_CALL = 32;

/**
 * Reads the visit counts summed per day on the server (`public.namecard_visit_days`, the card's
 * members, viewers included): one request a month of days (the server answers at most 31 days a
 * call, so that what one call costs stays bounded), whatever the number of visits.
 *
 * @param client a supabase-js client of a member (or a card token)
 * @param dayStarts the days' starts, epoch ms ascending, plus the end of the last day (as
 *   {@link visitWindow} gives them: on 15-minute boundaries)
 * @param card the card's slug
 * @returns one row per day, profile and channel with visits; `bucket` is the day's start
 * @throws ApiError with the server's code and message (PT404 `no such card`); NetworkError
 */
export async function fetchVisitCounts(
  client: DataClient,
  dayStarts: readonly number[],
  card: string,
): Promise<VisitCount[]> {
  const counts: VisitCount[] = [];
  // Consecutive spans sharing their boundary: each call's last start is the next one's first.
  for (let first = 0; first < dayStarts.length - 1; first += VISIT_DAYS_PER_CALL - 1) {
    const starts = dayStarts.slice(first, first + VISIT_DAYS_PER_CALL);
    const result = await client.rpc('namecard_visit_days', { day_starts: starts, card });
    if (result.error) throw toError(client, result);
    const rows = (result.data ?? []) as {
      day: number;
      type: string;
      via: string;
      visits: number;
    }[];
    counts.push(
      ...rows.map((r) => ({
        bucket: starts[Number(r.day) - 1]!,
        type: r.type as VisitCount['type'],
        via: r.via as VisitCount['via'],
        visits: Number(r.visits),
      })),
    );
  }
  return counts;
}

/**
 * Lists the card's profiles by name. Only its members read them (row-level security).
 *
 * @param client a supabase-js client of a member (or a card token)
 * @param options.card the card's slug
 * @param options.removed true to include removed profiles (for history), default false
 * @returns the profiles
 * @throws ApiError with the server's code and message (PT404 `no such card`); NetworkError
 */
export async function listProfiles(
  client: DataClient,
  options: { card: string; removed?: boolean },
): Promise<ProfileEntry[]> {
  let query = client
    .from(PROFILE_TABLE)
    .select(PROFILE_COLUMNS)
    .eq('card_id', await cardIdOf(client, options.card));
  if (!options.removed) query = query.is('removed_at', null);
  const result = await query.order('name');
  if (result.error) throw toError(client, result);
  return profilesOf(result.data);
}

/**
 * `labels` completed with the labels of the card's profiles in `types` that it lacks (a member's
 * read of the profile table; none when nothing is missing): what the CLI's write outputs name a
 * profile by (shared/core/member-answers.ts's labelsToRead says which). A failed read leaves
 * `labels` as they were: the write is done, and the names still say which profile it was.
 *
 * @param client a supabase-js client of a member (or a card token)
 * @param types the profiles an output names
 * @param labels the labels the write's answer carried
 * @param card the card's slug
 */
export async function completeLabels(
  client: DataClient,
  types: readonly string[],
  labels: ProfileLabels,
  card: string,
): Promise<ProfileLabels> {
  const names = labelsToRead(types, labels);
  if (names.length === 0) return labels;
  const result = await client
    .from(PROFILE_TABLE)
    .select(PROFILE_COLUMNS)
    .eq('card_id', await cardIdOf(client, card))
    .in('name', names);
  if (result.error) return labels;
  return { ...labelsOf(profilesOf(result.data)), ...labels };
}

/** Returns the one row a write answered, or throws `no_row` (the server changed nothing). */
function oneProfile(result: { data: unknown; status: number }, what: string): ProfileEntry {
  const row = (Array.isArray(result.data) ? result.data : [])[0];
  if (!isProfileEntry(row)) {
    throw new ApiError(result.status, 'no_row', `The server ${what} no profile`);
  }
  return row;
}

/**
 * Adds a profile (owners only), or brings back a removed one of the same name with the new
 * label and URL.
 *
 * @param client a supabase-js client signed in as an owner
 * @param profile the name, label and destination URL (checked by the caller and the database)
 * @param card the card's slug
 * @returns the stored row
 * @throws ApiError (23505 a profile of that name exists, 23514 a database check or the card's
 *   limit of profiles, 42501 not an owner); NetworkError when unreachable
 */
export async function addProfile(
  client: DataClient,
  profile: { name: string; label: string; url: string },
  card: string,
): Promise<ProfileEntry> {
  const cardId = await cardIdOf(client, card);
  const result = await client
    .from(PROFILE_TABLE)
    .insert({ ...profile, card_id: cardId })
    .select(PROFILE_COLUMNS);
  if (result.error?.code === '23505') {
    // A removed profile of that name comes back, changed as asked; a present one is refused.
    const back = await client
      .from(PROFILE_TABLE)
      .update({ label: profile.label, url: profile.url, removed_at: null })
      .eq('name', profile.name)
      .eq('card_id', cardId)
      .not('removed_at', 'is', null)
      .select(PROFILE_COLUMNS);
    if (back.error) throw toError(client, back);
    if ((back.data ?? []).length === 0) throw toError(client, result);
    return oneProfile(back, 'brought back');
  }
  if (result.error) throw toError(client, result);
  return oneProfile(result, 'stored');
}

/**
 * Changes a profile's label and/or URL (owners only).
 *
 * @param client a supabase-js client signed in as an owner
 * @param name the profile's name
 * @param change the new label and/or URL (`null` URL: follow the build's setting, for main and
 *   photo only)
 * @param card the card's slug
 * @returns the stored row
 * @throws ApiError `no_row` for no such profile (or not an owner: RLS leaves no row), 23514 for
 *   a database check; NetworkError when unreachable
 */
export async function editProfile(
  client: DataClient,
  name: string,
  change: { label?: string; url?: string | null },
  card: string,
): Promise<ProfileEntry> {
  const result = await client
    .from(PROFILE_TABLE)
    .update(change)
    .eq('name', name)
    .eq('card_id', await cardIdOf(client, card))
    .is('removed_at', null)
    .select(PROFILE_COLUMNS);
  if (result.error) throw toError(client, result);
  return oneProfile(result, 'changed');
}

/**
 * Removes a profile (`public.namecard_remove_profile`): it is marked removed and kept, so old
 * entries keep their label. The server refuses main and a profile that an entry in force or a
 * scheduled entry names (23503, the message naming those entries).
 *
 * @param client a supabase-js client signed in as an owner
 * @param name the profile's name
 * @param card the card's slug
 * @returns the marked row
 * @throws ApiError 23503 in use or main, `no_row` for no such profile, 42501 `needs owner` for
 *   another member; NetworkError when unreachable
 */
export async function removeProfile(
  client: DataClient,
  name: string,
  card: string,
): Promise<ProfileEntry> {
  const result = await client.rpc('namecard_remove_profile', { profile_name: name, card });
  if (result.error) throw toError(client, result);
  return oneProfile(result, 'removed');
}
