import { useState, type FormEvent } from 'react';
import { CARD_ROLES, isCardRole, type CardRole } from '../../../../shared/core/cards.js';
import type { CardMember } from '../../../../shared/core/members.js';
import { ConfirmDialog } from '../parts/ConfirmDialog.js';
import { useCardScope } from '../card/card-scope.js';
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
  const [asking, setAsking] = useState<MemberChange | null>(null);
  const { email, role, you } = member;

  function submitRole(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = String(new FormData(event.currentTarget).get('role') ?? '');
    if (!isCardRole(next) || next === role) return;
    const change: MemberChange = { kind: 'role', role: next };
    if (you && next !== 'owner') setAsking(change);
    else onChange(member, change);
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
        <button
          type="button"
          className="button secondary small-button"
          aria-label={you ? 'Leave this card' : `Remove ${email}`}
          disabled={busy}
          onClick={() => setAsking({ kind: 'remove' })}
        >
          {you ? 'Leave' : 'Remove'}
        </button>
      </div>
      {asking && (
        <MemberDialog
          member={member}
          change={asking}
          onDismiss={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            onChange(member, asking);
          }}
        />
      )}
    </li>
  );
}

/** The question before a change that the one who makes it cannot undo. */
function MemberDialog({
  member,
  change,
  onConfirm,
  onDismiss,
}: {
  member: CardMember;
  change: MemberChange;
  onConfirm: () => void;
  onDismiss: () => void;
}) {
  const card = useCardScope();
  const name = card.name || card.slug;
  let heading: string;
  let confirm: string;
  let text: string;
  if (change.kind === 'role') {
    heading = `Become ${aRole(change.role)} of ${name}?`;
    confirm = 'Yes, change my role';
    text = `You will no longer be an owner of ${name}: only another owner can make you one again.`;
  } else if (member.you) {
    heading = `Leave ${name}?`;
    confirm = 'Yes, leave';
    text = `You will no longer see or change ${name}: only a new invitation brings you back.`;
  } else {
    heading = `Remove ${member.email}?`;
    confirm = 'Yes, remove';
    text = `${member.email} will no longer see or change ${name}: only a new invitation brings them back.`;
  }
  return (
    <ConfirmDialog heading={heading} confirm={confirm} onConfirm={onConfirm} onDismiss={onDismiss}>
      <p>{text}</p>
    </ConfirmDialog>
  );
}
