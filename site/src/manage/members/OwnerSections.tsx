import { TokensSection } from '../tokens/TokensSection.js';
import { MembersSection } from './MembersSection.js';

/**
 * What only a card's owners are offered below the card: its Members and its Tokens. One lazy
 * component, so that /manage's first draw carries no more for the two than it did for one.
 */
export function OwnerSections() {
  return (
    <>
      <MembersSection />
      <TokensSection />
    </>
  );
}
