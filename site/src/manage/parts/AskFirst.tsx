import { useAsk, type Question } from './question.js';

/**
 * A small button whose change is asked first (the question is made when it is pressed), then
 * made by `onConfirm`: a row's Revoke, Remove or Cancel.
 *
 * @param label the button's words; `name` its accessible name when the words alone are not enough
 */
export function AskFirst({
  label,
  name,
  busy,
  question,
  onConfirm,
}: {
  label: string;
  name?: string;
  busy: boolean;
  question: () => Question;
  onConfirm: () => void;
}) {
  const ask = useAsk();
  return (
    <button
      type="button"
      className="button secondary small-button"
      aria-label={name}
      disabled={busy}
      onClick={() => ask(question(), onConfirm)}
    >
      {label}
    </button>
  );
}
