import { CARD_PARAM } from '../../../../shared/core/card-link.js';
import {
  chooseCard,
  roleAtLeast,
  type CardChoice,
  type CardRole,
  type CardSummary,
} from '../../../../shared/core/cards.js';

// Which card /manage shows and what the user's role on it may do, by the one card choice the CLI
// makes too (shared/core/cards.ts chooseCard). React-free, so that a unit test runs it alone
// (tests/unit/manage-card-scope.test.ts); card-scope.ts hands the card to the sections.

/** The card the page acts on, and the signed-in user's role on it. */
export type CardScope = Pick<CardSummary, 'slug' | 'name' | 'role'>;

/** True when the user's role on the card may do what `need` may. */
export function may(scope: CardScope, need: CardRole): boolean {
  return roleAtLeast(scope.role, need);
}

/**
 * The card the page's address names: `?c=<slug>` in lower case (slugs are matched without
 * regard to case), with `?c=` as its source; none for an address without one or an empty one.
 *
 * @param search the page's `location.search`
 * @example askedCard('?c=Studio') // → { slug: 'studio', source: '?c=' }
 */
export function askedCard(search: string): CardChoice | undefined {
  const slug = (new URLSearchParams(search).get(CARD_PARAM) ?? '').trim().toLowerCase();
  return slug === '' ? undefined : { slug, source: '?c=' };
}

/** What the page shows: the card chosen, and the user's card of that slug, if it is one. */
export interface PageCard {
  /** The card chosen by the one rule, and where that came from. */
  choice: CardChoice;
  /** The user's card of that slug; none when `?c=` names none of theirs, or they have none. */
  card: CardSummary | undefined;
}

/**
 * The card /manage shows, by `chooseCard`: the card `?c=` names, else the user's only card,
 * else `main` where they are a member of it, else the first of their cards by slug.
 *
 * @param cards the user's cards, as `listCards` answers them
 * @param search the page's `location.search`
 * @example pageCard([{ slug: 'studio', … }], '').card?.slug // → 'studio'
 */
export function pageCard(cards: readonly CardSummary[], search: string): PageCard {
  const choice = chooseCard({ named: askedCard(search), cards });
  return { choice, card: cards.find((card) => card.slug === choice.slug) };
}

/**
 * The address of /manage showing a card: `?c=<slug>`, so that the address names the card it
 * shows whichever cards the user has.
 *
 * @param slug the card's slug
 * @param base the page's own address (`location.href`)
 * @example manageUrlOf('studio', 'https://me.example/manage/?c=main#top') // → '/manage/?c=studio'
 */
export function manageUrlOf(slug: string, base: string): string {
  const url = new URL(base);
  url.search = '';
  url.hash = '';
  url.searchParams.set(CARD_PARAM, slug);
  return `${url.pathname}${url.search}`;
}

/** How the page names a card: its name, else its slug. */
export function cardName(card: Pick<CardSummary, 'slug' | 'name'>): string {
  return card.name || card.slug;
}
