import { useEffect, useRef, type ComponentProps, type RefObject } from 'react';
import { Auth } from '@supabase/auth-ui-react';
import { ThemeSupa } from '@supabase/auth-ui-shared';
import { AuthRetryableFetchError, isAuthRetryableFetchError } from '@supabase/auth-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import { goTo } from '../routes.js';
import { siteConfig } from '../site-config.js';
import { authUiClient, supabase } from '../supabase.js';
import { unreachableWords } from '../unreachable.js';

type Appearance = NonNullable<ComponentProps<typeof Auth>['appearance']>;

// The Auth UI dressed like the rest of the site (site/src/styles.css): its colours, the page's
// font, the manage form's bold labels, 6 px corners and button padding. Font weights have no
// theme variable, so the label and button also get the site's classes.
const AUTH_APPEARANCE: Appearance = {
  theme: ThemeSupa,
  variables: {
    default: {
      colors: {
        brand: '#17704a',
        brandAccent: '#125c3c',
        brandButtonText: '#ffffff',
        inputBackground: '#ffffff',
        inputBorder: '#e2e6eb',
        inputBorderHover: '#5f6b7a',
        inputBorderFocus: '#17704a',
        inputLabelText: '#1c1f24',
        inputText: '#1c1f24',
        inputPlaceholder: '#5f6b7a',
        messageTextDanger: '#b42318',
      },
      fonts: {
        bodyFontFamily: 'inherit',
        buttonFontFamily: 'inherit',
        inputFontFamily: 'inherit',
        labelFontFamily: 'inherit',
      },
      fontSizes: {
        baseBodySize: '0.9rem',
        baseInputSize: '1rem',
        baseLabelSize: '0.9rem',
        baseButtonSize: '1rem',
      },
      space: {
        labelBottomMargin: '0.3rem',
        inputPadding: '0.5rem 0.6rem',
        buttonPadding: '0.55rem 1.1rem',
      },
      radii: { borderRadiusButton: '6px', buttonBorderRadius: '6px', inputBorderRadius: '6px' },
    },
  },
  className: { label: 'auth-label', button: 'auth-button' },
};

/**
 * The site's client as the Auth UI sees it: the same client, except that a sign-in the server
 * never answered (auth-js's retryable fetch error with status 0: the browser's "Failed to
 * fetch") fails with the owner's words, naming the server. The Auth UI shows an error's
 * message as it is and has no prop to word it.
 */
function withUnreachableWords(client: SupabaseClient): SupabaseClient {
  const auth = client.auth;
  const signIn: typeof auth.signInWithPassword = async (credentials) => {
    const result = await auth.signInWithPassword(credentials);
    if (result.error && isAuthRetryableFetchError(result.error) && result.error.status === 0) {
      const words = unreachableWords(siteConfig.supabaseUrl);
      return { data: result.data, error: new AuthRetryableFetchError(words, 0) } as typeof result;
    }
    return result;
  };
  const authView = new Proxy(auth, {
    get(target, name) {
      if (name === 'signInWithPassword') return signIn;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return new Proxy(client, {
    get: (target, name) => (name === 'auth' ? authView : Reflect.get(target, name, target)),
  });
}

const authClient = withUnreachableWords(authUiClient);

/** The inputs the browser must not let through empty. */
const REQUIRED_INPUTS = ['email', 'password'];

/**
 * Marks the Auth UI's email and password inputs `required`, so the browser refuses an empty
 * form before it is sent (the server would only answer "missing email or phone"). The Auth UI
 * has no prop for it; the observer marks inputs it renders again later too.
 */
function useRequiredInputs(container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const mark = () => {
      for (const input of root.querySelectorAll('input')) {
        if (REQUIRED_INPUTS.includes(input.name) && !input.required) input.required = true;
      }
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [container]);
}

/**
 * The login screen: the Auth UI's sign-in view only (email and password, no providers, no
 * links). A session at load (INITIAL_SESSION) or a new one (SIGNED_IN) goes to /manage.
 * Server errors appear in the Auth UI's danger box with the server's message; a server that
 * does not answer is named there in the owner's words.
 */
export function LoginPage() {
  const form = useRef<HTMLDivElement>(null);
  useRequiredInputs(form);
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
        <div ref={form}>
          <Auth
            supabaseClient={authClient}
            view="sign_in"
            providers={[]}
            showLinks={false}
            appearance={AUTH_APPEARANCE}
          />
        </div>
      </section>
    </main>
  );
}
