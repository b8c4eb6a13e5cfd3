import { closest, distance } from 'fastest-levenshtein';

// "Did you mean …?" wherever the owner types a name: a profile, a time zone, a weekday. One
// rule for every such name, so that each refusal suggests alike.

/**
 * The name the owner most likely meant: the nearest known one by Levenshtein distance when it is
 * at most `maxEdits` edits away (`foto` → `photo`, `Europe/Berln` → `Europe/Berlin`); else the
 * longest known name of three or more letters the typed one starts with (`photographer` →
 * `photo`). Only names of a length within `maxEdits` are measured, so a long paste costs little.
 *
 * @param typed the name as typed, normalised as the known names are (e.g. lowercase)
 * @param known the names that exist
 * @param maxEdits the most edits (insertions, deletions, substitutions) a near miss may have
 * @returns one of `known`, or undefined when none is close
 * @example nearestName('shopp', ['main', 'photo', 'shop']) // → 'shop'
 */
export function nearestName(
  typed: string,
  known: readonly string[],
  maxEdits = 2,
): string | undefined {
  if (!typed) return undefined;
  const sized = known.filter((name) => Math.abs(name.length - typed.length) <= maxEdits);
  const near = sized.length > 0 ? closest(typed, sized) : undefined;
  if (near !== undefined && distance(typed, near) <= maxEdits) return near;
  const prefixes = known.filter((name) => name.length >= 3 && typed.startsWith(name));
  return prefixes.sort((a, b) => b.length - a.length)[0];
}

/**
 * The end of a refusal that suggests a name: ": did you mean `x`?", or nothing.
 *
 * @param guess the suggested name, e.g. from {@link nearestName}
 * @example `\`--tz\` must be …, got \`Europe/Berln\`${didYouMean('Europe/Berlin')}`
 */
export function didYouMean(guess: string | undefined): string {
  return guess === undefined ? '' : `: did you mean \`${guess}\`?`;
}
