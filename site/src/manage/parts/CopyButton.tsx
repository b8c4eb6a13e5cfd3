import { useState } from 'react';

/**
 * A button that puts `text` on the clipboard, and says beside it whether that worked: `Copied`,
 * or how to copy it by hand.
 *
 * @param what what is copied, as the button and the failure name it (`link`: "Copy link")
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [said, setSaid] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid(`Could not copy: select the ${what} and copy it`);
    }
  }
  return (
    <div className="link-actions">
      <button type="button" className="button secondary" onClick={() => void copy()}>
        Copy {what}
      </button>
      <span className="small muted" aria-live="polite">
        {said}
      </span>
    </div>
  );
}
