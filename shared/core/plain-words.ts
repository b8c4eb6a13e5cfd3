// Messages for the web page. The namecard module writes its messages for the terminal, where
// names and values stand in markdown backticks (`Date` and `Time` must be in the future, got
// `2020-01-01 10:00`), as CLIs commonly quote what the user typed. A web page shows them as
// text, where backticks are noise: this turns them into plain words with the same meaning.

/**
 * A message in plain words: each backticked part that is one of `names` (the fields as the page
 * labels them) becomes that name alone, and any other backticked part (a value the user gave,
 * a setting) is put in quotation marks. Text outside backticks is unchanged, and so is a lone
 * backtick.
 *
 * @param message a message of the namecard module, e.g. planEntry's InputError
 * @param names the field names as the page shows them, e.g. `['Date', 'Time', 'Start']`
 * @returns the message without backticks, e.g. `Date and Time must be in the future, got
 *   "2020-01-01 10:00" in UTC`
 * @example inPlainWords('`Profile` must be main or photo, got `foto`', ['Profile'])
 * // → 'Profile must be main or photo, got "foto"'
 */
export function inPlainWords(message: string, names: readonly string[] = []): string {
  return message.replace(/`([^`]*)`/g, (_quoted, text: string) =>
    names.includes(text) ? text : `"${text}"`,
  );
}
