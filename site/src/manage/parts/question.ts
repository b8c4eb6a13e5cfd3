import { createContext, useContext, type ReactNode } from 'react';

/** The question asked before a change: its heading, what it means, and the button that goes on. */
export interface Question {
  /** e.g. `Revoke the token github-actions?` */
  heading: string;
  /** e.g. `Yes, revoke` */
  confirm: string;
  /** What will change, in words: a sentence, or paragraphs of their own. */
  text: ReactNode;
}

/** Asks `question`; `go` runs once the user said yes. */
export type Ask = (question: Question, go: () => void) => void;

/**
 * The page's one question at a time (QuestionHost draws it): what every section asks through
 * before a change that cannot be taken back.
 */
export const QuestionContext = createContext<Ask | null>(null);

/**
 * Asks a question before a change (the page's QuestionHost shows it in the ConfirmDialog).
 *
 * @throws Error when called outside a QuestionHost
 */
export function useAsk(): Ask {
  const ask = useContext(QuestionContext);
  if (!ask) throw new Error('useAsk: no QuestionHost above');
  return ask;
}
