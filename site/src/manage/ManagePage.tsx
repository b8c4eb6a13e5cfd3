import { Suspense, lazy, useState } from 'react';
import { localTimeZone, zoneHeader } from '../../../shared/core/format.js';
import type { CardChoice, CardSummary } from '../../../shared/core/cards.js';
import { listCards } from '../../../shared/supabase/cards.js';
import { goTo } from '../routes.js';
import { supabase } from '../supabase.js';
import { CardForm } from './CardForm.js';
import { CardHistory } from './CardHistory.js';
import { CardScopeContext, cardName, may, pageCard, useCardScope } from './card-scope.js';
import { CardLink } from './CardLink.js';
import { CardTimeline } from './CardTimeline.js';
import { useCardState } from './useCardState.js';
import { useLoad, type Loaded } from './useLoad.js';
import { useProfiles, type ProfilesState } from './useProfiles.js';
import { useSessionOrLogin } from './useSession.js';
import { LazyVisits } from './visits/LazyVisits.js';
import './timeline.css';
import './manage.css';

/** The profiles' list and editor, below the card: after the first draw. */
const ProfilesSection = lazy(() =>
  import('./ProfilesSection.js').then((m) => ({ default: m.ProfilesSection })),
);

/** The switcher between the user's cards, shown to few users: after the first draw. */
const CardSwitcher = lazy(() =>
  import('./members/people.js').then((m) => ({ default: m.CardSwitcher })),
);

/** The card's members and invitations, and its tokens: owners only, after the first draw. */
const OwnerSections = lazy(() =>
  import('./members/people.js').then((m) => ({ default: m.OwnerSections })),
);

/** The field that redeems an invitation code, for everyone: after the first draw. */
const AcceptInvitation = lazy(() =>
  import('./members/people.js').then((m) => ({ default: m.AcceptInvitation })),
);

/** The weekly series and the .ics link, with Temporal and the iCalendar code: after the first draw. */
const SeriesSection = lazy(() =>
  import('./series/SeriesSection.js').then((m) => ({ default: m.SeriesSection })),
);

/** The manage screen: only for a signed-in user; anyone else is sent to /login. */
export function ManagePage() {
  const session = useSessionOrLogin();
  if (session.status === 'checking') {
    return (
      <main className="page">
        <p className="muted">Checking your session…</p>
      </main>
    );
  }
  return <SignedInManage email={session.email} />;
}

/**
 * The signed-in user's page: their cards (the switcher, when there is a choice), the card the
 * one card choice gives (`pageCard`), or why none is shown, and "Accept an invitation".
 */
function SignedInManage({ email }: { email: string }) {
  // The user's cards and role on each (also what says whether they may change one).
  const cards = useLoad(() => listCards(supabase), []);
  const shown = cards.state === 'ready' ? pageCard(cards.data, window.location.search) : undefined;
  return (
    <>
      <header className="topbar">
        <span className="muted small">{email && `Signed in as ${email}`}</span>
        <LogoutButton />
      </header>
      <main className="page manage">
        {cards.state === 'ready' && (
          <Suspense fallback={null}>
            <CardSwitcher cards={cards.data} current={shown?.card} />
          </Suspense>
        )}
        {shown?.card ? (
          <CardScopeContext.Provider value={shown.card}>
            <CardPage />
          </CardScopeContext.Provider>
        ) : (
          <NoCard cards={cards} choice={shown?.choice} />
        )}
        {cards.state === 'ready' && (
          <Suspense fallback={null}>
            <AcceptInvitation />
          </Suspense>
        )}
      </main>
    </>
  );
}

/**
 * Why no card is shown: the cards are being read, could not be read, the address names none of
 * the user's cards, or the user is a member of none. No card's link is shown then.
 */
function NoCard({ cards, choice }: { cards: Loaded<CardSummary[]>; choice?: CardChoice }) {
  let said;
  if (cards.state === 'loading') said = <p className="muted">Checking this account…</p>;
  else if (cards.state === 'error') {
    said = (
      <p className="status error" role="alert">
        Could not check this account: {cards.error}
      </p>
    );
  } else if (cards.data.length > 0) {
    said = (
      <p className="status error" role="alert">
        None of your cards is called {choice?.slug}: choose one of your cards above.
      </p>
    );
  } else {
    said = (
      <p className="status error" role="alert">
        This account may not change any card: it is a member of none. Accept an invitation below, or
        log out and sign in as an owner or editor of a card.
      </p>
    );
  }
  return (
    <section className="card your-card" data-testid="your-card">
      <h1>Your cards</h1>
      {said}
    </section>
  );
}

/** One card's sections, each acting on it and offering what the user's role on it may do. */
function CardPage() {
  const scope = useCardScope();
  // Read here, so that the set form's choices and the Profiles section share one list.
  const profiles = useProfiles(scope);
  const owner = may(scope, 'owner');
  return (
    <>
      <section className="card your-card" data-testid="your-card" aria-labelledby="card-heading">
        <CardHeading />
        <CardView profiles={profiles} />
      </section>
      {owner && (
        <Suspense fallback={null}>
          <ProfilesSection state={profiles} reload={profiles.reload} />
        </Suspense>
      )}
      <LazyVisits />
      <CardLink />
      {owner && (
        <Suspense fallback={null}>
          <OwnerSections />
        </Suspense>
      )}
    </>
  );
}

/** The card's name as the page's heading, with its slug and the user's role on it. */
function CardHeading() {
  const scope = useCardScope();
  return (
    <h1 id="card-heading">
      {cardName(scope)}{' '}
      <span className="muted small card-slug">
        ({scope.slug}, {scope.role})
      </span>
    </h1>
  );
}

/**
 * The zone line, the timeline, the form, the weekly series and the history. An editor or owner
 * gets the form and the changes; a viewer the card as it is. On a wide screen the timeline and
 * the form stand side by side (manage.css).
 */
function CardView({ profiles }: { profiles: ProfilesState }) {
  const scope = useCardScope();
  const { result, refresh } = useCardState(scope);
  const [shownAt] = useState(() => Date.now());
  const at = result.state === 'ready' ? result.data.status.now : shownAt;
  const rows = profiles.state === 'ready' ? profiles.data : undefined;
  return (
    <div className="owner-view">
      <p className="muted small zone-header" data-testid="zone-header">
        {zoneHeader(localTimeZone(), at)}
      </p>
      <CardTimeline result={result} refresh={refresh} profiles={rows} />
      {may(scope, 'editor') ? (
        <CardForm refresh={refresh} profiles={rows} />
      ) : (
        <p className="muted small" data-testid="read-only">
          You are a viewer of this card: you see it, and change nothing.
        </p>
      )}
      {result.state === 'ready' && (
        <Suspense fallback={null}>
          <SeriesSection card={result.data} profiles={rows} refresh={refresh} />
        </Suspense>
      )}
      <CardHistory result={result} profiles={rows} />
    </div>
  );
}

function LogoutButton() {
  const [busy, setBusy] = useState(false);
  async function logout() {
    setBusy(true);
    const { error } = await supabase.auth.signOut();
    // The server could not be told (e.g. it is down): forget the session in this browser anyway.
    if (error) await supabase.auth.signOut({ scope: 'local' });
    goTo('login');
  }
  return (
    <button
      type="button"
      className="button secondary"
      disabled={busy}
      onClick={() => void logout()}
    >
      Logout
    </button>
  );
}
