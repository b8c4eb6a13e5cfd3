import { useState } from 'react';
import { formatWhen } from '../../../../shared/core/format.js';
import type { OpenInvitation } from '../../../../shared/core/members.js';
import { revokeInvitation } from '../../../../shared/supabase/members.js';
import { supabase } from '../../supabase.js';
import { cardName, useCardScope } from '../card/card-scope.js';
import { AskFirst } from '../parts/AskFirst.js';
import { ListSection } from '../parts/ListSection.js';
import { useChange } from '../parts/useChange.js';
import type { Loaded } from '../parts/useLoad.js';
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
  const { slug } = useCardScope();
  const change = useChange();
  const [shownAt] = useState(() => Date.now());
  return (
    <ListSection
      name="invites"
      heading="Open invitations"
      part
      loaded={invitations}
      words={{
        what: 'the open invitations',
        empty: 'No code is waiting to be accepted.',
        label: 'Open invitation codes',
      }}
      item={(invitation) => (
        <InvitationItem
          key={invitation.id}
          invitation={invitation}
          now={shownAt}
          busy={change.busy}
          onRevoke={() =>
            void change.run(async () => {
              await revokeInvitation(supabase, invitation.id, slug);
              await invitations.reload();
              return `Revoked the code for ${aRole(invitation.role)}: it works no more.`;
            }, 'Not revoked')
          }
        />
      )}
      outcome={change.outcome}
    />
  );
}

/**
 * One open code: its role, who made it, until when it works, and Revoke, asked first.
 *
 * @param now the instant its expiry is named from, epoch ms
 */
function InvitationItem({
  invitation,
  now,
  busy,
  onRevoke,
}: {
  invitation: OpenInvitation;
  now: number;
  busy: boolean;
  onRevoke: () => void;
}) {
  const card = useCardScope();
  const what = `the code for ${aRole(invitation.role)}`;
  const maker = invitation.maker ?? 'a deleted account';
  return (
    <li data-testid={`invite-${invitation.id}`}>
      <p>
        A code for {aRole(invitation.role)}, made by {maker}
      </p>
      <p className="small muted">
        Works until {formatWhen(Date.parse(invitation.expires_at), now)}
      </p>
      <div className="member-actions">
        <AskFirst
          label="Revoke"
          name={`Revoke ${what} made by ${maker}`}
          busy={busy}
          question={() => ({
            heading: 'Revoke this invitation code?',
            confirm: 'Yes, revoke',
            text: `Whoever holds it can no longer join ${cardName(card)} with it. Make a new code to invite them again.`,
          })}
          onConfirm={onRevoke}
        />
      </div>
    </li>
  );
}
