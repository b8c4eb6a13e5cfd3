import { roleAtLeast } from '../core/cards.js';
import { ApiError } from '../core/errors.js';
import { NAMECARD_TABLE, VIEW_COLUMNS, type CardStatus } from '../core/lookup.js';
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
} from '../core/owner-answers.js';
import { labelsOf, type ProfileLabels } from '../core/profiles.js';
import { narrowRow } from '../core/rules.js';
import type { NamecardRow, NewEntry } from '../core/types.js';
import type { VisitCount } from '../calendar/visits.js';
import { cardIdOf, listCards } from './cards.js';
import { toError, type DataClient } from './errors.js';

export { PROFILE_TABLE, labelsToRead, type DataClient, type EndOutcome, type ProfileEntry };

// The owner's data calls through supabase-js: list entries, insert one, set one (with the status), end now, cancel one. (What visitors get
// is read by core/lookup.ts, with one plain request.) Only the type of the client is imported,
// so code that never creates a client does not load supabase-js. Each takes the card last, by
// its slug (`card`); none acts on the first card, as every call did before cards (a read of a
// table then reads what row-level security shows, as it always did). Functions take the slug;
// a table read or write filters on the card's id, learnt once per client (cards.ts cardIdOf).

/** Every column: what a signed-in owner may read. */
const OWNER_COLUMNS =
  'id,type,stamp_start,stamp_end,created_at,created_by,stopped_at,stop_kind,planned_end';

/**
 * How many entries that have not ended a face reads (`listEntries` with `endingAfter`) to
 * work out what follows: far more entries than an owner schedules ahead.
 */
export const OPEN_ENTRIES = 1000;

/**
 * Lists entries newest first (highest `id` first).
 *
 * @param client a supabase-js client
 * @param options.limit how many rows at most (a positive integer; default 20)
 * @param options.owner true when signed in as the owner, who may read every column; anyone
 *   else reads the columns a visitor may (`id,type,stamp_start,stamp_end`)
 * @param options.endingAfter only entries whose `stamp_end` is after this (epoch ms): with it,
 *   the rows are every entry that is active or may still become active
 * @param options.card the card's slug (its members read it); none: every entry row-level
 *   security shows (the first card's, and the user's cards')
 * @returns the rows, newest first
 * @throws ApiError with the server's code and message (PT404 `no such card`); NetworkError
 *   when unreachable
 */
export async function listEntries(
  client: DataClient,
  options: { limit?: number; owner?: boolean; endingAfter?: number; card?: string } = {},
): Promise<NamecardRow[]> {
  // A plain string: supabase-js would otherwise parse the column list at the type level.
  const columns: string = options.owner ? OWNER_COLUMNS : VIEW_COLUMNS;
  let query = client.from(NAMECARD_TABLE).select(columns);
  if (options.card !== undefined) query = query.eq('card_id', await cardIdOf(client, options.card));
  if (options.endingAfter !== undefined) {
    query = query.gt('stamp_end', Math.floor(options.endingAfter));
  }
  const result = await query.order('id', { ascending: false }).limit(options.limit ?? 20);
  if (result.error) throw toError(client, result);
  return ((result.data ?? []) as unknown as NamecardRow[]).map(narrowRow);
}

/**
 * Inserts an entry and returns the row the server stored (`Prefer: return=representation`).
 * Only owners may insert (RLS); the server fills in `id`, `created_at` and `created_by`.
 *
 * @param client a supabase-js client signed in as an owner
 * @param entry the profile, `stamp_end` and optional `stamp_start` (epoch ms)
 * @param card the card's slug; none: the first card
 * @returns the inserted row, as confirmed by the server
 * @throws ApiError with the server's code and message (e.g. 42501 for a non-owner);
 *   NetworkError when unreachable; ApiError `no_row` when the server confirmed no row
 */
export async function insertEntry(
  client: DataClient,
  entry: NewEntry,
  card?: string,
): Promise<NamecardRow> {
  const cardId = card === undefined ? undefined : await cardIdOf(client, card);
  const result = await client
    .from(NAMECARD_TABLE)
    .insert({
      ...(cardId === undefined ? {} : { card_id: cardId }),
      type: entry.type,
      stamp_end: entry.stamp_end,
      // Sent only when given, so an entry without a start needs no more than the old grants.
      ...(entry.stamp_start != null ? { stamp_start: entry.stamp_start } : {}),
    })
    .select(OWNER_COLUMNS);
  if (result.error) throw toError(client, result);
  const row = (result.data ?? [])[0] as NamecardRow | undefined;
  if (!row)
    throw new ApiError(result.status, 'no_row', 'The server did not return the inserted row');
  return narrowRow(row);
}

/**
 * Whether the signed-in user may change the card (is one of its editors or owners): for the
 * first card from the view `namecard_access`, which asks the same question as the insert
 * policy; for a card named by its slug from the user's role on it (`namecard_cards()`).
 *
 * @param client a supabase-js client with a session
 * @param card the card's slug; none: the first card
 * @returns true for an editor or owner, false for any other account
 * @throws ApiError with the server's code and message; NetworkError when unreachable
 */
export async function canSetCard(client: DataClient, card?: string): Promise<boolean> {
  if (card !== undefined) {
    const mine = (await listCards(client)).find((c) => c.slug === card);
    return roleAtLeast(mine?.role, 'editor');
  }
  const result = await client.from('namecard_access').select('can_set');
  if (result.error) throw toError(client, result);
  const [row] = (result.data ?? []) as { can_set?: unknown }[];
  return row?.can_set === true;
}

/**
 * Stores an entry and learns what visitors get afterwards, in one request
 * (`public.namecard_set(type, stamp_start, stamp_end)` through `/rest/v1/rpc`). The function
 * inserts as the caller, so row-level security (owners only) and the table's checks apply as
 * for {@link insertEntry}; the server fills in `id`, `created_at` and `created_by`.
 *
 * @param client a supabase-js client signed in as an editor or owner
 * @param entry the profile, `stamp_end` and optional `stamp_start` (epoch ms)
 * @param card the card's slug; none: the first card
 * @returns the row as stored, and the card's status (now, active entry, timeline) after it
 * @throws ApiError with the server's code and message (42501 for a non-editor, with details
 *   `needs editor` for a viewer; PT404 `no such card`; 23514 or 23503 for an entry the table
 *   refuses); NetworkError when unreachable
 */
export async function setEntry(
  client: DataClient,
  entry: NewEntry,
  card?: string,
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
 * @param client a supabase-js client signed in as an editor or owner
 * @param card the card's slug; none: the first card
 * @returns the entries stopped, those another call stopped first, and the status after it
 * @throws ApiError 42501 for a non-editor (401 42501 for anon; details `needs editor`), PT404
 *   `no such card`; NetworkError when unreachable
 */
export async function endNow(client: DataClient, card?: string): Promise<EndOutcome> {
  const result = await client.rpc('namecard_end_now', card === undefined ? {} : { card });
  if (result.error) throw toError(client, result);
  return endOutcome(result.data, result.status);
}

/**
 * Cancels one entry for good, by the server's clock (`public.namecard_cancel(entry_id)`): a
 * running entry stops now, a scheduled one never starts; the row stays, marked cancelled.
 * One request: the answer carries the status after it.
 *
 * @param client a supabase-js client signed in as an editor or owner
 * @param entryId the entry's `id` (or a series')
 * @param card the card's slug; none: the first card (an id of another card is no entry of it)
 * @returns the cancelled entry as stored, and the status after it
 * @throws ApiError `PT404` for an unknown entry (or card), `PT409` for one that has ended or
 *   was stopped already (by this owner before, or by a call racing this one), 42501 for a
 *   non-editor; NetworkError when unreachable
 */
export async function cancelEntry(
  client: DataClient,
  entryId: number,
  card?: string,
): Promise<{ cancelled: NamecardRow; status: CardStatus }> {
  const result = await client.rpc('namecard_cancel', {
    entry_id: entryId,
    ...(card === undefined ? {} : { card }),
  });
  if (result.error) throw toError(client, result);
  return cancelOutcome(result.data, result.status);
}

/**
 * Reads the visit counts summed per day on the server (`public.namecard_visit_days`, owners
 * only by RLS): one request whatever the number of visits, at most days × 6 rows.
 *
 * @param client a supabase-js client signed in as a member (anyone else reads no rows)
 * @param dayStarts the days' starts, epoch ms ascending, plus the end of the last day (as
 *   {@link visitWindow} gives them: on 15-minute boundaries)
 * @param card the card's slug; none: the first card
 * @returns one row per day, profile and channel with visits; `bucket` is the day's start
 * @throws ApiError with the server's code and message (401 42501 for anon, PT404 `no such
 *   card`); NetworkError
 */
export async function fetchVisitCounts(
  client: DataClient,
  dayStarts: readonly number[],
  card?: string,
): Promise<VisitCount[]> {
  const result = await client.rpc('namecard_visit_days', {
    day_starts: dayStarts,
    ...(card === undefined ? {} : { card }),
  });
  if (result.error) throw toError(client, result);
  const rows = (result.data ?? []) as { day: number; type: string; via: string; visits: number }[];
  return rows.map((r) => ({
    bucket: dayStarts[Number(r.day) - 1]!,
    type: r.type as VisitCount['type'],
    via: r.via as VisitCount['via'],
    visits: Number(r.visits),
  }));
}

/**
 * Lists the card's profiles, main first, then by name. Only its members read them (RLS):
 * anyone else gets an empty list (signed in) or a 401 (anon).
 *
 * @param client a supabase-js client signed in as a member
 * @param options.removed true to include removed profiles (for history), default false
 * @param options.card the card's slug; none: every profile row-level security shows (the
 *   first card's, for a member of it alone)
 * @returns the profiles
 * @throws ApiError with the server's code and message; NetworkError when unreachable
 */
export async function listProfiles(
  client: DataClient,
  options: { removed?: boolean; card?: string } = {},
): Promise<ProfileEntry[]> {
  let query = client.from(PROFILE_TABLE).select(PROFILE_COLUMNS);
  if (options.card !== undefined) query = query.eq('card_id', await cardIdOf(client, options.card));
  if (!options.removed) query = query.is('removed_at', null);
  const result = await query.order('name');
  if (result.error) throw toError(client, result);
  return profilesOf(result.data);
}

/**
 * `labels` completed with the labels of the profiles in `types` that it lacks (an owner's read
 * of the profile table; none when nothing is missing): what the CLI's write outputs name a
 * profile by (shared/core/owner-answers.ts's labelsToRead says which). A failed read leaves
 * `labels` as they were: the write is done, and the names still say which profile it was.
 *
 * @param client a supabase-js client signed in as an owner
 * @param types the profiles an output names
 * @param labels the labels the write's answer carried
 */
export async function completeLabels(
  client: DataClient,
  types: readonly string[],
  labels: ProfileLabels,
): Promise<ProfileLabels> {
  const names = labelsToRead(types, labels);
  if (names.length === 0) return labels;
  const result = await client.from(PROFILE_TABLE).select(PROFILE_COLUMNS).in('name', names);
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
 * @param card the card's slug; none: the first card
 * @returns the stored row
 * @throws ApiError (23505 a profile of that name exists, 23514 a database check, 42501 not an
 *   owner); NetworkError when unreachable
 */
export async function addProfile(
  client: DataClient,
  profile: { name: string; label: string; url: string },
  card?: string,
): Promise<ProfileEntry> {
  const cardId = card === undefined ? undefined : await cardIdOf(client, card);
  const row = cardId === undefined ? profile : { ...profile, card_id: cardId };
  const result = await client.from(PROFILE_TABLE).insert(row).select(PROFILE_COLUMNS);
  if (result.error?.code === '23505') {
    // A removed profile of that name comes back, changed as asked; a present one is refused.
    let again = client
      .from(PROFILE_TABLE)
      .update({ label: profile.label, url: profile.url, removed_at: null })
      .eq('name', profile.name);
    if (cardId !== undefined) again = again.eq('card_id', cardId);
    const back = await again.not('removed_at', 'is', null).select(PROFILE_COLUMNS);
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
 * @param card the card's slug; none: the first card's profile (or any row-level security
 *   shows of that name)
 * @returns the stored row
 * @throws ApiError `no_row` for no such profile (or not an owner: RLS leaves no row), 23514 for
 *   a database check; NetworkError when unreachable
 */
export async function editProfile(
  client: DataClient,
  name: string,
  change: { label?: string; url?: string | null },
  card?: string,
): Promise<ProfileEntry> {
  let query = client.from(PROFILE_TABLE).update(change).eq('name', name);
  if (card !== undefined) query = query.eq('card_id', await cardIdOf(client, card));
  const result = await query.is('removed_at', null).select(PROFILE_COLUMNS);
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
 * @param card the card's slug; none: the first card
 * @returns the marked row
 * @throws ApiError 23503 in use or main, `no_row` for no such profile (or not an owner; 42501
 *   `needs owner` for another member); NetworkError when unreachable
 */
export async function removeProfile(
  client: DataClient,
  name: string,
  card?: string,
): Promise<ProfileEntry> {
  const result = await client.rpc('namecard_remove_profile', {
    profile_name: name,
    ...(card === undefined ? {} : { card }),
  });
  if (result.error) throw toError(client, result);
  return oneProfile(result, 'removed');
}
