import { CARD_PARAM } from '../../../shared/core/card-link.js';
import { roleAtLeast, type CardRole, type CardSummary } from '../../../shared/core/cards.js';

// Which card /manage shows (`/manage/?c=<slug>`, the first of the user's cards without one), how
// its calls name it, and what the user's role on it may do. React-free, so that a unit test
// runs it alone (tests/unit/manage-card-scope.test.ts); card-scope.ts hands it to the sections.

/** The card the page acts on, and the signed-in user's role on it. */
export type CardScope = Pick<CardSummary, 'slug' | 'name' | 'role' | 'first'>;

/**
 * The `card` argument of a function call (`namecard_set`, `namecard_end_now`, the status …) for
 * the card: none for the first card, so that its calls stay as they were before cards.
 */
export function fnCard(scope: CardScope): string | undefined {
  return scope.first ? undefined : scope.slug;
}

/** True when the user's role on the card may do what `need` may. */
export function may(scope: CardScope, need: CardRole): boolean {
  return roleAtLeast(scope.role, need);
}

/**
 * The card the page's query asks for: `?c=<slug>` if given (as given), else null.
 *
 * @param search the page's `location.search`
 */
export function askedCard(search: string): string | null {
  return new URLSearchParams(search).get(CARD_PARAM);
}

/**
 * The card /manage shows: the one `?c=` names, else the user's first card (the first card
 * first, as `namecard_cards()` answers). Undefined when `?c=` names none of the user's cards,
 * or the user has none.
 *
 * @param cards the user's cards, as listCards answers them
 * @param asked the slug the query names, or null
 */
export function chooseCard(
  cards: readonly CardSummary[],
  asked: string | null,
): CardSummary | undefined {
  return asked === null ? cards[0] : cards.find((card) => card.slug === asked);
}
