import { describe, expect, it } from 'vitest';
import { chooseCard, type CardSummary } from '../../shared/core/cards.js';
import { askedCard, manageUrlOf, may, pageCard } from '../../site/src/manage/card/card-choice.js';

// Which card /manage shows and how it names it (site/src/manage/card/card-choice.ts): the card the
// address names, else the one card choice the CLI makes too (chooseCard); its address; what the
// role may do. The page itself is checked in Chromium (tests/e2e/manage-cards.test.ts).

const MAIN: CardSummary = { id: 1, slug: 'main', name: 'Main card', role: 'owner' };
const STUDIO: CardSummary = { id: 7, slug: 'studio', name: 'Studio', role: 'viewer' };
const ALPHA: CardSummary = { id: 9, slug: 'alpha', name: 'Alpha', role: 'editor' };

describe('the card /manage shows', () => {
  it('is the one ?c= names, among the user cards, whatever its case', () => {
    expect(pageCard([MAIN, STUDIO], '?c=studio').card).toBe(STUDIO);
    expect(pageCard([MAIN, STUDIO], '?c=main&x=1').card).toBe(MAIN);
    expect(pageCard([MAIN, STUDIO], '?c=Studio').card).toBe(STUDIO);
    expect(askedCard('?c=Studio')).toEqual({ slug: 'studio', source: '?c=' });
  });

  it('without ?c=: the only card, then main where a member, then the first by slug', () => {
    expect(pageCard([STUDIO], '').card).toBe(STUDIO);
    expect(pageCard([STUDIO, MAIN], '').card).toBe(MAIN);
    expect(pageCard([STUDIO, ALPHA], '').card).toBe(ALPHA);
    // An empty ?c= names nothing.
    expect(pageCard([STUDIO, ALPHA], '?c=').card).toBe(ALPHA);
  });

  it('is the card the CLI chooses for the same cards and no card named', () => {
    for (const cards of [[STUDIO], [STUDIO, MAIN], [STUDIO, ALPHA]]) {
      expect(pageCard(cards, '').choice).toEqual(chooseCard({ cards }));
    }
  });

  it('is none for a ?c= that names none of the user cards, or a user with none', () => {
    expect(pageCard([MAIN, STUDIO], '?c=elsewhere')).toEqual({
      choice: { slug: 'elsewhere', source: '?c=' },
      card: undefined,
    });
    expect(pageCard([], '').card).toBeUndefined();
  });
});

describe("a card's page", () => {
  it('has an address that names its card, main too', () => {
    const here = 'https://me.example/card/manage/?c=old#top';
    expect(manageUrlOf('main', here)).toBe('/card/manage/?c=main');
    expect(manageUrlOf('studio', here)).toBe('/card/manage/?c=studio');
  });

  it('offers what the role may: a viewer writes nothing, an owner everything', () => {
    expect(may(STUDIO, 'viewer')).toBe(true);
    expect(may(STUDIO, 'editor')).toBe(false);
    expect(may(MAIN, 'owner')).toBe(true);
    expect(may({ ...STUDIO, role: 'editor' }, 'owner')).toBe(false);
  });
});
