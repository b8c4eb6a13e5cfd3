import { createContext, useContext } from 'react';
import type { CardScope } from './card-choice.js';

export * from './card-choice.js';

// The card /manage shows and the user's role on it, as a React context: every section reads it
// from here, so that each acts on that card and offers only what the role may do (the server
// refuses the rest anyway).

/** The card the page shows; none outside a card's page. */
export const CardScopeContext = createContext<CardScope | null>(null);

/**
 * The card the page acts on (CardScopeContext).
 *
 * @throws Error when called outside a card's page (no provider): a section always has its card
 */
export function useCardScope(): CardScope {
  const scope = useContext(CardScopeContext);
  if (!scope) throw new Error('useCardScope: no card here (CardScopeContext.Provider)');
  return scope;
}
