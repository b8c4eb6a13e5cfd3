import { useEffect, useState } from 'react';
import { goTo } from '../routes.js';
import { supabase } from '../supabase.js';

export type SessionState = { status: 'checking' } | { status: 'signed-in'; email: string };

/**
 * The signed-in user, or a redirect to /login: with no session at load (INITIAL_SESSION
 * without one) and whenever the session ends (SIGNED_OUT, or a refresh that failed).
 */
export function useSessionOrLogin(): SessionState {
  const [state, setState] = useState<SessionState>({ status: 'checking' });
  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((_event, session) => {
      if (!session) goTo('login');
      else setState({ status: 'signed-in', email: session.user.email ?? '' });
    });
    return () => data.subscription.unsubscribe();
  }, []);
  return state;
}
