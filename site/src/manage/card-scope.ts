import { createContext, useContext } from 'react';
import { FIRST_CARD_SLUG } from '../../../shared/core/cards.js';
import type { CardScope } from './card-choice.js';

export * from './card-choice.js';

// The card /manage shows and the user's role on it, as a React context: every section reads it
// from here, so that each acts on that card and offers only what the role may do (the server
// refuses the rest anyway).

/** Until the page has read the user's cards: the first card, read only. */
const FIRST_CARD: CardScope = { slug: FIRST_CARD_SLUG, name: '', role: 'viewer', first: true };

export const CardScopeContext = createContext<CardScope>(FIRST_CARD);

/** The card the page acts on (CardScopeContext). */
export function useCardScope(): CardScope {
  return useContext(CardScopeContext);
}
