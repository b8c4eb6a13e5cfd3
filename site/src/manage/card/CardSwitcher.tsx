import type { CardSummary } from '../../../../shared/core/cards.js';
import { cardName, manageUrlOf } from './card-choice.js';

/**
 * The user's cards, each a link to its own page (`/manage/?c=<slug>`), the shown one marked,
 * with the user's role on each. Shown when there is a choice: the user has several cards, or the
 * address names none of theirs. Plain links, so that the address keeps the card and Back goes to
 * the card before.
 *
 * @param cards the user's cards, by slug
 * @param current the card the page shows, if any
 */
export function CardSwitcher({
  cards,
  current,
}: {
  cards: readonly CardSummary[];
  current: CardSummary | undefined;
}) {
  // One card, shown (its heading names it), or none: nothing to choose.
  if (cards.length === 0 || (cards.length === 1 && current)) return null;
  return (
    <nav className="card card-switcher" aria-label="Your cards" data-testid="card-switcher">
      <p className="muted small">Your cards:</p>
      <ul>
        {cards.map((card) => (
          <li key={card.slug}>
            <a
              href={manageUrlOf(card.slug, window.location.href)}
              aria-current={card.slug === current?.slug ? 'page' : undefined}
            >
              {cardName(card)}
            </a>{' '}
            <span className="muted small">
              ({card.slug}, {card.role})
            </span>
          </li>
        ))}
      </ul>
    </nav>
  );
}
