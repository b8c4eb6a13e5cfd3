import { CARD_PARAM } from '../../../../shared/core/card-link.js';

// The address of a card's /manage page, for the links the switcher and "Accept an invitation"
// give: loaded with them, after the first draw. React-free (tests/unit/manage-card-scope.test.ts).

/**
 * The address of /manage showing a card: `?c=<slug>` for any card but the first, whose page
 * keeps the bare `/manage/` (as its link keeps the bare `/go/`).
 *
 * @param card the card's slug and whether it is the first card
 * @param base the page's own address (`location.href`)
 */
export function manageUrlOf(card: { slug: string; first: boolean }, base: string): string {
  const url = new URL(base);
  url.search = '';
  url.hash = '';
  if (!card.first) url.searchParams.set(CARD_PARAM, card.slug);
  return `${url.pathname}${url.search}`;
}
