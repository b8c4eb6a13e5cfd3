import { commandOf } from '../grammar/commander.js';
import { ApiError, InputError, REFUSAL_CODES } from '../../shared/core/errors.js';
import { localTimeZone, toWallClock } from '../../shared/core/format.js';
import {
  PROFILE_REFUSAL_WORDS as WORDS,
  ProfileRefusal,
  profilesPhrase,
  readProfileRefusal,
} from '../../shared/core/profile-words.js';
import { nearestName } from '../../shared/core/suggest.js';
import {
  checkDestination,
  checkProfileLabel,
  checkProfileName,
  type ProfileFieldProblem,
} from '../../shared/core/profiles.js';
import { refusalOnCard } from '../errors.js';
import { out, print, printJson } from '../terminal/output.js';
import { destinationOf, profileLine, showProfiles } from '../terminal/profile-show.js';
import { resolveConfig, type CliConfig } from '../session/settings.js';
import { terminalSafe } from '../terminal/terminal-safe.js';

// `namecard profile …`: the run's card's profiles (name, label, destination) in the database,
// read by its members and changed at runtime by its owners. Destinations are checked here
// against the origins the deployed /go follows (NAMECARD_ALLOWED_ORIGINS), so nothing is stored
// that visitors would never reach; the database checks the forms again, and /go checks the
// origin again whatever is stored.

/** The options of `namecard profile …` (global ones included), as typed. */
export interface ProfileOptions {
  json?: boolean;
  label?: string;
  url?: string;
  apiUrl?: string;
  timeout?: string;
}

/** Throws the problem as an InputError (exit 2), echoing the value safely. */
function refuse(problem: ProfileFieldProblem | null, value: string): void {
  if (!problem) return;
  const shown = terminalSafe(value);
  throw new InputError(
    problem.field,
    problem.expected,
    value,
    `${problem.message}, got \`${shown}\`${problem.hint ? `: ${problem.hint}` : ''}`,
  );
}

/**
 * The run's caller on its card and the data calls, loaded when a subcommand runs; a refusal that
 * does not say the role it needs (row-level security) names `owner`, which every change needs.
 */
async function onCardWithData(config: CliConfig) {
  const [{ onRunCard }, data] = await Promise.all([
    import('../session/cards.js'),
    import('../../shared/supabase/data.js'),
  ]);
  return { ...(await onRunCard(config, { need: 'owner' })), data };
}

type OnCardWithData = Awaited<ReturnType<typeof onCardWithData>>;

/** Every profile of the card, removed ones too (to say what exists, or was removed). */
function allProfiles({ caller, card, data }: OnCardWithData) {
  return caller.run(({ client, transport }) =>
    transport.guard(() => data.listProfiles(client, { removed: true, card: card.slug })),
  );
}

/**
 * Why a change of a profile that is there changed nothing: a caller who is none of the card's
 * owners (row-level security leaves them no row to change), refused naming the role and the
 * card; for an owner, the server's own words (the profile changed meanwhile).
 */
async function changeRefusal(found: OnCardWithData, serverError: unknown): Promise<unknown> {
  const { caller, card } = found;
  const [{ listCards }, { roleOn }] = await Promise.all([
    import('../../shared/supabase/cards.js'),
    import('../session/run-card.js'),
  ]);
  const cards =
    card.cards ??
    (await caller.run(({ client, transport }) => transport.guard(() => listCards(client))));
  if (roleOn({ ...card, cards }) === 'owner') return serverError;
  const refused = new ApiError(403, REFUSAL_CODES.not_owner, 'permission denied', 'needs owner');
  return refusalOnCard(refused, { card: card.slug, caller: caller.kind });
}

/**
 * The refusal for a name the card does not have: removed before (and how to bring it back), or
 * never there: the name most likely meant, if one is near ("no profile `blgo`; did you mean
 * `blog`?", shared/core/suggest.ts's rule, as `set` suggests a profile), and the profiles there
 * are. A name never there is a typo, refused as bad input like `set`'s unknown profile (exit 2,
 * cli/errors.ts); a removed one is the card's state in the way (exit 1).
 *
 * @param serverError the server's refusal that led here: when the name is there after all, the
 *   refusal of a caller who may not change it ({@link changeRefusal})
 */
async function noSuchProfile(
  name: string,
  found: OnCardWithData,
  serverError?: unknown,
): Promise<ProfileRefusal> {
  const rows = await allProfiles(found);
  // A member always sees main: an empty list is a caller that is none of the card's members.
  if (rows.length === 0) throw new ApiError(403, REFUSAL_CODES.not_owner, 'no profile is readable');
  const names = rows.filter((row) => row.removed_at === null).map((row) => row.name);
  if (serverError !== undefined && names.includes(name)) {
    throw await changeRefusal(found, serverError);
  }
  const removed = rows.find((row) => row.name === name && row.removed_at !== null);
  if (removed) {
    return new ProfileRefusal(
      'profile_removed',
      name,
      // The day it was removed, in this machine's zone (the date the owner lives in).
      WORDS.removed(
        terminalSafe(name),
        `on ${toWallClock(Date.parse(removed.removed_at!), localTimeZone()).date}`,
      ),
      `\`namecard profile add ${terminalSafe(name)} <url>\` brings it back`,
    );
  }
  const guess = nearestName(name.trim().toLowerCase(), names);
  return new ProfileRefusal(
    'no_such_profile',
    name,
    WORDS.none(terminalSafe(name), guess),
    `${profilesPhrase(names.map(terminalSafe))} (\`namecard profile list\`)`,
  );
}

/**
 * `namecard profile list [--json]`: every profile with its label, destination and whether an
 * entry in force or a scheduled one names it.
 *
 * @throws SessionError, ApiError, NetworkError (exit 1)
 */
export async function runProfileList(options: ProfileOptions): Promise<void> {
  const found = await onCardWithData(resolveConfig(options));
  const { caller, card, config, data } = found;
  const { readStatus } = await import('../terminal/outlook.js');
  const [profiles, status] = await caller.run(({ client, transport }) =>
    transport.guard(() =>
      Promise.all([
        data.listProfiles(client, { card: card.slug }),
        readStatus(config, transport.fetch, card.slug),
      ]),
    ),
  );
  showProfiles(profiles, status, options, config);
}

/**
 * `namecard profile add <name> <url> [--label <text>]`: a new profile (or a removed one back).
 *
 * @throws InputError for a bad name, label or URL, or an origin /go does not follow (exit 2,
 *   nothing stored); ProfileRefusal for a name the card has (saying what it is and how to
 *   change it), SessionError, ApiError (not an owner), NetworkError (exit 1)
 */
export async function runProfileAdd(
  name: string,
  url: string,
  options: ProfileOptions,
): Promise<void> {
  const config = resolveConfig(options);
  const label = options.label ?? name;
  refuse(checkProfileName(name), name);
  refuse(checkProfileLabel(label), label);
  refuse(checkDestination(url, config.allowedOrigins), url);
  const found = await onCardWithData(config);
  const { caller, card, data } = found;
  const row = await caller
    .run(({ client, transport }) =>
      transport.guard(() => data.addProfile(client, { name, label, url }, card.slug), {
        act: 'profile change',
      }),
    )
    .catch(async (error: unknown) => {
      if (readProfileRefusal(error)?.code !== 'profile_exists') throw error;
      const existing = (await allProfiles(found)).find((p) => p.name === name);
      if (!existing) throw error;
      throw new ProfileRefusal(
        'profile_exists',
        name,
        WORDS.exists(
          terminalSafe(name),
          `${terminalSafe(existing.label)}, ${terminalSafe(destinationOf(existing, config))}`,
        ),
        `Change it with \`namecard profile edit ${terminalSafe(name)} --url <url> --label <text>\`, or choose another name`,
      );
    });
  if (options.json) return printJson(row);
  print(`${out.green('✔')} Added ${profileLine(row, config)}`);
}

/**
 * `namecard profile edit <name> [--url <url>] [--label <text>]`.
 *
 * @throws InputError for nothing to change, a bad label or URL, or an origin /go does not
 *   follow (exit 2); ProfileRefusal for a name the card does not have (the nearest name and
 *   those it has, exit 2) or removed before (exit 1); SessionError, ApiError (not an owner),
 *   NetworkError (exit 1)
 */
export async function runProfileEdit(name: string, options: ProfileOptions): Promise<void> {
  const config = resolveConfig(options);
  if (options.url === undefined && options.label === undefined) {
    throw new InputError(
      '--url',
      'a new destination (--url) or label (--label)',
      '',
      'give `--url <url>` or `--label <text>` (or both): there is nothing to change',
    );
  }
  if (options.label !== undefined) refuse(checkProfileLabel(options.label), options.label);
  if (options.url !== undefined) {
    refuse(checkDestination(options.url, config.allowedOrigins, '--url'), options.url);
  }
  const found = await onCardWithData(config);
  const { caller, card, data } = found;
  const change = {
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(options.url !== undefined ? { url: options.url } : {}),
  };
  const row = await caller
    .run(({ client, transport }) =>
      transport.guard(() => data.editProfile(client, name, change, card.slug), {
        act: 'profile change',
      }),
    )
    .catch(async (error: unknown) => {
      // No row changed: no profile of that name, a removed one, or a caller whose role may not
      // change it (row-level security leaves it no row to change).
      if ((error as { code?: string }).code !== 'no_row') throw error;
      throw await noSuchProfile(name, found, error);
    });
  if (options.json) return printJson(row);
  print(`${out.green('✔')} Changed ${profileLine(row, config)}`);
}

/**
 * `namecard profile remove <name>`: marks the profile removed (old entries keep its label).
 *
 * @throws ProfileRefusal (main; in use, naming the entries and series and the commands that
 *   cancel them; removed already) (exit 1), or for no such profile (the nearest name and those
 *   there are, exit 2); SessionError, ApiError, NetworkError (exit 1)
 */
export async function runProfileRemove(name: string, options: ProfileOptions): Promise<void> {
  const config = resolveConfig(options);
  const found = await onCardWithData(config);
  const { caller, card, data } = found;
  // Looked up first: a name the card does not have, or one removed before, is refused as such
  // (the server's removal would answer a removed row again as if it had just removed it).
  const present = (await allProfiles(found)).some((p) => p.name === name && !p.removed_at);
  if (!present) throw await noSuchProfile(name, found);
  const row = await caller
    .run(({ client, transport }) =>
      transport.guard(() => data.removeProfile(client, name, card.slug), {
        act: 'profile change',
      }),
    )
    .catch((error: unknown) => {
      throw removeRefusal(name, error);
    });
  if (options.json) return printJson(row);
  print(
    `${out.green('✔')} Removed ${out.bold(terminalSafe(row.name))} (${terminalSafe(row.label)}): no new entry can name it; past entries keep it`,
  );
}

/** The server's refusal of a removal in the user's words, with the commands that clear it. */
function removeRefusal(name: string, error: unknown): unknown {
  const refusal = readProfileRefusal(error);
  const shown = terminalSafe(name);
  if (refusal?.code === 'main_profile') {
    return new ProfileRefusal(
      'main_profile',
      name,
      WORDS.main(),
      'Change its destination with `namecard profile edit main --url <url>`',
    );
  }
  if (refusal?.code !== 'profile_in_use') return error;
  const { entries, series } = refusal.inUse;
  const cancels = [...entries, ...series].map((id) => `\`namecard cancel ${id}\``).join(', ');
  return new ProfileRefusal(
    'profile_in_use',
    name,
    WORDS.inUse(shown, refusal.inUse),
    `Cancel ${entries.length + series.length === 1 ? 'it' : 'them'} first (${cancels}; \`namecard list\` shows them), or wait until ${entries.length + series.length === 1 ? 'it ends' : 'they end'}; then remove ${shown}`,
    refusal.inUse,
  );
}

export const profileCommand = commandOf('profile', {
  list: ({ options }) => runProfileList(options),
  add: ({ args, options }) => runProfileAdd(args.name, args.url, options),
  edit: ({ args, options }) => runProfileEdit(args.name, options),
  remove: ({ args, options }) => runProfileRemove(args.name, options),
});
