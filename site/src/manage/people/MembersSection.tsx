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
import { ListSection } from '../parts/ListSection.js';
import { useChange } from '../parts/useChange.js';
import { useLoad } from '../parts/useLoad.js';
import { InviteForm } from './InviteForm.js';
import { InvitesList } from './InvitesList.js';
import { MemberItem, type MemberChange } from './MemberItem.js';
import { aRole } from './role-words.js';
import './people.css';

/**
 * The card's members (owners only, as the server allows): each with their role, a role to change
 * to and Remove; what each role may do; Invite; and the open invitation codes with Revoke. A
 * change the user makes to themselves (leaving, a lower role) opens the page again, since what
 * they may do on it changed.
 */
export function MembersSection() {
  const { slug } = useCardScope();
  const members = useLoad(() => listMembers(supabase, slug), [slug]);
  const invitations = useLoad(() => listInvitations(supabase, slug), [slug]);
  const change = useChange();

  /** Makes the change on the server; the words of what was done, none when the page goes. */
  async function make(member: CardMember, what: MemberChange): Promise<string | void> {
    if (what.kind === 'remove') {
      await removeMember(supabase, member.email, slug);
      // No longer a member of this card: the page opens again on the card the rule gives.
      if (member.you) return window.location.assign(window.location.pathname);
      await members.reload();
      return `Removed ${member.email}.`;
    }
    const done = await setMemberRole(supabase, member.email, what.role, slug);
    if (member.you) return window.location.reload();
    await members.reload();
    return `${done.email} is now ${aRole(done.role)}.`;
  }

  return (
    <ListSection
      name="members"
      heading="Members"
      loaded={members}
      words={{ what: 'the members' }}
      item={(member) => (
        <MemberItem
          key={member.email}
          member={member}
          busy={change.busy}
          onChange={(m, what) => void change.run(() => make(m, what), 'Not changed')}
        />
      )}
      outcome={change.outcome}
    >
      <ul className="muted small role-words" aria-label="What each role may do">
        {CARD_ROLES.map((role) => (
          <li key={role}>
            {role}: {ROLE_WORDS[role]}
          </li>
        ))}
      </ul>
      <InviteForm onMade={() => void invitations.reload()} />
      <InvitesList invitations={invitations} />
    </ListSection>
  );
}
