// What /manage loads after its first draw for a card's people, in one chunk: the switcher between
// the user's cards, the owners' sections (Members and Tokens) and "Accept an invitation". One chunk rather than three,
// since the bundler gives every set of chunks sharing modules with the page a chunk of its own,
// and each such chunk is one more file before the first draw (tests/e2e/static-host.test.ts).
export { CardSwitcher } from '../CardSwitcher.js';
export { AcceptInvitation } from './AcceptInvitation.js';
export { OwnerSections } from './OwnerSections.js';
