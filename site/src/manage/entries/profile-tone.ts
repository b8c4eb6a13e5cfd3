import type { CSSProperties } from 'react';
import { isProfileType } from '../../../../shared/core/profiles.js';

/**
 * How a profile is coloured in the timeline picture and the list under it. main and photo keep
 * the stylesheet's colours (`.profile-main`, `.profile-photo`); a profile the owner added gets a
 * colour of its own, derived from its name (its row's key), so that it is the same on every
 * load and every device with nothing more stored. The colour is dark enough (lightness 27%)
 * for white text on it to keep WCAG AA contrast for every hue.
 *
 * @param type a profile's name as stored (`photo`, `shop`)
 * @returns the class suffix (`main`, `photo` or `own`) and, for `own`, the style that sets
 *   `--profile-colour`
 */
export function profileTone(type: string): { tone: string; style?: CSSProperties } {
  if (isProfileType(type)) return { tone: type };
  let hash = 0;
  for (const char of type) hash = (hash * 31 + char.charCodeAt(0)) % 3600;
  const hue = hash % 360;
  return { tone: 'own', style: { ['--profile-colour' as string]: `hsl(${hue} 55% 27%)` } };
}
