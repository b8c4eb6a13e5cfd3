import { useState } from 'react';
import { listTokens, revokeToken } from '../../../../shared/supabase/tokens.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { ListSection } from '../parts/ListSection.js';
import { useChange } from '../parts/useChange.js';
import { useLoad } from '../parts/useLoad.js';
import { TokenForm } from './TokenForm.js';
import { TokenItem } from './TokenItem.js';

/**
 * The card's tokens (owners only, as the server allows): each with its role, creator, when it
 * was made, last used and expires, and Revoke (asked first); and the form that makes one, whose
 * secret is shown once. The calls are `shared/supabase/tokens.ts`, as the CLI's `token` commands.
 */
export function TokensSection() {
  const { slug } = useCardScope();
  const tokens = useLoad(() => listTokens(supabase, slug), [slug]);
  const change = useChange();
  // Stamps are named from when the list was shown ("today 10:00"), in the zone the page names.
  const [shownAt] = useState(() => Date.now());
  return (
    <ListSection
      name="tokens"
      heading="Tokens"
      intro={
        <p className="muted small">
          A token lets a script (a CI job) act on this card alone, as an editor (set, end, cancel,
          series) or a viewer (reads), with no password: <code>NAMECARD_TOKEN</code> for the CLI.
        </p>
      }
      loaded={tokens}
      words={{ what: 'the tokens', empty: 'This card has no tokens.', label: "The card's tokens" }}
      item={(token) => (
        <TokenItem
          key={token.name}
          token={token}
          now={shownAt}
          busy={change.busy}
          onRevoke={(t) =>
            void change.run(async () => {
              const done = await revokeToken(supabase, t.name, slug);
              await tokens.reload();
              return `Revoked the token ${done.name}: it works no more.`;
            }, 'Not revoked')
          }
        />
      )}
      outcome={change.outcome}
    >
      <TokenForm onMade={() => void tokens.reload()} />
    </ListSection>
  );
}
