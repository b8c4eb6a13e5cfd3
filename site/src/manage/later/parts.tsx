import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { loadConfirmDialog } from './chunks.js';

// What /manage draws after its first draw: each part a component whose chunk is fetched when it
// is first drawn, so that the first draw carries only the page's frame, the card's timeline and
// its set form (tests/e2e/static-host.test.ts holds it to its budget). With chunks.ts, which
// holds the modules that code asks for when it needs them, this folder is all that loads after
// the first draw: nothing else under manage/ calls import() or React.lazy. (A part that fetches
// more itself imports chunks.ts, never this file, so that no import goes round in a cycle.)

/**
 * A component that comes with a chunk loaded after the first draw: until it is there, `fallback`
 * (nothing by default) stands in its place.
 *
 * @param load imports the chunk and answers the component
 */
function afterFirstDraw<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
): (props: P) => ReactNode {
  const Part = lazy(async () => ({ default: await load() }));
  function Later(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Part {...props} />
      </Suspense>
    );
  }
  return Later;
}

/**
 * The people's parts in one chunk: the switcher between the user's cards, the owners' sections
 * (Members and Tokens) and "Accept an invitation". One chunk rather than three, since the bundler
 * gives every set of chunks sharing modules with the page a chunk of its own, and each such chunk
 * is one more file before the first draw.
 */
const people = () => import('../people/people.js');

/** The switcher between the user's cards, shown to few users. */
export const CardSwitcher = afterFirstDraw(() => people().then((m) => m.CardSwitcher));

/** The card's members and invitations, and its tokens: owners only. */
export const OwnerSections = afterFirstDraw(() => people().then((m) => m.OwnerSections));

/** The section that redeems an invitation code, for everyone. */
export const AcceptInvitation = afterFirstDraw(() => people().then((m) => m.AcceptInvitation));

/** The profiles' list and editor: owners only. */
export const ProfilesSection = afterFirstDraw(() =>
  import('../profiles/ProfilesSection.js').then((m) => m.ProfilesSection),
);

/** The weekly series and the .ics link, with Temporal and the iCalendar code. */
export const SeriesSection = afterFirstDraw(() =>
  import('../series/SeriesSection.js').then((m) => m.SeriesSection),
);

/** The card's past entries, collapsed under "History": drawn once the card's state is read. */
export const History = afterFirstDraw(() => import('../entries/History.js').then((m) => m.History));

/** The fields of the set form's "Repeat weekly", drawn only once it is opened. */
export const WeeklyFields = afterFirstDraw(
  () => import('../series/WeeklyFields.js').then((m) => m.WeeklyFields),
  <p className="muted small">Loading…</p>,
);

/** The card's link with its copy button and QR code, below the card's sections. */
export const CardLink = afterFirstDraw(() => import('../card/CardLink.js').then((m) => m.CardLink));

/** The visit counts (the chart and the day arithmetic), with the section's frame until then. */
export const VisitsSection = afterFirstDraw(
  () => import('../visits/VisitsSection.js').then((m) => m.VisitsSection),
  <section className="card" aria-busy="true">
    <h2>Visits</h2>
    <p className="muted small">Loading the visit counts…</p>
  </section>,
);

/**
 * The question asked before a change that cannot be taken back (End now, Cancel, Revoke,
 * Remove), drawn only once the user asks for one; a page that offers such a change fetches it
 * beforehand (`loadConfirmDialog`), so that the question opens at once.
 */
export const ConfirmDialog = afterFirstDraw(() => loadConfirmDialog().then((m) => m.ConfirmDialog));
