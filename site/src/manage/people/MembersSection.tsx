import { useState } from 'react';
import { CARD_ROLES } from '../../../../shared/core/cards.js';
import { ROLE_WORDS, type CardMember } from '../../../../shared/core/members.js';
import {
  listInvitations,
  listMembers,
  removeMember,
  setMemberRole,
} from '../../../../shared/supabase/members.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { errorMessage } from '../parts/error-words.js';
import { useLoad } from '../parts/useLoad.js';
import { InviteForm } from './InviteForm.js';
import { InvitesList } from './InvitesList.js';
import { MemberItem, type MemberChange } from './MemberItem.js';
import { OutcomeLine, type Outcome } from '../parts/Outcome.js';
import { aRole } from './role-words.js';
import './people.css';

/**
 * The card's members (owners only, as the server allows): each with their role, a role to change
 * to and Remove; what each role may do; Invite; and the open invitation codes with Revoke. Loaded after the first draw. A change the
 * user makes to themselves (leaving, a lower role) opens the page again, since what they may do
 * on it changed.
 */
export function MembersSection() {
  const scope = useCardScope();
  const card = scope.slug;
  const members = useLoad(() => listMembers(supabase, card), [card]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const invitations = useLoad(() => listInvitations(supabase, card), [card]);

  async function change(member: CardMember, what: MemberChange) {
    setBusy(true);
    setOutcome(null);
    try {
      if (what.kind === 'remove') {
        await removeMember(supabase, member.email, card);
        if (member.you) {
          // Not a member any more: the page opens again on the user's first card.
          window.location.assign(window.location.pathname);
          return;
        }
        setOutcome({ tone: 'ok', text: `Removed ${member.email}.` });
      } else {
        const done = await setMemberRole(supabase, member.email, what.role, card);
        if (member.you) {
          window.location.reload();
          return;
        }
        setOutcome({ tone: 'ok', text: `${done.email} is now ${aRole(done.role)}.` });
      }
      await members.reload();
    } catch (error) {
      setOutcome({ tone: 'error', text: `Not changed: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card members" aria-labelledby="members-heading" data-testid="members">
      <h2 id="members-heading">Members</h2>
      {members.state === 'loading' && <p className="muted small">Reading the members…</p>}
      {members.state === 'error' && (
        <p className="status error" role="alert">
          Could not read the members: {members.error}
        </p>
      )}
      {members.state === 'ready' && (
        <ul className="member-list">
          {members.data.map((member) => (
            <MemberItem
              key={member.email}
              member={member}
              busy={busy}
              onChange={(m, what) => void change(m, what)}
            />
          ))}
        </ul>
      )}
      <OutcomeLine outcome={outcome} />
      <ul className="muted small role-words" aria-label="What each role may do">
        {CARD_ROLES.map((role) => (
          <li key={role}>
            {role}: {ROLE_WORDS[role]}
          </li>
        ))}
      </ul>
      <InviteForm onMade={() => void invitations.reload()} />
      <InvitesList invitations={invitations} />
    </section>
  );
}
