// Values echoed back in messages stay readable and harmless: a 10 KB argument is cut short,
// control characters (an escape sequence, a line break, a right-to-left override) are shown
// as \u{…} instead of acting on the terminal, and credentials in a URL are hidden.

import { escapeInvisible } from './terminal-safe.js';

/** How many characters of a value a message shows. */
export const SHOWN_CHARACTERS = 40;

/** A word longer than this in any message is cut (e.g. commander's "unknown option '--…'"). */
const LONGEST_WORD = 80;

/**
 * A value as a message shows it: at most {@link SHOWN_CHARACTERS} characters, then `…` and
 * the full length; invisible characters escaped.
 *
 * @example displayValue('x'.repeat(10_000)) // → 'xxxx…xxxx… (10000 characters)' (40 x)
 */
export function displayValue(value: string): string {
  const chars = [...value];
  if (chars.length <= SHOWN_CHARACTERS) return escapeInvisible(value);
  return `${escapeInvisible(chars.slice(0, SHOWN_CHARACTERS).join(''))}… (${chars.length} characters)`;
}

/**
 * A whole message made safe to print: credentials in URLs hidden (`//user:pass@` →
 * `//***@`), invisible characters other than line breaks escaped, very long words cut.
 */
export function sanitizeMessage(message: string): string {
  const hidden = message.replace(/\/\/[^\s/@`'"]+@/g, '//***@');
  return escapeInvisible(hidden, '\n\t').replace(
    new RegExp(`\\S{${LONGEST_WORD + 1},}`, 'gu'),
    (word) => `${word.slice(0, LONGEST_WORD)}… (${word.length} characters)`,
  );
}

/**
 * A server's message (an ApiError's text) made safe as {@link sanitizeMessage} does, and kept
 * on one line: a line break in it is shown as `\u{a}`, so it cannot forge a line of its own.
 */
export function sanitizeServerMessage(message: string): string {
  return sanitizeMessage(message).replace(/\n/g, '\\u{a}');
}
