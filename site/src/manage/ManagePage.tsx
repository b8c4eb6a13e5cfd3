import { Suspense, lazy, useState } from 'react';
import { localTimeZone, zoneHeader } from '../../../shared/core/format.js';
import { canSetCard } from '../../../shared/supabase/data.js';
import { goTo } from '../routes.js';
import { supabase } from '../supabase.js';
import { CardForm } from './CardForm.js';
import { CardHistory } from './CardHistory.js';
import { CardLink } from './CardLink.js';
import { CardTimeline } from './CardTimeline.js';
import { useCardState } from './useCardState.js';
import { useLoad } from './useLoad.js';
import { useProfiles, type ProfilesState } from './useProfiles.js';
import { useSessionOrLogin } from './useSession.js';
import { LazyVisits } from './visits/LazyVisits.js';
import './timeline.css';
import './manage.css';

/** The profiles' list and editor, below the card: after the first draw. */
const ProfilesSection = lazy(() =>
  import('./ProfilesSection.js').then((m) => ({ default: m.ProfilesSection })),
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

function SignedInManage({ email }: { email: string }) {
  // Whether the signed-in account is one of the card's owners (the insert policy's own check).
  const access = useLoad(() => canSetCard(supabase), []);
  // Read here, so that the set form's choices and the Profiles section share one list.
  const profiles = useProfiles();
  const owner = access.state === 'ready' && access.data;
  return (
    <>
      <header className="topbar">
        <span className="muted small">{email && `Signed in as ${email}`}</span>
        <LogoutButton />
      </header>
      <main className="page manage">
        <section className="card your-card" data-testid="your-card">
          <h1>Your card</h1>
          {access.state === 'loading' && <p className="muted">Checking this account…</p>}
          {owner && <OwnerView profiles={profiles} />}
          {access.state === 'ready' && !access.data && (
            <p className="status error" role="alert">
              This account may not change the card: it is not one of the card&apos;s owners. Log out
              and sign in as an owner.
            </p>
          )}
          {access.state === 'error' && (
            <p className="status error" role="alert">
              Could not check this account: {access.error}
            </p>
          )}
        </section>
        {owner && (
          <Suspense fallback={null}>
            <ProfilesSection state={profiles} reload={profiles.reload} />
          </Suspense>
        )}
        {owner && <LazyVisits />}
        <CardLink />
      </main>
    </>
  );
}

/**
 * The zone line, the timeline, the form, the weekly series and the history: what an owner sees. On a wide screen
 * the timeline and the form stand side by side (manage.css).
 */
function OwnerView({ profiles }: { profiles: ProfilesState }) {
  const { result, refresh } = useCardState();
  const [shownAt] = useState(() => Date.now());
  const at = result.state === 'ready' ? result.data.status.now : shownAt;
  const rows = profiles.state === 'ready' ? profiles.data : undefined;
  return (
    <div className="owner-view">
      <p className="muted small zone-header" data-testid="zone-header">
        {zoneHeader(localTimeZone(), at)}
      </p>
      <CardTimeline result={result} refresh={refresh} profiles={rows} />
      <CardForm refresh={refresh} profiles={rows} />
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
