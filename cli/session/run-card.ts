import {
  chooseCard,
  choiceNeedsCards,
  type CardChoice,
  type CardRole,
  type CardSummary,
} from '../../shared/core/cards.js';
import { ApiError, InputError } from '../../shared/core/errors.js';
import { didYouMean, nearestName } from '../../shared/core/suggest.js';
import type { CliConfig, NamedSource } from './settings.js';

// The card a run acts on, one rule for every command and both paths (the light path and the
// program): shared/core/cards.ts's chooseCard, fed with what was named for the run and, only
// when nothing was named or the caller is a card token, the caller's cards. No request here:
// each path reads the cards its own way. Light: the entry point loads it.

/** The card a run acts on, where that came from, and the caller's cards when they were read. */
export interface RunCard extends CardChoice {
  /** The caller's cards (`namecard_cards()`), when read: none when a card was named. */
  cards?: readonly CardSummary[];
}

/**
 * Whether the run must read the caller's cards to choose its card: a card token's run (to learn
 * the token's card), or a signed-in run with no card named. A signed-out run never does.
 *
 * @param signedIn whether the run has a caller (a token or a session)
 */
export function needsCards(
  config: Pick<CliConfig, 'cardNamed' | 'cardToken'>,
  signedIn: boolean,
): boolean {
  if (config.cardToken !== undefined) return true;
  return signedIn && choiceNeedsCards({ named: config.cardNamed });
}

/**
 * The run's card: shared/core/cards.ts's chooseCard with what was named for the run and the
 * caller's cards. A card token's caller has one card, the token's.
 *
 * @param cards the caller's cards, when read ({@link needsCards})
 * @throws CardConflictError (exit 2) when a token run names another card than the token's;
 *   ApiError `invalid_response` when a token's caller has no card
 */
export function runCardOf(
  config: Pick<CliConfig, 'cardNamed' | 'cardToken'>,
  cards?: readonly CardSummary[],
): RunCard {
  let tokenCard: string | undefined;
  if (config.cardToken !== undefined) {
    tokenCard = cards?.[0]?.slug;
    if (tokenCard === undefined) {
      throw new ApiError(200, 'invalid_response', 'The server answered no card for the token');
    }
  }
  const choice = chooseCard({ named: config.cardNamed, cards, tokenCard });
  return cards === undefined ? choice : { ...choice, cards };
}

/** True when the run's card was named (`--card`, NAMECARD_CARD, `card use`), not chosen. */
export function isNamed(card: RunCard): card is RunCard & { source: NamedSource } {
  return card.source === '--card' || card.source === 'NAMECARD_CARD' || card.source === 'card use';
}

/**
 * The run's settings with the card its outputs name (`cardShown`): the run's card when the
 * caller has more than one card, or when the card was named for the run; else none (a caller
 * with one card needs no reminder which).
 */
export function showingCard<C extends CliConfig>(config: C, card: RunCard): C {
  const shown = isNamed(card) || (card.cards?.length ?? 0) > 1;
  return { ...config, cardShown: shown ? card.slug : undefined };
}

/** The caller's role on the run's card, when the cards were read. */
export function roleOn(card: RunCard): CardRole | undefined {
  return card.cards?.find((c) => c.slug === card.slug)?.role;
}

/**
 * The refusal of `slug`, none of `slugs` (the user's cards), naming `field` and the card most
 * likely meant (exit 2).
 *
 * @param field where the slug came from: `--card`, `NAMECARD_CARD`, `card use`, `<slug>`
 */
export function unknownCard(slug: string, slugs: readonly string[], field: string): InputError {
  const yours = slugs.length === 0 ? 'you have no card' : `your cards: ${slugs.join(', ')}`;
  const where = field === 'card use' ? 'the current card (`namecard card use`)' : `\`${field}\``;
  return new InputError(
    field,
    'one of your cards',
    slug,
    `${where} must be one of your cards, got \`${slug}\`${didYouMean(nearestName(slug, slugs))} (${yours}; see \`namecard card list\`)`,
  );
}
