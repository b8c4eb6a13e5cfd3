import { TokensSection } from '../tokens/TokensSection.js';
import { MembersSection } from './MembersSection.js';

/**
 * What only a card's owners are offered below the card: its Members and its Tokens, drawn as one
 * part loaded after the first draw (later.tsx).
 */
export function OwnerSections() {
  return (
    <>
      <MembersSection />
      <TokensSection />
    </>
  );
}
