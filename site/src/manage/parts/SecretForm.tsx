import { useState, type FormEvent, type ReactNode } from 'react';
import { CopyButton } from './CopyButton.js';
import { OutcomeLine } from './Outcome.js';
import { useChange } from './useChange.js';

/** A secret the server made, as the page shows it once. */
export interface ShownSecret {
  /** The line before the secret: `Code for an editor`. */
  lead: ReactNode;
  /** The secret itself (`nci_…`, `nct_…`). */
  secret: string;
  /** What to do with it, and that it will not be shown again. */
  note: ReactNode;
}

interface SecretFormProps<S> {
  /** The form's heading: `Invite someone`. */
  heading: string;
  /** The submit button's words: `Make an invitation code`. */
  submit: string;
  /** The form's fields. */
  fields: ReactNode;
  /** A field the form refuses before anything is sent, in words; null when all are right. */
  check?: (fields: FormData) => string | null;
  /** Asks the server to make it, from the form's fields. */
  make: (fields: FormData) => Promise<S>;
  /** What a refusal starts with: `No code made`. */
  refused: string;
  /** How the secret made is shown; `at` is when it was made (epoch ms), for its expiry's words. */
  show: (made: S, at: number) => ShownSecret;
  /** What is copied and named on the Copy button: `code` ("Copy code"). */
  what: string;
  /** The `data-testid`s of the shown secret's block and of the secret. */
  testIds: { block: string; secret: string };
  /** Empty the fields once it is made (a name that must be new each time). */
  reset?: boolean;
  /** Called once the server made one (the section reads its list again). */
  onMade: () => void;
}

/**
 * A form that has the server make a secret (an invitation code, a card token) and shows it once,
 * with Copy and the sentence that it will not be shown again (the server keeps only its hash);
 * a field it refuses, or the server's refusal, is said under it.
 */
export function SecretForm<S>(props: SecretFormProps<S>) {
  const { heading, submit, fields, check, make, refused, show, reset, onMade } = props;
  const [made, setMade] = useState<{ secret: S; at: number } | null>(null);
  const change = useChange();

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = new FormData(form);
    setMade(null);
    const problem = check?.(values) ?? null;
    if (problem) return change.say({ tone: 'error', text: problem });
    void change.run(async () => {
      setMade({ secret: await make(values), at: Date.now() });
      if (reset) form.reset();
      onMade();
    }, refused);
  }

  return (
    <div className="invite">
      <h3>{heading}</h3>
      <form className="card-form" noValidate onSubmit={send}>
        {fields}
        <button type="submit" className="button" disabled={change.busy}>
          {submit}
        </button>
      </form>
      {made && (
        <OneTimeSecret {...show(made.secret, made.at)} what={props.what} testIds={props.testIds} />
      )}
      <OutcomeLine outcome={change.outcome} />
    </div>
  );
}

/** The secret just made, once: what it is, the secret, what to do with it, and Copy. */
function OneTimeSecret({
  lead,
  secret,
  note,
  what,
  testIds,
}: ShownSecret & Pick<SecretFormProps<unknown>, 'what' | 'testIds'>) {
  return (
    <div className="made-code" data-testid={testIds.block}>
      <p>
        {lead}: <code data-testid={testIds.secret}>{secret}</code>
      </p>
      <p className="small">{note}</p>
      <CopyButton text={secret} what={what} />
    </div>
  );
}
