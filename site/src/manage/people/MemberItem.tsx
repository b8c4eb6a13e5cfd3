import type { FormEvent } from 'react';
import { CARD_ROLES, isCardRole, type CardRole } from '../../../../shared/core/cards.js';
import type { CardMember } from '../../../../shared/core/members.js';
import { cardName, useCardScope } from '../card/card-scope.js';
import { AskFirst } from '../parts/AskFirst.js';
import { useAsk, type Question } from '../parts/question.js';
import { aRole } from './role-words.js';

/** A change to one member: removing them, or giving them another role. */
export type MemberChange = { kind: 'remove' } | { kind: 'role'; role: CardRole };

/**
 * One member: e-mail, role (marked when it is the user), a role to change to and Remove. What
 * cannot be undone by the one who does it asks first: removing anyone (only a new invitation
 * brings them back), and an owner giving themselves a lower role.
 *
 * @param onChange makes the change on the server (the section says the outcome)
 */
export function MemberItem({
  member,
  busy,
  onChange,
}: {
  member: CardMember;
  busy: boolean;
  onChange: (member: CardMember, change: MemberChange) => void;
}) {
  const name = cardName(useCardScope());
  const ask = useAsk();
  const { email, role, you } = member;

  function submitRole(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget).get('role') ?? '');
    if (!isCardRole(next) || next === role) return;
    const change: MemberChange = { kind: 'role', role: next };
    const go = () => onChange(member, change);
    if (you && next !== 'owner') ask(lowerRoleQuestion(next, name), go);
    else go();
  }

  return (
    <li data-testid={`member-${email}`}>
      <p>
        <strong>{email}</strong>
        {you && <span className="muted"> (you)</span>} · {role}
      </p>
      <div className="member-actions">
        <form className="member-role" onSubmit={submitRole}>
          <select name="role" aria-label={`Role of ${email}`} defaultValue={role}>
            {CARD_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <button type="submit" className="button secondary small-button" disabled={busy}>
            Change role
          </button>
        </form>
        <AskFirst
          label={you ? 'Leave' : 'Remove'}
          name={you ? 'Leave this card' : `Remove ${email}`}
          busy={busy}
          question={() => removeQuestion(member, name)}
          onConfirm={() => onChange(member, { kind: 'remove' })}
        />
      </div>
    </li>
  );
}

/** The question before an owner gives themselves a lower role on the card `name`. */
function lowerRoleQuestion(role: CardRole, name: string): Question {
  return {
    heading: `Become ${aRole(role)} of ${name}?`,
    confirm: 'Yes, change my role',
    text: `You will no longer be an owner of ${name}: only another owner can make you one again.`,
  };
}

/** The question before a member is removed from the card `name`, or the user leaves it. */
function removeQuestion(member: CardMember, name: string): Question {
  if (member.you) {
    return {
      heading: `Leave ${name}?`,
      confirm: 'Yes, leave',
      text: `You will no longer see or change ${name}: only a new invitation brings you back.`,
    };
  }
  return {
    heading: `Remove ${member.email}?`,
    confirm: 'Yes, remove',
    text: `${member.email} will no longer see or change ${name}: only a new invitation brings them back.`,
  };
}
