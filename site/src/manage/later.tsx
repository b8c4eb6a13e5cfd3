import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';

// What /manage loads after its first draw, all in this one file: each part is a chunk of its own
// (or shares one), fetched with import() when it is first drawn or asked for, so that the first
// draw carries only the page's frame, the card's timeline and its link
// (tests/e2e/static-host.test.ts holds it to its budget). Nothing else under manage/ calls
// import() or React.lazy.

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
const people = () => import('./people/people.js');

/** The switcher between the user's cards, shown to few users. */
export const CardSwitcher = afterFirstDraw(() => people().then((m) => m.CardSwitcher));

/** The card's members and invitations, and its tokens: owners only. */
export const OwnerSections = afterFirstDraw(() => people().then((m) => m.OwnerSections));

/** The section that redeems an invitation code, for everyone. */
export const AcceptInvitation = afterFirstDraw(() => people().then((m) => m.AcceptInvitation));

/** The profiles' list and editor: owners only. */
export const ProfilesSection = afterFirstDraw(() =>
  import('./profiles/ProfilesSection.js').then((m) => m.ProfilesSection),
);

/** The weekly series and the .ics link, with Temporal and the iCalendar code. */
export const SeriesSection = afterFirstDraw(() =>
  import('./series/SeriesSection.js').then((m) => m.SeriesSection),
);

/** The card's past entries, collapsed under "History": drawn once the card's state is read. */
export const History = afterFirstDraw(() => import('./entries/History.js').then((m) => m.History));

/** The fields of the set form's "Repeat weekly", drawn only once it is opened. */
export const WeeklyFields = afterFirstDraw(
  () => import('./series/WeeklyFields.js').then((m) => m.WeeklyFields),
  <p className="muted small">Loading…</p>,
);

/** The visit counts (the chart and the day arithmetic), with the section's frame until then. */
export const VisitsSection = afterFirstDraw(
  () => import('./visits/VisitsSection.js').then((m) => m.VisitsSection),
  <section className="card" aria-busy="true">
    <h2>Visits</h2>
    <p className="muted small">Loading the visit counts…</p>
  </section>,
);

/** The chunk of the question asked before a change ({@link ConfirmDialog}). */
export const loadConfirmDialog = () => import('./parts/ConfirmDialog.js');

/**
 * The question asked before a change that cannot be taken back (End now, Cancel, Revoke,
 * Remove), drawn only once the user asks for one; a page that offers such a change fetches it
 * beforehand (`loadConfirmDialog`), so that the question opens at once.
 */
export const ConfirmDialog = afterFirstDraw(() => loadConfirmDialog().then((m) => m.ConfirmDialog));

/**
 * `planEntry` and what it needs (Temporal's time-zone arithmetic, the duration parser): the set
 * form asks for it as soon as it is shown, so that it is there by the time the user submits.
 */
export const loadPlan = () => import('../../../shared/calendar/plan.js');

/** The "Repeat weekly" part of the set form: the series the fields ask for, and its call. */
export const loadWeekly = () => import('./series/weekly.js');

/** The `qrcode` package, which draws the card link's QR code once the page is shown. */
export const loadQrCode = () => import('qrcode');
