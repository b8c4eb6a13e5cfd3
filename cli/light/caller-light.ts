import { cardRefusalOf } from '../../shared/core/cards.js';
import { ApiError } from '../../shared/core/errors.js';
import { localTimeZone, setHostTimeZone } from '../../shared/core/format.js';
import type { CardStatus } from '../../shared/core/lookup.js';
import {
  cancelOutcome,
  endOutcome,
  labelQuery,
  labelsToRead,
  profileQuery,
  profilesOf,
  PROFILE_TABLE,
  setArgs,
  setOutcome,
} from '../../shared/core/member-answers.js';
import {
  planRequest,
  readSetRequest,
  type EntryPlan,
  type ZoneRules,
} from '../../shared/core/entry-rules.js';
import { isProfileType, labelsOf } from '../../shared/core/profiles.js';
import { hostEpochMs } from '../../shared/core/wall-time.js';
import { refuseAccessToken } from '../session/access-token.js';
import { parseEntryId, showCancel } from '../terminal/cancel-show.js';
import { showEnd } from '../terminal/end-show.js';
import { handleError, refusalOnCard, type CallerKind } from '../errors.js';
import { entryZoneOf, hostTimeZone } from '../session/host-zone.js';
import {
  isNamed,
  needsCards,
  runCardOf,
  showingCard,
  unknownCard,
  type RunCard,
} from '../session/run-card.js';
import { callerRest, type CallerRest } from '../transport/light-rest.js';
import { readStatus } from '../terminal/outlook.js';
import type { LineOf } from '../grammar/table.js';
import type { CallerLine } from './light-lines.js';
import { isRefusedSession, lightCaller, lightCards } from './light-caller.js';
import { showProfiles } from '../terminal/profile-show.js';
import { showSet } from '../terminal/set-show.js';
import { checkCredentialTransport, resolveConfig, type CliConfig } from '../session/settings.js';
import {
  createLightTransport,
  type LightTransportFetch,
  type Transport,
} from '../transport/transport.js';

// `namecard end`, `cancel <id>`, `profile list` and a one-off `set` of main or photo as the
// run's caller when the light path can make it (a card token, or a stored access token that is
// still valid): the same PostgREST requests the program sends through supabase-js, sent with
// node:http and printed by the same functions, without commander, supabase-js, conf or
// Temporal (together ~250 ms of loading, measured by `npm run bench`). The run's card is chosen
// by the same rule (cli/session/run-card.ts): the caller's cards are read first only when no
// card is named or the caller is a card token. A write is sent once, never retried, and a
// time-out is "outcome unknown" naming the act (the transport's rules). Whatever needs more is
// left to the program: CI credentials, an access token expiring within a minute (which the
// program refreshes), and a 401 to a person's access token, which nothing was written under
// (PostgREST checks the token first): the program then refreshes once and sends the write once
// more, as after its own 401. `set` reads its date and time with Date's local clock, so it runs
// here only in this process's own zone (no `--tz`, or `--tz` naming that zone); another zone, a
// profile of the card's own, or a line with something to ask is the program's.

/**
 * Runs `line` on the light path, reporting an error as the program does.
 *
 * @returns false when the line is left to the program (nothing was printed, and no write
 *   was stored); true when it ran (successfully or not)
 */
export async function callerLightMain(line: CallerLine): Promise<boolean> {
  try {
    return await runCallerLight(line);
  } catch (error) {
    process.exitCode = handleError(error);
    return true;
  }
}

async function runCallerLight(line: CallerLine): Promise<boolean> {
  // The same checks, in the same order, as the program's commands.
  const id = line.command === 'cancel' ? parseEntryId(line.args.id) : undefined;
  const settings = resolveConfig(line.options);
  const credential = lightCaller(settings);
  if (typeof credential === 'string') return false;
  // This process's zone, found once: `set` reads its date and time in it, and every command
  // shows its times in it.
  const host = hostTimeZone();
  let entry: EntryPlan | undefined;
  if (line.command === 'set') {
    entry = planOwnZone(line, host);
    if (entry === undefined) return false;
  }
  checkCredentialTransport(settings);
  setHostTimeZone(host);
  const transport = createLightTransport(settings.supabaseUrl, settings.timeoutMs);
  const rest = callerRest(settings, credential, transport.fetch);
  try {
    const cards = needsCards(settings, true)
      ? await transport.guard(() => lightCards(rest))
      : undefined;
    const card = runCardOf(settings, cards);
    const light: LightRun = {
      rest,
      transport,
      card,
      config: showingCard(settings, card),
      zone: () => host ?? localTimeZone(),
      caller: 'cardToken' in credential ? 'token' : 'person',
    };
    await onLightCard(light, () => runLine(line, light, { id, entry }));
  } catch (error) {
    if (!isRefusedSession(error, credential)) throw error;
    refuseAccessToken((credential as { accessToken: string }).accessToken);
    return false;
  }
  return true;
}

/** A light run: its calls, the run's card, the settings naming it, and the zone of its times. */
interface LightRun {
  rest: CallerRest;
  transport: Transport<LightTransportFetch>;
  card: RunCard;
  config: CliConfig;
  zone: () => string;
  caller: CallerKind;
}

/**
 * Runs `act`, its refusals in the user's words naming the run's card, as the program's
 * (cli/session/cards.ts): a card that was named and is none of the caller's is refused with the
 * card meant (one more request); a role too low names the role needed.
 */
async function onLightCard(light: LightRun, act: () => Promise<void>): Promise<void> {
  try {
    await act();
  } catch (error) {
    const { card } = light;
    if (cardRefusalOf(error) === 'no_such_card' && isNamed(card)) {
      const cards = await light.transport.guard(() => lightCards(light.rest)).catch(() => null);
      if (cards)
        throw unknownCard(
          card.slug,
          cards.map((c) => c.slug),
          card.source,
        );
    }
    throw refusalOnCard(error, {
      card: card.slug,
      caller: light.caller,
      noCards: card.cards?.length === 0,
    });
  }
}

/** Runs the line's command on the light path, on the run's card. */
async function runLine(
  line: CallerLine,
  light: LightRun,
  given: { id?: number; entry?: EntryPlan },
): Promise<void> {
  const { rest, transport, config, zone } = light;
  const card = light.card.slug;
  const { options } = line;
  if (line.command === 'end') {
    // One request: it stops what is in force and answers what visitors get afterwards.
    const answer = await transport.guard(() => rest.rpc('namecard_end_now', { card }), {
      act: 'end',
    });
    const outcome = endOutcome(answer.data, answer.status);
    const types = [...outcome.ended, ...outcome.alreadyStopped].map((row) => row.type);
    const status = await withLabels(light, outcome.status, types);
    showEnd({ ...outcome, status }, options, config, zone);
  } else if (line.command === 'set' && given.entry) {
    const entry = given.entry;
    // One request: it stores the entry and answers what visitors get afterwards.
    const answer = await transport.guard(() => rest.rpc('namecard_set', setArgs(entry, card)), {
      act: 'set',
    });
    const stored = setOutcome(answer.data, answer.status);
    const status = await withLabels(light, stored.status, [stored.entry.type]);
    showSet({ ...stored, status }, entry, options, config, entry.timeZone);
  } else if (line.command === 'cancel') {
    const answer = await transport.guard(
      () => rest.rpc('namecard_cancel', { entry_id: given.id, card }),
      { act: 'cancel' },
    );
    const outcome = cancelOutcome(answer.data, answer.status);
    const status = await withLabels(light, outcome.status, [outcome.cancelled.type]);
    showCancel({ ...outcome, status }, options, config, zone);
  } else {
    const [profiles, status] = await Promise.all([
      transport.guard(async () => rest.read(PROFILE_TABLE, profileQuery(await cardIdOf(light)))),
      readStatus(config, transport.fetch, card),
    ]);
    showProfiles(profilesOf(profiles.data), status, options, config);
  }
}

/**
 * The id of the run's card, which a read of a table filters on: from the caller's cards when
 * the choice read them, else by one more read of them.
 *
 * @throws ApiError PT404 `no such card` when it is none of the caller's cards
 */
async function cardIdOf(light: LightRun): Promise<number> {
  const { slug } = light.card;
  const cards = light.card.cards ?? (await lightCards(light.rest));
  const id = cards.find((c) => c.slug === slug)?.id;
  if (id !== undefined) return id;
  throw new ApiError(404, 'PT404', `None of your cards is called ${slug}`, 'no such card');
}

/**
 * `status` with its labels completed for `types` by one read of the profile table, as the
 * program does (cli/terminal/labels.ts): only when a profile other than main and photo is
 * missing; the status as it was when the read fails (the write is done).
 */
async function withLabels(
  light: LightRun,
  status: CardStatus,
  types: readonly string[],
): Promise<CardStatus> {
  const names = labelsToRead(types, status.labels);
  if (names.length === 0) return status;
  try {
    const answer = await light.rest.read(PROFILE_TABLE, labelQuery(names, await cardIdOf(light)));
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
