/** One choice of a field: the value sent, and the words shown. */
export interface Choice {
  value: string;
  label: string;
}

/**
 * A labelled drop-down of a form: its label's words, the field's name, its choices and the one
 * chosen at first.
 */
export function ChoiceField({
  label,
  name,
  choices,
  chosen,
}: {
  label: string;
  name: string;
  choices: readonly Choice[];
  chosen: string;
}) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={chosen}>
        {choices.map(({ value, label: words }) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}
