import { useState } from 'react';
import { goTo } from '../routes.js';
import { supabase } from '../supabase.js';
import { CardForm } from './CardForm.js';
import { CardLink } from './CardLink.js';
import { describeActive } from './describe.js';
import { useActiveEntry, type ActiveEntryState } from './useActiveEntry.js';
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
  const { state, refresh } = useActiveEntry();
  return (
    <>
      <header className="topbar">
        <span className="muted small">{email && `Signed in as ${email}`}</span>
        <LogoutButton />
      </header>
      <main className="page">
        <section className="card">
          <h1>Your card</h1>
          <CurrentCard state={state} />
          <CardForm refreshActive={refresh} />
        </section>
        <CardLink />
      </main>
    </>
  );
}

function CurrentCard({ state }: { state: ActiveEntryState }) {
  let text: string;
  if (state.status === 'loading') text = 'Reading the current card…';
  else if (state.status === 'failed') text = `Could not read the current card: ${state.message}`;
  else text = describeActive(state.entry);
  return (
    <p className="current" data-testid="current-card">
      <span className="label">Now</span> {text}
    </p>
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
