import { ApiError, NamecardError } from './errors.js';

// The server's refusals of a change to a profile, in the owner's words, the same on both faces:
// what exists, what is in the way (with the ids), and, from each face, the command or the
// button that clears it. The database answers with PostgreSQL's codes and its own sentences
// (the profiles migration: 23505 for a name taken, 23503 with the ids in `detail` for a
// profile in use); these read them by code and detail, never by the sentence.

/** Why a change to a profile was refused. */
export type ProfileRefusalCode =
  /** `profile add` of a name the card has. */
  | 'profile_exists'
  /** `edit` or `remove` of a name the card does not have (or no longer has). */
  | 'no_such_profile'
  /** `remove` of a profile removed before. */
  | 'profile_removed'
  /** `remove` of a profile that an entry or a series in force or ahead names. */
  | 'profile_in_use'
  /** `remove` of main: where visitors go when nothing else is set. */
  | 'main_profile';

/** What stands in the way of removing a profile: the entries and series that name it. */
export interface InUse {
  entries: number[];
  series: number[];
}

/**
 * A refused change to a profile, in words for people (the message), with what a face needs to
 * say its next step (`inUse`, `names`); `hint` is the CLI's next step.
 */
export class ProfileRefusal extends NamecardError {
  declare readonly code: ProfileRefusalCode;
  /** The profile the change was for. */
  readonly profile: string;
  /** For `profile_in_use`: the ids that name it. */
  readonly inUse: InUse | undefined;

  /**
   * @param code why
   * @param profile the profile's name
   * @param message the owner's words
   * @param hint the next step on the command line
   * @param inUse the ids in the way, for `profile_in_use`
   */
  constructor(
    code: ProfileRefusalCode,
    profile: string,
    message: string,
    hint?: string,
    inUse?: InUse,
  ) {
    super(code, message, hint);
    this.profile = profile;
    this.inUse = inUse;
  }
}

/**
 * What the server's refusal of a profile change is, read from its code and detail: a name
 * taken (23505), main (23503 without ids), in use (23503 with the ids in `detail`: `4, 7` for
 * entries, `series 4, series 5` for series). Anything else is undefined.
 *
 * @param error anything thrown by a profile change
 * @returns the kind, and for `profile_in_use` the ids
 */
export function readProfileRefusal(
  error: unknown,
):
  | { code: 'profile_exists' | 'main_profile' }
  | { code: 'profile_in_use'; inUse: InUse }
  | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === '23505') return { code: 'profile_exists' };
  if (error.code !== '23503') return undefined;
  const ids = (error.details ?? '').split(',').map((part) => part.trim());
  const inUse: InUse = { entries: [], series: [] };
  for (const id of ids) {
    const m = /^(series )?(\d+)$/.exec(id);
    if (m) (m[1] ? inUse.series : inUse.entries).push(Number(m[2]));
  }
  if (inUse.entries.length + inUse.series.length > 0) return { code: 'profile_in_use', inUse };
  return { code: 'main_profile' };
}

/** `entry 4`, `entries 4 and 7`, `series 5`, joined: `entry 4 and series 5`. */
export function describeInUse(inUse: InUse): string {
  const list = (ids: number[]) =>
    ids.length <= 1 ? ids.join('') : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
  const parts = [];
  if (inUse.entries.length > 0) {
    parts.push(`${inUse.entries.length === 1 ? 'entry' : 'entries'} ${list(inUse.entries)}`);
  }
  if (inUse.series.length > 0) parts.push(`series ${list(inUse.series)}`);
  return parts.join(' and ');
}

/** The words of each refusal, for a profile named `name` (values as they are: faces escape). */
export const PROFILE_REFUSAL_WORDS = {
  /** @param existing the profile as it is (label, destination) */
  exists: (name: string, existing: string) => `profile \`${name}\` exists already: ${existing}`,
  /**
   * `no profile \`blgo\``, and with the name most likely meant (found by the face that
   * refuses, e.g. the CLI with shared/core/suggest.ts): `; did you mean \`blog\`?`.
   */
  none: (name: string, meant?: string) =>
    `no profile \`${name}\`${meant === undefined ? '' : `; did you mean \`${meant}\`?`}`,
  removed: (name: string, when: string) => `profile \`${name}\` was removed already (${when})`,
  inUse: (name: string, inUse: InUse) =>
    `profile \`${name}\` is in use: ${describeInUse(inUse)} still ${
      inUse.entries.length + inUse.series.length === 1 ? 'names' : 'name'
    } it`,
  main: () =>
    'the main profile cannot be removed: it is where visitors go when nothing else is set',
} as const;

/**
 * The card's profiles as one phrase for a refusal: `the card's profiles: main, photo, blog`.
 *
 * @param names the profiles' names, in the order the list shows them
 */
export function profilesPhrase(names: readonly string[]): string {
  return `the card's profiles: ${names.join(', ')}`;
}
