import { useState } from 'react';
import { errorMessage } from './error-words.js';
import type { Outcome } from './Outcome.js';

/** One change at a time, and what the last one said. */
export interface Change<O extends Outcome> {
  /** True while a change is under way: the controls that start one are disabled. */
  busy: boolean;
  /** What the last change said, or null (nothing yet, or a new one under way). */
  outcome: O | null;
  /**
   * Makes a change: `work` answers its words when done (nothing when the page goes elsewhere);
   * a failure is said as `refused` says it: `<refused>: <the error in words>` for a string.
   */
  run(work: () => Promise<string | void>, refused: string | ((error: unknown) => O)): Promise<void>;
  /** Says something without a change (a field the form refused before anything was sent). */
  say(outcome: O | null): void;
}

/**
 * A section's changes (a revoke, a removal, a code made): one at a time, each outcome said in
 * words under the section's list or form (OutcomeLine), a refusal in the server's words.
 */
export function useChange<O extends Outcome = Outcome>(): Change<O> {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<O | null>(null);
  async function run(
    work: () => Promise<string | void>,
    refused: string | ((error: unknown) => O),
  ): Promise<void> {
    setBusy(true);
    setOutcome(null);
    try {
      const text = await work();
      if (text) setOutcome({ tone: 'ok', text } as O);
    } catch (error) {
      setOutcome(
        typeof refused === 'string'
          ? ({ tone: 'error', text: `${refused}: ${errorMessage(error)}` } as O)
          : refused(error),
      );
    } finally {
      setBusy(false);
    }
  }
  return { busy, outcome, run, say: setOutcome };
}
