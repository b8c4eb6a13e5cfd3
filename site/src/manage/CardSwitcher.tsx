import type { CardSummary } from '../../../shared/core/cards.js';
import { manageUrlOf } from './members/manage-url.js';

/**
 * The user's cards, each a link to its own page (`/manage/?c=<slug>`; the first card's is the
 * bare `/manage/`), the shown one marked, with the user's role on each. Shown when there is a
 * choice, when the card shown is not the first card (its name and slug say which it is), or
 * when the address names none of the user's cards;
 * plain links, so that the address keeps the card and Back goes to the card before.
 *
 * @param cards the user's cards, first card first
 * @param current the card the page shows, if any
 */
export function CardSwitcher({
  cards,
  current,
}: {
  cards: readonly CardSummary[];
  current: CardSummary | undefined;
}) {
  // One card, the first, shown: nothing to choose and nothing to name.
  if (cards.length === 0 || (cards.length === 1 && cards[0]!.first && current)) return null;
  return (
    <nav className="card card-switcher" aria-label="Your cards" data-testid="card-switcher">
      <p className="muted small">Your cards:</p>
      <ul>
        {cards.map((card) => (
          <li key={card.slug}>
            <a
              href={manageUrlOf(card, window.location.href)}
              aria-current={card.slug === current?.slug ? 'page' : undefined}
            >
              {card.name || card.slug}
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
