import type { SupabaseClient } from '@supabase/supabase-js';
import { ApiError, NetworkError } from '../core/errors.js';
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

export { PROFILE_TABLE, labelsToRead, type EndOutcome, type ProfileEntry };

// The owner's data calls through supabase-js: list entries, insert one, set one (with the status), end now, cancel one. (What visitors get
// is read by core/lookup.ts, with one plain request.) Only the type of the client is imported,
// so code that never creates a client does not load supabase-js.

/**
 * What the data calls use of a client: supabase-js's `from` and `rpc` (both hand the call to
 * its PostgREST client). A supabase-js client is one; so is the site's client, built from
 * supabase-js's auth and PostgREST parts (site/src/supabase.ts).
 */
export type DataClient = Pick<SupabaseClient, 'from' | 'rpc'>;

/** Every column: what a signed-in owner may read. */
const OWNER_COLUMNS =
  'id,type,stamp_start,stamp_end,created_at,created_by,stopped_at,stop_kind,planned_end';

/** The shape of postgrest-js errors and of the `status` it returns with them. */
interface PostgrestFailure {
  error: { code?: string; message?: string; details?: string | null; hint?: string | null } | null;
  status: number;
}

/**
 * Turns a postgrest-js failure into a typed error. postgrest-js reports a failed fetch with
 * status 0 and the fetch error's text as the message; that is the backend being unreachable.
 */
function toError(client: DataClient, failure: PostgrestFailure): ApiError | NetworkError {
  const e = failure.error ?? {};
  if (failure.status === 0) {
    // supabase-js keeps the API base URL on the client (a TypeScript-protected field).
    const url = (client as unknown as { supabaseUrl?: string }).supabaseUrl ?? 'the API';
    return new NetworkError(url.replace(/\/+$/, ''), e.message);
  }
  return new ApiError(
    failure.status,
    e.code || String(failure.status),
    e.message || `HTTP ${failure.status}`,
    e.details,
    e.hint,
  );
}

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
 * @returns the rows, newest first
 * @throws ApiError with the server's code and message; NetworkError when unreachable
 */
export async function listEntries(
  client: DataClient,
  options: { limit?: number; owner?: boolean; endingAfter?: number } = {},
): Promise<NamecardRow[]> {
  // A plain string: supabase-js would otherwise parse the column list at the type level.
  const columns: string = options.owner ? OWNER_COLUMNS : VIEW_COLUMNS;
  let query = client.from(NAMECARD_TABLE).select(columns);
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
 * @returns the inserted row, as confirmed by the server
 * @throws ApiError with the server's code and message (e.g. 42501 for a non-owner);
 *   NetworkError when unreachable; ApiError `no_row` when the server confirmed no row
 */
export async function insertEntry(client: DataClient, entry: NewEntry): Promise<NamecardRow> {
  const result = await client
    .from(NAMECARD_TABLE)
    .insert({
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
 * Whether the signed-in user may change the card (is one of its owners), from the view
 * `namecard_access`, which asks the same question as the insert policy.
 *
 * @param client a supabase-js client with a session
 * @returns true for an owner, false for any other account
 * @throws ApiError with the server's code and message; NetworkError when unreachable
 */
export async function canSetCard(client: DataClient): Promise<boolean> {
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
 * @param client a supabase-js client signed in as an owner
 * @param entry the profile, `stamp_end` and optional `stamp_start` (epoch ms)
 * @returns the row as stored, and the card's status (now, active entry, timeline) after it
 * @throws ApiError with the server's code and message (42501 for a non-owner, 23514 or 23503
 *   for an entry the table refuses); NetworkError when unreachable
 */
export async function setEntry(
  client: DataClient,
  entry: NewEntry,
): Promise<{ entry: NamecardRow; status: CardStatus }> {
  const result = await client.rpc('namecard_set', setArgs(entry));
  if (result.error) throw toError(client, result);
  return setOutcome(result.data, result.status);
}

/**
 * Ends what visitors get now, by the server's clock (`public.namecard_end_now()` through
 * `/rest/v1/rpc`): every entry in force now stops now and is marked ended early; entries that
 * start later stay scheduled. Nothing is stored when that would change nothing visitors get.
 * One request: the answer carries the status after it.
 *
 * @param client a supabase-js client signed in as an owner
 * @returns the entries stopped, those another call stopped first, and the status after it
 * @throws ApiError 42501 for a non-owner (401 42501 for anon); NetworkError when unreachable
 */
export async function endNow(client: DataClient): Promise<EndOutcome> {
  const result = await client.rpc('namecard_end_now');
  if (result.error) throw toError(client, result);
  return endOutcome(result.data, result.status);
}

/**
 * Cancels one entry for good, by the server's clock (`public.namecard_cancel(entry_id)`): a
 * running entry stops now, a scheduled one never starts; the row stays, marked cancelled.
 * One request: the answer carries the status after it.
 *
 * @param client a supabase-js client signed in as an owner
 * @param entryId the entry's `id`
 * @returns the cancelled entry as stored, and the status after it
 * @throws ApiError `PT404` for an unknown entry, `PT409` for one that has ended or was
 *   stopped already (by this owner before, or by a call racing this one), 42501 for a
 *   non-owner; NetworkError when unreachable
 */
export async function cancelEntry(
  client: DataClient,
  entryId: number,
): Promise<{ cancelled: NamecardRow; status: CardStatus }> {
  const result = await client.rpc('namecard_cancel', { entry_id: entryId });
  if (result.error) throw toError(client, result);
  return cancelOutcome(result.data, result.status);
}

/**
 * Reads the visit counts summed per day on the server (`public.namecard_visit_days`, owners
 * only by RLS): one request whatever the number of visits, at most days × 6 rows.
 *
 * @param client a supabase-js client signed in as an owner (anyone else reads no rows)
 * @param dayStarts the days' starts, epoch ms ascending, plus the end of the last day (as
 *   {@link visitWindow} gives them: on 15-minute boundaries)
 * @returns one row per day, profile and channel with visits; `bucket` is the day's start
 * @throws ApiError with the server's code and message (401 42501 for anon); NetworkError
 */
export async function fetchVisitCounts(
  client: DataClient,
  dayStarts: readonly number[],
): Promise<VisitCount[]> {
  const result = await client.rpc('namecard_visit_days', { day_starts: dayStarts });
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
 * Lists the card's profiles, main first, then by name. Only owners read them (RLS): anyone
 * else gets an empty list (signed in) or a 401 (anon).
 *
 * @param client a supabase-js client signed in as an owner
 * @param options.removed true to include removed profiles (for history), default false
 * @returns the profiles
 * @throws ApiError with the server's code and message; NetworkError when unreachable
 */
export async function listProfiles(
  client: DataClient,
  options: { removed?: boolean } = {},
): Promise<ProfileEntry[]> {
  let query = client.from(PROFILE_TABLE).select(PROFILE_COLUMNS);
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
 * @returns the stored row
 * @throws ApiError (23505 a profile of that name exists, 23514 a database check, 42501 not an
 *   owner); NetworkError when unreachable
 */
export async function addProfile(
  client: DataClient,
  profile: { name: string; label: string; url: string },
): Promise<ProfileEntry> {
  const result = await client.from(PROFILE_TABLE).insert(profile).select(PROFILE_COLUMNS);
  if (result.error?.code === '23505') {
    // A removed profile of that name comes back, changed as asked; a present one is refused.
    const back = await client
      .from(PROFILE_TABLE)
      .update({ label: profile.label, url: profile.url, removed_at: null })
      .eq('name', profile.name)
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
 * @returns the stored row
 * @throws ApiError `no_row` for no such profile (or not an owner: RLS leaves no row), 23514 for
 *   a database check; NetworkError when unreachable
 */
export async function editProfile(
  client: DataClient,
  name: string,
  change: { label?: string; url?: string | null },
): Promise<ProfileEntry> {
  const result = await client
    .from(PROFILE_TABLE)
    .update(change)
    .eq('name', name)
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
 * @returns the marked row
 * @throws ApiError 23503 in use or main, `no_row` for no such profile (or not an owner);
 *   NetworkError when unreachable
 */
export async function removeProfile(client: DataClient, name: string): Promise<ProfileEntry> {
  const result = await client.rpc('namecard_remove_profile', { profile_name: name });
  if (result.error) throw toError(client, result);
  return oneProfile(result, 'removed');
}
