import { useState } from 'react';
import type { TokenSummary } from '../../../../shared/core/tokens.js';
import { listTokens, revokeToken } from '../../../../shared/supabase/tokens.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { errorMessage } from '../parts/error-words.js';
import { OutcomeLine, type Outcome } from '../parts/Outcome.js';
import { useLoad } from '../parts/useLoad.js';
import { TokenForm } from './TokenForm.js';
import { TokenItem } from './TokenItem.js';

/**
 * The card's tokens (issue 41; owners only, as the server allows): each with its role, creator,
 * when it was made, last used and expires, and Revoke (asked first); and the form that makes
 * one, whose secret is shown once. The calls are `shared/supabase/tokens.ts`, as the CLI's
 * `token` commands. Loaded after the first draw, in the people chunk (members/people.ts).
 */
export function TokensSection() {
  const scope = useCardScope();
  const card = scope.slug;
  const tokens = useLoad(() => listTokens(supabase, card), [card]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  // Stamps are named from when the list was shown ("today 10:00"), in the zone the page names.
  const [shownAt] = useState(() => Date.now());

  async function revoke(token: TokenSummary) {
    setBusy(true);
    setOutcome(null);
    try {
      const done = await revokeToken(supabase, token.name, card);
      setOutcome({ tone: 'ok', text: `Revoked the token ${done.name}: it works no more.` });
      await tokens.reload();
    } catch (error) {
      setOutcome({ tone: 'error', text: `Not revoked: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card tokens" aria-labelledby="tokens-heading" data-testid="tokens">
      <h2 id="tokens-heading">Tokens</h2>
      <p className="muted small">
        A token lets a script (a CI job) act on this card alone, as an editor (set, end, cancel,
        series) or a viewer (reads), with no password: <code>NAMECARD_TOKEN</code> for the CLI.
      </p>
      {tokens.state === 'loading' && <p className="muted small">Reading the tokens…</p>}
      {tokens.state === 'error' && (
        <p className="status error" role="alert">
          Could not read the tokens: {tokens.error}
        </p>
      )}
      {tokens.state === 'ready' && tokens.data.length === 0 && (
        <p className="muted small" data-testid="no-tokens">
          This card has no tokens.
        </p>
      )}
      {tokens.state === 'ready' && tokens.data.length > 0 && (
        <ul className="member-list" aria-label="The card's tokens">
          {tokens.data.map((token) => (
            <TokenItem
              key={token.name}
              token={token}
              now={shownAt}
              busy={busy}
              onRevoke={(t) => void revoke(t)}
            />
          ))}
        </ul>
      )}
      <OutcomeLine outcome={outcome} />
      <TokenForm onMade={() => void tokens.reload()} />
    </section>
  );
}
