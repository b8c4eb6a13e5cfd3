import { useState, type FormEvent } from 'react';
import type { CardSummary } from '../../../../shared/core/cards.js';
import { acceptInvitation } from '../../../../shared/supabase/members.js';
import { supabase } from '../../supabase.js';
import { cardName, manageUrlOf } from '../card/card-choice.js';
import { OutcomeLine } from '../parts/Outcome.js';
import { useChange } from '../parts/useChange.js';
import { aRole } from './role-words.js';

/**
 * "Accept an invitation", for everyone signed in: a code an owner gave (`nci_…`, as `namecard
 * member accept` takes it) makes the user a member of its card with its role; the code is then
 * used up. The server's refusal (a code unknown, used, expired or of a removed card, alike) is
 * shown as it says it, and a card joined is offered as a link to its page.
 */
export function AcceptInvitation() {
  const [joined, setJoined] = useState<CardSummary | null>(null);
  const change = useChange();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const code = String(new FormData(form).get('code') ?? '').trim();
    setJoined(null);
    void change.run(async () => {
      const card = await acceptInvitation(supabase, code);
      form.reset();
      setJoined(card);
      return `Accepted: you are now ${aRole(card.role)} of ${cardName(card)} (${card.slug}).`;
    }, 'Not accepted');
  }

  return (
    <section className="card accept" aria-labelledby="accept-heading" data-testid="accept">
      <h2 id="accept-heading">Accept an invitation</h2>
      <p className="muted small">
        An owner of a card gave you a code? It makes you a member of that card, once.
      </p>
      <form className="card-form" onSubmit={submit}>
        <label>
          Invitation code
          <input name="code" required autoComplete="off" spellCheck={false} placeholder="nci_…" />
        </label>
        <button type="submit" className="button" disabled={change.busy}>
          Accept
        </button>
      </form>
      <OutcomeLine outcome={change.outcome}>
        {joined && (
          <a href={manageUrlOf(joined.slug, window.location.href)}>Open {cardName(joined)}</a>
        )}
      </OutcomeLine>
    </section>
  );
}
