import { useEffect } from 'react';
import { Auth } from '@supabase/auth-ui-react';
import { ThemeSupa } from '@supabase/auth-ui-shared';
import { goTo } from '../routes.js';
import { supabase } from '../supabase.js';

// The site's green, so the form matches the other pages.
const AUTH_COLORS = { default: { colors: { brand: '#1f8a5b', brandAccent: '#17704a' } } };

/**
 * The login screen: the Auth UI's sign-in view only (email and password, no providers, no
 * links). A session at load (INITIAL_SESSION) or a new one (SIGNED_IN) goes to /manage.
 * Server errors appear in the Auth UI's danger box with the server's message.
 */
export function LoginPage() {
  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      if (session && (event === 'INITIAL_SESSION' || event === 'SIGNED_IN')) goTo('manage');
    });
    return () => data.subscription.unsubscribe();
  }, []);

  return (
    <main className="page">
      <section className="card login">
        <h1>Namecard</h1>
        <p className="muted">Sign in to choose where your card link sends visitors.</p>
        <Auth
          supabaseClient={supabase}
          view="sign_in"
          providers={[]}
          showLinks={false}
          appearance={{ theme: ThemeSupa, variables: AUTH_COLORS }}
        />
      </section>
    </main>
  );
}
