import type { ReactNode } from 'react';

/** What a change said: done, or why the server (or the form) refused it. */
export interface Outcome {
  tone: 'ok' | 'error';
  text: string;
}

/**
 * A change's outcome under its form or list: done as a polite status, a refusal as an alert
 * (only then, so that a page with nothing refused holds no alert).
 *
 * @param children more to show beside a done change (a link to the card joined)
 * @param testId the status line's `data-testid`, for a line a test reads by itself
 */
export function OutcomeLine({
  outcome,
  children,
  testId,
}: {
  outcome: Outcome | null;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <>
      {/* Empty (so not shown, .status:empty) until there is something to say. */}
      <p role="status" className="status ok" data-testid={testId}>
        {outcome?.tone === 'ok' && (
          <>
            {outcome.text} {children}
          </>
        )}
      </p>
      {outcome?.tone === 'error' && (
        <p role="alert" className="status error">
          {outcome.text}
        </p>
      )}
    </>
  );
}
