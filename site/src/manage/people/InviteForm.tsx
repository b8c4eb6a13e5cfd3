import { useState, type FormEvent } from 'react';
import { isCardRole } from '../../../../shared/core/cards.js';
import type { Invitation } from '../../../../shared/core/members.js';
import { formatWhen } from '../../../../shared/core/format.js';
import { inviteMember } from '../../../../shared/supabase/members.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { errorMessage } from '../parts/error-words.js';
import { OutcomeLine, type Outcome } from '../parts/Outcome.js';
import { aRole } from './role-words.js';

const DAY_SECONDS = 86_400;

/** How long a code works, as offered (the server takes 60 s to 90 days; 7 days by default). */
const VALID_FOR = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
] as const;

/**
 * Invite someone: a role and how long the code works, then the one-time code (`nci_…`) shown
 * once, with a copy button and the sentence that it will not be shown again (the server keeps
 * only its hash), as `namecard member invite` shows it.
 *
 * @param onMade called once a code was made (the open codes are read again)
 */
export function InviteForm({ onMade }: { onMade: () => void }) {
  const scope = useCardScope();
  const [made, setMade] = useState<Invitation | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const role = String(fields.get('role') ?? '');
    const days = Number(fields.get('valid') ?? 7);
    if (!isCardRole(role)) return;
    setBusy(true);
    setMade(null);
    setOutcome(null);
    try {
      const card = scope.slug;
      setMade(await inviteMember(supabase, role, { card, validSeconds: days * DAY_SECONDS }));
      onMade();
    } catch (error) {
      setOutcome({ tone: 'error', text: `No code made: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="invite">
      <h3>Invite someone</h3>
      <form className="card-form" onSubmit={(event) => void submit(event)}>
        <label>
          Invite as
          <select name="role" defaultValue="editor">
            <option value="editor">Editor</option>
            <option value="viewer">Viewer</option>
            <option value="owner">Owner</option>
          </select>
        </label>
        <label>
          Code works for
          <select name="valid" defaultValue="7">
            {VALID_FOR.map(({ days, label }) => (
              <option key={days} value={days}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button" disabled={busy}>
          Make an invitation code
        </button>
      </form>
      {made && <MadeCode invitation={made} />}
      <OutcomeLine outcome={outcome} />
    </div>
  );
}

/** The code just made, once: with Copy, and what it does and until when. */
function MadeCode({ invitation }: { invitation: Invitation }) {
  const [copied, setCopied] = useState('');
  // Days are named from when the code was shown ("Tue 3 Dec 10:00", "tomorrow 10:00").
  const [shownAt] = useState(() => Date.now());
  const expires = formatWhen(Date.parse(invitation.expires), shownAt);
  async function copy() {
    try {
      await navigator.clipboard.writeText(invitation.code);
      setCopied('Copied');
    } catch {
      setCopied('Could not copy: select the code and copy it');
    }
  }
  return (
    <div className="made-code" data-testid="invitation">
      <p>
        Code for {aRole(invitation.role)}:{' '}
        <code data-testid="invitation-code">{invitation.code}</code>
      </p>
      <p className="small">
        This code will not be shown again: copy it now and give it to the person you invite. It
        works once, until {expires}; they enter it under &quot;Accept an invitation&quot;.
      </p>
      <div className="link-actions">
        <button type="button" className="button secondary" onClick={() => void copy()}>
          Copy code
        </button>
        <span className="small muted" aria-live="polite">
          {copied}
        </span>
      </div>
    </div>
  );
}
