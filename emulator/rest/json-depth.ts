/**
 * Deepest nesting of arrays and objects the emulator parses in a request body. Real
 * bodies nest two levels (an array of entry objects); PostgreSQL's own JSON parser gives up
 * far sooner than this emulator would (it fails with "stack depth limit exceeded" after some
 * thousands of levels), but V8's JSON.parse takes hundreds of milliseconds for a 1 MiB body
 * of nested brackets, all of it on the event loop that serves the visitors' lookups.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Whether `text`, read as JSON, nests arrays and objects deeper than `limit`. One pass over
 * the characters, skipping string contents (with their escapes), stopping at the first
 * level past the limit: about 10 ms per MiB, where parsing such a body takes 30 times
 * as long. Own code: JSON parsers offer no depth limit (V8's JSON.parse has none), and
 * the answer is needed before parsing.
 * @param text a request body, possibly not valid JSON (then the answer is meaningless
 * and JSON.parse reports the error)
 * @param limit deepest nesting allowed, ≥ 0
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
