import { ApiError } from '../../shared/core/errors.js';
import { localTimeZone, setHostTimeZone } from '../../shared/core/format.js';
import type { CardStatus } from '../../shared/core/lookup.js';
import {
  cancelOutcome,
  endOutcome,
  labelQuery,
  labelsToRead,
  profilesOf,
  PROFILE_COLUMNS,
  PROFILE_TABLE,
  setArgs,
  setOutcome,
} from '../../shared/core/owner-answers.js';
import {
  planRequest,
  readSetRequest,
  type EntryPlan,
  type ZoneRules,
} from '../../shared/core/entry-rules.js';
import { isProfileType, labelsOf } from '../../shared/core/profiles.js';
import { hostEpochMs } from '../../shared/core/wall-time.js';
import { refuseAccessToken, storedAccessToken } from '../session/access-token.js';
import { parseEntryId, showCancel } from '../terminal/cancel-show.js';
import { showEnd } from '../terminal/end-show.js';
import { handleError } from '../errors.js';
import { entryZoneOf, hostTimeZone } from '../session/host-zone.js';
import { ownerRest, tokenRest, type OwnerRest } from '../transport/light-rest.js';
import { readStatus } from '../terminal/outlook.js';
import type { LineOf } from '../grammar/table.js';
import type { OwnerLine } from './light-lines.js';
import { showProfiles } from '../terminal/profile-show.js';
import { showSet } from '../terminal/set-show.js';
import { checkCredentialTransport, resolveConfig } from '../session/settings.js';
import { createLightTransport } from '../transport/transport.js';

// `namecard end`, `cancel <id>`, `profile list` and a one-off `set` of main or photo with a
// stored access token that is still valid (or, but for `profile list`, a card token): the same PostgREST requests the program sends through supabase-js, sent with
// node:http and printed by the same functions, without commander, supabase-js, conf or
// Temporal (together ~250 ms of loading, measured by `npm run bench`). A write is sent once,
// never retried, and a time-out is "outcome unknown" naming the act (the transport's rules).
// Whatever needs more is left to the program: no usable stored token (signed out, CI
// credentials, a token expiring within a minute, which the program refreshes), and a 401,
// which nothing was written under (PostgREST checks the token first): the program then
// refreshes once and sends the write once more, as after its own 401. `set` reads its date and
// time with Date's local clock, so it runs here only in this process's own zone (no `--tz`, or
// `--tz` naming that zone); another zone, a profile of the card's own, or a line with
// something to ask is the program's.

/**
 * Runs `line` on the light path, reporting an error as the program does.
 *
 * @returns false when the line is left to the program (nothing was printed, and no write
 *   was stored); true when it ran (successfully or not)
 */
export async function ownerLightMain(line: OwnerLine): Promise<boolean> {
  try {
    return await runOwnerLight(line);
  } catch (error) {
    process.exitCode = handleError(error);
    return true;
  }
}

async function runOwnerLight(line: OwnerLine): Promise<boolean> {
  // The same checks, in the same order, as the program's commands.
  const id = line.command === 'cancel' ? parseEntryId(line.args.id) : undefined;
  const config = resolveConfig(line.options);
  // A card named by NAMECARD_CARD or `namecard card use` (a line with `--card` never comes
  // here: light-lines.ts does not list it) is the program's, which names it in its output.
  if (config.card !== undefined) return false;
  // A card token (NAMECARD_TOKEN) makes the writes itself, through its own functions; it wins
  // over a stored session. `profile list` with a token is the program's.
  const cardToken = config.token;
  if (cardToken !== undefined && line.command === 'profile list') return false;
  const token = cardToken === undefined ? storedAccessToken(config) : undefined;
  if (cardToken === undefined && token === undefined) return false;
  // This process's zone, found once: `set` reads its date and time in it, and every command
  // shows its times in it.
  const host = hostTimeZone();
  let entry: EntryPlan | undefined;
  if (line.command === 'set') {
    entry = planOwnZone(line, host);
    if (entry === undefined) return false;
  }
  checkCredentialTransport(config);
  setHostTimeZone(host);
  const zone = () => host ?? localTimeZone();
  const transport = createLightTransport(config.supabaseUrl, config.timeoutMs);
  const rest =
    token === undefined
      ? tokenRest(config, cardToken ?? '', transport.fetch)
      : ownerRest(config, token, transport.fetch);
  const { options } = line;
  try {
    if (line.command === 'end') {
      // One request: it stops what is in force and answers what visitors get afterwards.
      const answer = await transport.guard(() => rest.rpc('namecard_end_now'), { act: 'end' });
      const outcome = endOutcome(answer.data, answer.status);
      const types = [...outcome.ended, ...outcome.alreadyStopped].map((row) => row.type);
      const status = await withLabels(rest, outcome.status, types);
      showEnd({ ...outcome, status }, options, config, zone);
    } else if (line.command === 'set' && entry) {
      // One request: it stores the entry and answers what visitors get afterwards.
      const answer = await transport.guard(() => rest.rpc('namecard_set', setArgs(entry)), {
        act: 'set',
      });
      const stored = setOutcome(answer.data, answer.status);
      const status = await withLabels(rest, stored.status, [stored.entry.type]);
      showSet({ ...stored, status }, entry, options, config, entry.timeZone);
    } else if (line.command === 'cancel') {
      const answer = await transport.guard(() => rest.rpc('namecard_cancel', { entry_id: id }), {
        act: 'cancel',
      });
      const outcome = cancelOutcome(answer.data, answer.status);
      const status = await withLabels(rest, outcome.status, [outcome.cancelled.type]);
      showCancel({ ...outcome, status }, options, config, zone);
    } else {
      const [profiles, status] = await Promise.all([
        transport.guard(() =>
          rest.read(PROFILE_TABLE, {
            select: PROFILE_COLUMNS,
            removed_at: 'is.null',
            order: 'name.asc',
          }),
        ),
        transport.guard(() => readStatus(config, transport.fetch)),
      ]);
      showProfiles(profilesOf(profiles.data), status, options, config);
    }
  } catch (error) {
    // A card token's 401 is its own refusal (revoked, expired…): final, nothing to refresh.
    if (token === undefined || !(error instanceof ApiError && error.status === 401)) throw error;
    refuseAccessToken(token);
    return false;
  }
  return true;
}

/**
 * `status` with its labels completed for `types` by one read of the profile table, as the
 * program does (cli/terminal/labels.ts): only when a profile other than main and photo is
 * missing; the status as it was when the read fails (the write is done).
 */
async function withLabels(
  rest: OwnerRest,
  status: CardStatus,
  types: readonly string[],
): Promise<CardStatus> {
  const names = labelsToRead(types, status.labels);
  if (names.length === 0) return status;
  try {
    const answer = await rest.read(PROFILE_TABLE, labelQuery(names));
    return { ...status, labels: { ...labelsOf(profilesOf(answer.data)), ...status.labels } };
  } catch {
    return status;
  }
}

/**
 * The entry a complete `set` line asks for, planned by the same rules and in the same order of
 * checks as the program's (shared/core/entry-rules.ts), its date and time read in this
 * process's own zone with Date's local clock; undefined when the line is the program's, decided
 * on the words as typed before anything is read: a zone other than this process's, a zone this
 * cannot name as the program does, or a profile other than main and photo (the program checks
 * it against the card's profiles).
 *
 * @param host this process's zone, as hostTimeZone found it
 * @throws InputError (exit 2) for a bad value, with the program's words
 */
function planOwnZone(line: LineOf<'set'>, host: string | undefined): EntryPlan | undefined {
  const { args, options } = line;
  const zone = entryZoneOf(host);
  if (zone === undefined || (options.tz !== undefined && options.tz !== zone)) return undefined;
  // The profile's one check: main or photo, as every card has them.
  const type = (args.profile ?? '').trim().toLowerCase();
  if (!isProfileType(type)) return undefined;
  const zones: ZoneRules = {
    parseTimeZone: () => zone,
    toEpochMs: hostEpochMs,
    localTimeZone: () => zone,
  };
  // The line's fields read once (the zone is this process's, the profile checked above), then
  // the plan.
  const now = Date.now();
  const { date, time } = args;
  const request = readSetRequest(zones, { date, time, from: options.from, for: options.for }, now);
  return planRequest(zones, request, type, now);
}
