import { useCallback, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './later/parts.js';
import { QuestionContext, type Ask, type Question } from './parts/question.js';

/**
 * Holds the page's question before a change (`useAsk`): one at a time, in the browser's modal
 * dialog (ConfirmDialog, loaded after the first draw), which gives the focus back to the button
 * that asked when it closes; the change runs once the user said yes.
 */
export function QuestionHost({ children }: { children: ReactNode }) {
  const [asking, setAsking] = useState<{ question: Question; go: () => void } | null>(null);
  const ask = useCallback<Ask>((question, go) => setAsking({ question, go }), []);
  const { text } = asking?.question ?? {};
  return (
    <QuestionContext.Provider value={ask}>
      {children}
      {asking && (
        <ConfirmDialog
          heading={asking.question.heading}
          confirm={asking.question.confirm}
          onDismiss={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            asking.go();
          }}
        >
          {typeof text === 'string' ? <p>{text}</p> : text}
        </ConfirmDialog>
      )}
    </QuestionContext.Provider>
  );
}
