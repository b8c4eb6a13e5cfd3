import { useState } from 'react';
import type { CardChoice, CardSummary } from '../../../shared/core/cards.js';
import { listCards } from '../../../shared/supabase/cards.js';
import { goTo } from '../routes.js';
import { supabase } from '../supabase.js';
import { CardScopeContext, pageCard } from './card/card-scope.js';
import { CardPage } from './CardPage.js';
import { AcceptInvitation, CardSwitcher } from './later/parts.js';
import { useLoad, type Loaded } from './parts/useLoad.js';
import { QuestionHost } from './QuestionHost.js';
import { useSessionOrLogin } from './useSession.js';
import './manage.css';

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
        <QuestionHost>
          {cards.state === 'ready' && <CardSwitcher cards={cards.data} current={shown?.card} />}
          {shown?.card ? (
            <CardScopeContext.Provider value={shown.card}>
              <CardPage />
            </CardScopeContext.Provider>
          ) : (
            <NoCard cards={cards} choice={shown?.choice} />
          )}
          {cards.state === 'ready' && <AcceptInvitation />}
        </QuestionHost>
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

/** Signs out (on the server, else in this browser alone) and goes to /login. */
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
