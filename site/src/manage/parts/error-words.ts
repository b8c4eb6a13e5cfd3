import { REFUSAL_WORDS } from '../../../../shared/core/describe.js';
import { NetworkError, isRefusal } from '../../../../shared/core/errors.js';
import { inPlainWords } from '../../../../shared/core/plain-words.js';
import { unreachableWords } from '../../unreachable.js';

// Every section's words for an error: what went wrong, in the user's words. Pure: nothing here
// imports the page's hooks or components.

/**
 * An error in the user's words, without the CLI's backticks (inPlainWords). A refusal by the
 * database (RLS, no grant) means this account may not do that on the card; the server's own
 * text is kept after it, in parentheses. A server that did not answer at all is named, with
 * what to do (unreachableWords), never the browser's "Failed to fetch".
 *
 * @param names the form's field names as the page labels them: shown as they are, where other
 *   quoted parts (values) go in quotation marks
 */
export function errorMessage(error: unknown, names: readonly string[] = []): string {
  if (isRefusal(error, 'not_owner')) {
    return `${REFUSAL_WORDS.not_owner} (${error.message})`;
  }
  if (error instanceof NetworkError) return unreachableWords(error.url);
  return inPlainWords(error instanceof Error ? error.message : String(error), names);
}
