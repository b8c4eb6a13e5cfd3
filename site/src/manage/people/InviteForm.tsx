import { parseCardRole } from '../../../../shared/core/cards.js';
import { formatWhen } from '../../../../shared/core/format.js';
import type { Invitation } from '../../../../shared/core/members.js';
import { inviteMember } from '../../../../shared/supabase/members.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { ChoiceField } from '../parts/ChoiceField.js';
import { SecretForm } from '../parts/SecretForm.js';
import { aRole } from './role-words.js';

const DAY_SECONDS = 86_400;

/** The roles an invitation may give, the most asked for first. */
const ROLES = [
  { value: 'editor', label: 'Editor' },
  { value: 'viewer', label: 'Viewer' },
  { value: 'owner', label: 'Owner' },
];

/** How long a code works, in days, as offered (the server takes 60 s to 90 days). */
const VALID_FOR = [
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
];

/**
 * Invite someone: a role and how long the code works, then the one-time code (`nci_…`) shown
 * once, as `namecard member invite` shows it.
 *
 * @param onMade called once a code was made (the open codes are read again)
 */
export function InviteForm({ onMade }: { onMade: () => void }) {
  const { slug } = useCardScope();
  return (
    <SecretForm<Invitation>
      heading="Invite someone"
      submit="Make an invitation code"
      fields={<InviteFields />}
      make={(fields) =>
        inviteMember(supabase, parseCardRole(String(fields.get('role') ?? '')), {
          card: slug,
          validSeconds: Number(fields.get('valid') ?? 7) * DAY_SECONDS,
        })
      }
      refused="No code made"
      show={(invitation, at) => ({
        lead: `Code for ${aRole(invitation.role)}`,
        secret: invitation.code,
        note: `This code will not be shown again: copy it now and give it to the person you invite. It works once, until ${formatWhen(Date.parse(invitation.expires), at)}; they enter it under "Accept an invitation".`,
      })}
      what="code"
      testIds={{ block: 'invitation', secret: 'invitation-code' }}
      onMade={onMade}
    />
  );
}

/** The invitation's role and how long its code works (7 days unless chosen). */
function InviteFields() {
  return (
    <>
      <ChoiceField label="Invite as" name="role" choices={ROLES} chosen="editor" />
      <ChoiceField label="Code works for" name="valid" choices={VALID_FOR} chosen="7" />
    </>
  );
}
