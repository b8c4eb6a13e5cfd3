import { useState } from 'react';
import { formatWhen } from '../../../../shared/core/format.js';
import type { OpenInvitation } from '../../../../shared/core/members.js';
import { revokeInvitation } from '../../../../shared/supabase/members.js';
import { supabase } from '../../supabase.js';
import { ConfirmDialog } from '../parts/ConfirmDialog.js';
import { useCardScope } from '../card/card-scope.js';
import { errorMessage } from '../parts/error-words.js';
import type { Loaded } from '../parts/useLoad.js';
import { OutcomeLine, type Outcome } from '../parts/Outcome.js';
import { aRole } from './role-words.js';

/**
 * The card's open invitation codes (owners, as `namecard member invites`): each with its role,
 * who made it and until when, and Revoke, asked first. Never a code: the server keeps only its
 * hash. A code stops working once its maker is no longer an owner, so it is not listed then.
 *
 * @param invitations the open codes as read (`listInvitations`), with `reload` to read them again
 */
export function InvitesList({
  invitations,
}: {
  invitations: Loaded<OpenInvitation[]> & { reload: () => Promise<unknown> };
}) {
  const scope = useCardScope();
  const card = scope.slug;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [asking, setAsking] = useState<OpenInvitation | null>(null);
  const [busy, setBusy] = useState(false);
  const [shownAt] = useState(() => Date.now());

  async function revoke(invitation: OpenInvitation) {
    setBusy(true);
    setOutcome(null);
    try {
      await revokeInvitation(supabase, invitation.id, card);
      setOutcome({
        tone: 'ok',
        text: `Revoked the code for ${aRole(invitation.role)}: it works no more.`,
      });
      await invitations.reload();
    } catch (error) {
      setOutcome({ tone: 'error', text: `Not revoked: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="invites" data-testid="invites">
      <h3>Open invitations</h3>
      {invitations.state === 'loading' && <p className="muted small">Reading the codes…</p>}
      {invitations.state === 'error' && (
        <p className="status error" role="alert">
          Could not read the open invitations: {invitations.error}
        </p>
      )}
      {invitations.state === 'ready' && invitations.data.length === 0 && (
        <p className="muted small" data-testid="no-invites">
          No code is waiting to be accepted.
        </p>
      )}
      {invitations.state === 'ready' && invitations.data.length > 0 && (
        <ul className="member-list" aria-label="Open invitation codes">
          {invitations.data.map((invitation) => (
            <li key={invitation.id} data-testid={`invite-${invitation.id}`}>
              <p>
                A code for {aRole(invitation.role)}, made by{' '}
                {invitation.maker ?? 'a deleted account'}
              </p>
              <p className="small muted">
                Works until {formatWhen(Date.parse(invitation.expires_at), shownAt)}
              </p>
              <div className="member-actions">
                <button
                  type="button"
                  className="button secondary small-button"
                  aria-label={`Revoke the code for ${aRole(invitation.role)} made by ${invitation.maker ?? 'a deleted account'}`}
                  disabled={busy}
                  onClick={() => setAsking(invitation)}
                >
                  Revoke
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <OutcomeLine outcome={outcome} />
      {asking && (
        <ConfirmDialog
          heading="Revoke this invitation code?"
          confirm="Yes, revoke"
          onDismiss={() => setAsking(null)}
          onConfirm={() => {
            const invitation = asking;
            setAsking(null);
            void revoke(invitation);
          }}
        >
          <p>
            Whoever holds it can no longer join {scope.name || scope.slug} with it. Make a new code
            to invite them again.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
