import { closest, distance } from 'fastest-levenshtein';
import { InputError } from './errors.js';

// "Did you mean …?" wherever the owner types a name: a profile, a time zone, a weekday. One
// rule for every such name, so that each refusal suggests alike. Its own module, loaded with
// what refuses a name (the site's first draw, which only shows times, does not need it).

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

/** What a time-zone field expects, in every refusal of one. */
const ZONE_FORM = 'an IANA time zone such as Asia/Tokyo';

/**
 * The refusal of a time-zone name that names no zone, suggesting the nearest zone by its whole
 * name (`Europe/Berln` → `Europe/Berlin`) or, for a name without a region, by its city
 * (`berlin` → `Europe/Berlin`), from the zones Intl knows. Shared by the Intl check
 * (shared/core/format.ts) and Temporal's (shared/calendar/time.ts).
 *
 * @param timeZone the name as typed
 * @param field the field's name in messages (`--tz`)
 * @returns the InputError to throw, naming `field` and the expected form
 * @example timeZoneRefusal('Europe/Berln', '--tz').message
 * // → '`--tz` must be an IANA time zone such as Asia/Tokyo, got `Europe/Berln`: did you mean `Europe/Berlin`?'
 */
export function timeZoneRefusal(timeZone: string, field = 'timeZone'): InputError {
  const typed = timeZone.trim().toLowerCase().replace(/ /g, '_');
  const zones = [...supportedTimeZones(), 'UTC'];
  const byCity = !typed.includes('/');
  const keys = zones.map((zone) => (byCity ? zone.slice(zone.lastIndexOf('/') + 1) : zone));
  // A city's name is short: one edit in five letters or fewer (`berln`), none in three (`CET`
  // is no misspelt city), two in a whole name (`Amercia/New_York`).
  const edits = !byCity || typed.length >= 6 ? 2 : typed.length >= 4 ? 1 : 0;
  const lower = keys.map((key) => key.toLowerCase());
  const near = nearestName(typed, lower, edits);
  const guess = near === undefined ? undefined : zones[lower.indexOf(near)];
  return new InputError(
    field,
    ZONE_FORM,
    timeZone,
    `\`${field}\` must be ${ZONE_FORM}, got \`${timeZone}\`${didYouMean(guess)}`,
  );
}

/** The IANA zones Intl knows (none where it cannot list them). */
function supportedTimeZones(): readonly string[] {
  const intl = Intl as { supportedValuesOf?: (key: 'timeZone') => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? [];
}
