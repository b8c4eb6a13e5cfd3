import { profileLabel, type ProfileLabels } from '../../shared/core/profiles.js';
import { out } from './output.js';
import { showType, terminalSafe } from './terminal-safe.js';

// How the CLI names a profile in a line: the name the owner types, in bold, then its display
// name (shared/core/profiles.ts's profileLabel, the one every face uses) when that says more.

/**
 * A profile as the CLI's lines name it: `shop (Summer Sale)`, `photo (Photographer)`, or only
 * the name when its label is the name (`shop`, never `shop (shop)`). `more` goes inside the
 * parentheses after the label: `shop (Summer Sale, entry 12)`, `shop (entry 12)`.
 *
 * @param type a stored type
 * @param labels labels by profile name, as the server answered them
 * @param more words about the row, e.g. `entry 12`
 */
export function showProfile(type: string, labels: ProfileLabels, more?: string): string {
  const label = profileLabel(type, labels);
  const inside = [label === type ? undefined : terminalSafe(label), more].filter(Boolean);
  return `${out.bold(showType(type))}${inside.length > 0 ? ` (${inside.join(', ')})` : ''}`;
}
