import { useState } from 'react';
import { goTo } from '../routes.js';
import { supabase } from '../supabase.js';
import { CardForm } from './CardForm.js';
import { CardHistory } from './CardHistory.js';
import { CurrentCard } from './CurrentCard.js';
import { useCardState } from './useCardState.js';
import { useSessionOrLogin } from './useSession.js';

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
  const { result, refresh } = useCardState();
  return (
    <>
      <header className="topbar">
        <span className="muted small">{email && `Signed in as ${email}`}</span>
        <LogoutButton />
      </header>
      <main className="page">
        <section className="card">
          <h1>Your card</h1>
          <CurrentCard result={result} refresh={refresh} />
          <CardForm refresh={refresh} />
          <CardHistory result={result} />
        </section>
      </main>
    </>
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
