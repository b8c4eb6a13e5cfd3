import { formatWhen } from '../../../../shared/core/format.js';
import type { TokenSummary } from '../../../../shared/core/tokens.js';
import { cardName, useCardScope } from '../card/card-scope.js';
import { AskFirst } from '../parts/AskFirst.js';

/** A stamp of the list in words: `never` for none (no expiry, not used yet). */
const when = (iso: string | null, now: number) =>
  iso === null ? 'never' : formatWhen(Date.parse(iso), now);

/** Why a token that is still listed no longer works, in words; none while it works. */
const STOPPED: Record<TokenSummary['state'], string> = {
  live: '',
  expired: 'expired: it works no more',
  'creator not an owner': 'its creator is no longer an owner: it works no more',
};

/**
 * One token: name and role, who made it and when, last use and expiry (`never`), why it no
 * longer works if so, and Revoke, which asks first (scripts using it are refused from then on).
 * Never its secret: the server keeps only a hash.
 *
 * @param now the instant stamps are named from, epoch ms
 * @param onRevoke revokes it on the server (the section says the outcome)
 */
export function TokenItem({
  token,
  now,
  busy,
  onRevoke,
}: {
  token: TokenSummary;
  now: number;
  busy: boolean;
  onRevoke: (token: TokenSummary) => void;
}) {
  const card = useCardScope();
  const stopped = STOPPED[token.state] ?? token.state;
  return (
    <li data-testid={`token-${token.name}`}>
      <p>
        <strong>{token.name}</strong> · {token.role}
        {stopped && <span> · {stopped}</span>}
      </p>
      <p className="small muted">
        Made by {token.creator ?? 'a deleted account'} {when(token.created_at, now)} · last used{' '}
        {when(token.last_used_at, now)} · expires {when(token.expires_at, now)}
      </p>
      <div className="member-actions">
        <AskFirst
          label="Revoke"
          name={`Revoke ${token.name}`}
          busy={busy}
          question={() => ({
            heading: `Revoke the token ${token.name}?`,
            confirm: 'Yes, revoke',
            text: `Scripts using ${token.name} will be refused from their next request on ${cardName(card)}. This cannot be undone: make a new token to replace it.`,
          })}
          onConfirm={() => onRevoke(token)}
        />
      </div>
    </li>
  );
}
