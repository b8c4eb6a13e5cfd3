import type { CardRole } from '../../../../shared/core/cards.js';

/** A role with its article, as a sentence names it: `an owner`, `an editor`, `a viewer`. */
export function aRole(role: CardRole): string {
  return `${role === 'viewer' ? 'a' : 'an'} ${role}`;
}
