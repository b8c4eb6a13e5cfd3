// The people's chunk, loaded after the first draw (later.tsx says why it is one chunk): the
// switcher between the user's cards, the owners' sections and "Accept an invitation".
export { CardSwitcher } from '../card/CardSwitcher.js';
export { AcceptInvitation } from './AcceptInvitation.js';
export { OwnerSections } from './OwnerSections.js';
