import { useEffect, useRef, type ReactNode } from 'react';

interface ConfirmDialogProps {
  /** The question, e.g. `End now?`. */
  heading: string;
  /** What will change, in words (what visitors will get instead). */
  children: ReactNode;
  /** The button that goes ahead, e.g. `Yes, end it`. */
  confirm: string;
  /** Called once the user went ahead (the dialog has closed). */
  onConfirm: () => void;
  /** Called when the dialog closes without going ahead (No, Escape). */
  onDismiss: () => void;
}

/**
 * A question before a change that cannot be taken back, in the browser's own modal `<dialog>`:
 * it takes the focus (its first button, the one that changes nothing), keeps Tab inside,
 * closes with Escape, and gives the focus back when it closes.
 */
export function ConfirmDialog({
  heading,
  children,
  confirm,
  onConfirm,
  onDismiss,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const confirmed = useRef(false);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm"
      aria-labelledby="confirm-heading"
      aria-describedby="confirm-text"
      data-testid="confirm"
      onClose={() => (confirmed.current ? onConfirm() : onDismiss())}
    >
      <h2 id="confirm-heading">{heading}</h2>
      <div id="confirm-text">{children}</div>
      <div className="confirm-actions">
        <button type="button" className="button secondary" onClick={() => ref.current?.close()}>
          No, keep it
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            confirmed.current = true;
            ref.current?.close();
          }}
        >
          {confirm}
        </button>
      </div>
    </dialog>
  );
}
