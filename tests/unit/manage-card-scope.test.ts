import { describe, expect, it } from 'vitest';
import type { CardSummary } from '../../shared/core/cards.js';
import { askedCard, chooseCard, fnCard, may } from '../../site/src/manage/card-choice.js';
import { manageUrlOf } from '../../site/src/manage/members/manage-url.js';

// Which card /manage shows and how it names it (site/src/manage/card-choice.ts, members/manage-url.ts): the card the
// address asks for, else the user's first; its address; what the role may do. The page itself
// is checked in Chromium (tests/e2e/manage-cards.test.ts).

const MAIN: CardSummary = { id: 1, slug: 'main', name: 'Main card', role: 'owner', first: true };
const STUDIO: CardSummary = { id: 7, slug: 'studio', name: 'Studio', role: 'viewer', first: false };

describe('the card /manage shows', () => {
  it('is the one ?c= names, among the user cards', () => {
    expect(chooseCard([MAIN, STUDIO], askedCard('?c=studio'))).toBe(STUDIO);
    expect(chooseCard([MAIN, STUDIO], askedCard('?c=main&x=1'))).toBe(MAIN);
  });

  it('is the user first card without ?c=, so a member of another card alone gets that card', () => {
    expect(chooseCard([MAIN, STUDIO], askedCard(''))).toBe(MAIN);
    expect(chooseCard([STUDIO], askedCard(''))).toBe(STUDIO);
  });

  it('is none for a ?c= that names none of the user cards, or a user with none', () => {
    expect(chooseCard([MAIN, STUDIO], askedCard('?c=elsewhere'))).toBeUndefined();
    expect(chooseCard([], null)).toBeUndefined();
  });
});

describe("a card's page and calls", () => {
  it('keeps the bare /manage/ for the first card and ?c=<slug> for any other', () => {
    const here = 'https://me.example/card/manage/?c=old#top';
    expect(manageUrlOf(MAIN, here)).toBe('/card/manage/');
    expect(manageUrlOf(STUDIO, here)).toBe('/card/manage/?c=studio');
  });

  it('calls functions with no card for the first card (as before cards), else with its slug', () => {
    expect(fnCard(MAIN)).toBeUndefined();
    expect(fnCard(STUDIO)).toBe('studio');
  });

  it('offers what the role may: a viewer writes nothing, an owner everything', () => {
    expect(may(STUDIO, 'viewer')).toBe(true);
    expect(may(STUDIO, 'editor')).toBe(false);
    expect(may(MAIN, 'owner')).toBe(true);
    expect(may({ ...STUDIO, role: 'editor' }, 'owner')).toBe(false);
  });
});
