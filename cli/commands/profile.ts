import { commandOf } from '../grammar/commander.js';
import { ApiError, InputError } from '../../shared/core/errors.js';
import { nearestName } from '../../shared/core/suggest.js';
import {
  checkDestination,
  checkProfileLabel,
  checkProfileName,
  type ProfileFieldProblem,
} from '../../shared/core/profiles.js';
import { out, print, printJson } from '../terminal/output.js';
import { profileLine, showProfiles } from '../terminal/profile-show.js';
import { resolveConfig, type CliConfig } from '../session/settings.js';
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
  return { owner: await requireOwner(config), data };
}

/**
 * A change of the profile `name` (edit, remove), with the card's own list when the server
 * changed no profile of that name: "no profile `blgo`; did you mean `blog`?", or the profiles
 * there are (exit 2). The list is read only then, so a change stays one request.
 *
 * @throws InputError (exit 2) for a name the card has no profile of; whatever `change` throws
 */
async function changeProfile<T>(
  { owner, data }: Awaited<ReturnType<typeof ownerAndData>>,
  name: string,
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await owner.transport.guard(change, { act: 'profile change' });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'no_row')) throw error;
    const names = (await owner.transport.guard(() => data.listProfiles(owner.client))).map(
      (profile) => profile.name,
    );
    // None listed (not an owner) or the name is there after all: the server's own words.
    if (names.length === 0 || names.includes(name)) throw error;
    const guess = nearestName(name.trim().toLowerCase(), names);
    const shown = terminalSafe(name);
    throw new InputError(
      'name',
      `one of the card's profiles (${names.join(', ')})`,
      name,
      guess === undefined
        ? `no profile \`${shown}\`; the card's profiles are ${names.join(', ')} (namecard profile list)`
        : `no profile \`${shown}\`; did you mean \`${guess}\`?`,
    );
  }
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
  const { readStatus } = await import('../terminal/outlook.js');
  const [profiles, status] = await Promise.all([
    owner.transport.guard(() => data.listProfiles(owner.client)),
    owner.transport.guard(() => readStatus(config, owner.transport.fetch)),
  ]);
  showProfiles(profiles, status, options, config);
}

/**
 * `namecard profile add <name> <url> [--label <text>]`: a new profile (or a removed one back).
 *
 * @throws InputError for a bad name, label or URL, or an origin /go does not follow (exit 2,
 *   nothing stored); SessionError, ApiError (a profile of that name exists, not an owner),
 *   NetworkError (exit 1)
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
  const { owner, data } = await ownerAndData(config);
  const row = await owner.transport.guard(
    () => data.addProfile(owner.client, { name, label, url }),
    { act: 'profile change' },
  );
  if (options.json) return printJson(row);
  print(`${out.green('✔')} Added ${profileLine(row, config)}`);
}

/**
 * `namecard profile edit <name> [--url <url>] [--label <text>]`.
 *
 * @throws InputError for nothing to change, a bad label or URL, an origin /go does not follow,
 *   or no such profile (exit 2, with the nearest name); SessionError, ApiError (not an owner),
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
  const signedIn = await ownerAndData(config);
  const { owner, data } = signedIn;
  const row = await changeProfile(signedIn, name, () =>
    data.editProfile(owner.client, name, {
      ...(options.label !== undefined ? { label: options.label } : {}),
      ...(options.url !== undefined ? { url: options.url } : {}),
    }),
  );
  if (options.json) return printJson(row);
  print(`${out.green('✔')} Changed ${profileLine(row, config)}`);
}

/**
 * `namecard profile remove <name>`: marks the profile removed (old entries keep its label).
 *
 * @throws InputError for no such profile (exit 2, with the nearest name); SessionError, ApiError
 *   (main, in use by the entries it names, not an owner), NetworkError (exit 1)
 */
export async function runProfileRemove(name: string, options: ProfileOptions): Promise<void> {
  const config = resolveConfig(options);
  const signedIn = await ownerAndData(config);
  const { owner, data } = signedIn;
  const row = await changeProfile(signedIn, name, () => data.removeProfile(owner.client, name));
  if (options.json) return printJson(row);
  print(
    `${out.green('✔')} Removed ${out.bold(terminalSafe(row.name))} (${terminalSafe(row.label)}): no new entry can name it; past entries keep it`,
  );
}

export const profileCommand = commandOf('profile', {
  list: ({ options }) => runProfileList(options),
  add: ({ args, options }) => runProfileAdd(args.name, args.url, options),
  edit: ({ args, options }) => runProfileEdit(args.name, options),
  remove: ({ args, options }) => runProfileRemove(args.name, options),
});
