import { useState, type FormEvent } from 'react';
import { formatWhen } from '../../../../shared/core/format.js';
import { TOKEN_NAME_FORM, isTokenRole, type CreatedToken } from '../../../../shared/core/tokens.js';
import { createToken } from '../../../../shared/supabase/tokens.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { errorMessage } from '../parts/error-words.js';
import { OutcomeLine, type Outcome } from '../parts/Outcome.js';
import { aRole } from '../people/role-words.js';

const DAY_SECONDS = 86_400;

/** How long a token works, as offered (as `token create --expires`: 90 days by default). */
const VALID_FOR = [
  { value: '30', label: '30 days', seconds: 30 * DAY_SECONDS },
  { value: '90', label: '90 days', seconds: 90 * DAY_SECONDS },
  { value: 'never', label: 'Never expires', seconds: null },
] as const;

/**
 * Create a token: a name, a role (editor or viewer) and how long it works, then its secret
 * (`nct_…`) shown once, with a copy button and the sentence that it will not be shown again
 * (the server keeps only its hash), as `namecard token create` shows it.
 *
 * @param onMade called once the server made one (the section reads its list again)
 */
export function TokenForm({ onMade }: { onMade: () => void }) {
  const scope = useCardScope();
  const [made, setMade] = useState<CreatedToken | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const name = String(fields.get('name') ?? '').trim();
    const role = String(fields.get('role') ?? '');
    const valid = VALID_FOR.find((v) => v.value === fields.get('valid')) ?? VALID_FOR[1];
    setMade(null);
    setOutcome(null);
    if (!TOKEN_NAME_FORM.test(name) || !isTokenRole(role)) {
      setOutcome({
        tone: 'error',
        text: 'Name: 1 to 40 of A-Z, a-z, 0-9, ., _ and -, starting with a letter or digit (e.g. github-actions).',
      });
      return;
    }
    setBusy(true);
    try {
      const card = scope.slug;
      setMade(await createToken(supabase, name, { role, card, validSeconds: valid.seconds }));
      form.reset();
      onMade();
    } catch (error) {
      setOutcome({ tone: 'error', text: `No token made: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="invite">
      <h3>Create a token</h3>
      <form className="card-form" noValidate onSubmit={(event) => void submit(event)}>
        <label>
          Token name
          <input name="name" autoComplete="off" spellCheck={false} placeholder="github-actions" />
        </label>
        <label>
          Token role
          <select name="role" defaultValue="editor">
            <option value="editor">Editor</option>
            <option value="viewer">Viewer</option>
          </select>
        </label>
        <label>
          Token works for
          <select name="valid" defaultValue="90">
            {VALID_FOR.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button" disabled={busy}>
          Create token
        </button>
      </form>
      {made && <MadeToken token={made} />}
      <OutcomeLine outcome={outcome} />
    </div>
  );
}

/** The token just made, once: with Copy, its role and until when it works. */
function MadeToken({ token }: { token: CreatedToken }) {
  const [copied, setCopied] = useState('');
  const [shownAt] = useState(() => Date.now());
  const expires = token.expires === null ? 'never' : formatWhen(Date.parse(token.expires), shownAt);
  async function copy() {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied('Copied');
    } catch {
      setCopied('Could not copy: select the token and copy it');
    }
  }
  return (
    <div className="made-code" data-testid="made-token">
      <p>
        Token {token.name}, {aRole(token.role)}, expires {expires}:{' '}
        <code data-testid="token-secret">{token.token}</code>
      </p>
      <p className="small">
        This token will not be shown again: copy it now and store it as a secret (e.g. a repository
        secret <code>NAMECARD_TOKEN</code>).
      </p>
      <div className="link-actions">
        <button type="button" className="button secondary" onClick={() => void copy()}>
          Copy token
        </button>
        <span className="small muted" aria-live="polite">
          {copied}
        </span>
      </div>
    </div>
  );
}
