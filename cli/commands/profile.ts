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
import { out, print, printJson } from '../terminal/output.js';
import { destinationOf, profileLine, showProfiles } from '../terminal/profile-show.js';
import { resolveConfig, tableCard, type CliConfig } from '../session/settings.js';
import { terminalSafe } from '../terminal/terminal-safe.js';

// `namecard profile …`: the owner's profiles (name, label, destination) in the database, changed
// at runtime. Destinations are checked here against the origins the deployed /go follows
// (NAMECARD_ALLOWED_ORIGINS), so nothing is stored that visitors would never reach; the
// database checks the forms again, and /go checks the origin again whatever is stored.

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

/** The signed-in owner and the data calls, loaded when a subcommand runs. */
async function ownerAndData(config: CliConfig) {
  const [{ requireOwner }, data] = await Promise.all([
    import('../session/session.js'),
    import('../../shared/supabase/data.js'),
  ]);
  return { owner: await requireOwner(config), data, card: tableCard(config) };
}

type OwnerAndData = Awaited<ReturnType<typeof ownerAndData>>;

/** Every profile of the card, removed ones too (to say what exists, or was removed). */
function allProfiles({ owner, data, card }: OwnerAndData) {
  return owner.transport.guard(() => data.listProfiles(owner.client, { removed: true, card }));
}

/**
 * The refusal for a name the card does not have: removed before (and how to bring it back), or
 * never there: the name most likely meant, if one is near ("no profile `blgo`; did you mean
 * `blog`?", shared/core/suggest.ts's rule, as `set` suggests a profile), and the profiles there
 * are. A name never there is a typo, refused as bad input like `set`'s unknown profile (exit 2,
 * cli/errors.ts); a removed one is the card's state in the way (exit 1).
 *
 * @param serverError the server's refusal that led here, thrown again when the name is there
 *   after all (changed meanwhile): then the server's own words are the truth
 */
async function noSuchProfile(
  name: string,
  found: OwnerAndData,
  serverError?: unknown,
): Promise<ProfileRefusal> {
  const rows = await allProfiles(found);
  // An owner always sees main: an empty list is an account that is not one of the owners.
  if (rows.length === 0) throw new ApiError(403, REFUSAL_CODES.not_owner, 'no profile is readable');
  const names = rows.filter((row) => row.removed_at === null).map((row) => row.name);
  if (serverError !== undefined && names.includes(name)) throw serverError;
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
  const config = resolveConfig(options);
  const { owner, data } = await ownerAndData(config);
  const { readCardStatus } = await import('../session/cards.js');
  const [profiles, status] = await Promise.all([
    owner.transport.guard(() => data.listProfiles(owner.client, { card: tableCard(config) })),
    readCardStatus(config, owner),
  ]);
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
  const found = await ownerAndData(config);
  const { owner, data } = found;
  const row = await owner.transport
    .guard(() => data.addProfile(owner.client, { name, label, url }, tableCard(config)), {
      act: 'profile change',
    })
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
  const found = await ownerAndData(config);
  const { owner, data } = found;
  const change = {
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(options.url !== undefined ? { url: options.url } : {}),
  };
  const row = await owner.transport
    .guard(() => data.editProfile(owner.client, name, change, tableCard(config)), {
      act: 'profile change',
    })
    .catch(async (error: unknown) => {
      // No row changed: no profile of that name (or a removed one; RLS hides nothing from an
      // owner, and a non-owner is refused before this by requireOwner's session).
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
  const found = await ownerAndData(config);
  const { owner, data } = found;
  // Looked up first: a name the card does not have, or one removed before, is refused as such
  // (the server's removal would answer a removed row again as if it had just removed it).
  const present = (await allProfiles(found)).some((p) => p.name === name && !p.removed_at);
  if (!present) throw await noSuchProfile(name, found);
  const row = await owner.transport
    .guard(() => data.removeProfile(owner.client, name, config.card), { act: 'profile change' })
    .catch((error: unknown) => {
      throw removeRefusal(name, error);
    });
  if (options.json) return printJson(row);
  print(
    `${out.green('✔')} Removed ${out.bold(terminalSafe(row.name))} (${terminalSafe(row.label)}): no new entry can name it; past entries keep it`,
  );
}

/** The server's refusal of a removal in the owner's words, with the commands that clear it. */
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
