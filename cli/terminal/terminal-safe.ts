import { isProfileType } from '../../shared/core/types.js';
import { PROFILE_NAME_FORM } from '../../shared/core/profiles.js';

// Strings from a server or a stored file are printed only once they cannot act on the
// terminal: no escape sequence (clear screen, OSC 0 title, OSC 52 clipboard, OSC 8 link), no
// C0 or C1 control character, no bidi override (U+202E) that would reorder what is shown.
//
// Why own code and not a package: strip-ansi / ansi-regex (and node:util's
// stripVTControlCharacters) remove well-formed ANSI sequences only, leaving lone C0/C1
// characters (U+009B is a CSI on many terminals) and the bidi controls; jsesc escapes every
// non-ASCII character ("Müller" → "M\xFCller") or, in its minimal mode, no control character
// at all. The rule here is the Unicode general categories themselves (Cc, Cf, Zl, Zp), as the
// JavaScript engine's own Unicode tables define them, so it stays current with Node.

/**
 * Control and format characters and line/paragraph separators (Unicode Cc, Cf, Zl, Zp),
 * except the zero-width joiner that emoji sequences use.
 */
const INVISIBLE = /(?!\u200d)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Text of printable ASCII characters only (space to `~`), none of which is invisible. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The same, in lines: line breaks as well. */
const PRINTABLE_ASCII_LINES = /^[\x20-\x7e\n]*$/;

/**
 * `text` with every invisible character (see {@link INVISIBLE}) shown as `\u{…}`.
 *
 * @param keep characters left as they are (e.g. `'\n\t'` for a message of several lines)
 */
export function escapeInvisible(text: string, keep = ''): string {
  // Printable ASCII holds no invisible character: such text (most lines) skips the Unicode
  // pattern, whose first use costs the engine its property tables.
  if (PRINTABLE_ASCII.test(text)) return text;
  return text.replace(INVISIBLE, (c) =>
    keep.includes(c) ? c : `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

/**
 * A value from a server or a stored file (an email, an id, a URL) as one line of text that
 * cannot act on the terminal: every control or format character, line breaks included, is
 * shown as `\u{…}`.
 *
 * @example terminalSafe('a\u001b[2Jb') // → 'a\\u{1b}[2Jb'
 */
export function terminalSafe(value: unknown): string {
  return escapeInvisible(String(value));
}

/** How many characters of an unknown profile type are shown. */
const SHOWN_TYPE_CHARACTERS = 40;

/**
 * An entry's `type` as text: a profile's name (`main`, `photo`, or one the owner added: the
 * database holds only names of PROFILE_NAME_FORM) as it is, anything else as "unknown profile
 * `…`", escaped and cut short, so that a server's value is never printed raw.
 */
export function showType(type: unknown): string {
  if (isProfileType(type) || (typeof type === 'string' && PROFILE_NAME_FORM.test(type)))
    return type;
  const chars = [...String(type)];
  const cut =
    chars.length > SHOWN_TYPE_CHARACTERS
      ? `${chars.slice(0, SHOWN_TYPE_CHARACTERS).join('')}…`
      : chars.join('');
  return `unknown profile \`${terminalSafe(cut)}\``;
}

/** The SGR sequences (colours, bold, dim) that picocolors writes, and nothing else. */
// eslint-disable-next-line no-control-regex -- matching ESC is the point
const SGR = /\u001b\[[0-9;]*m/y;

/**
 * A line of the CLI's own output made safe as a whole: every invisible character escaped as
 * in {@link terminalSafe} except tabs (and line breaks when `keepBreaks`), and (when
 * `keepColours`) the colour sequences the CLI itself adds. The last guard on stdout and
 * stderr: values from servers should also go through {@link terminalSafe} or
 * {@link showType} where they are put in.
 *
 * @param keepColours true when the stream is a colour terminal (colours are then the CLI's own)
 * @param keepBreaks true for a text of several lines (a message); false for one line, where a
 *   line break could only come from a value and would forge a line of its own
 */
export function safeLine(line: string, keepColours: boolean, keepBreaks = false): string {
  const keep = keepBreaks ? '\n\t' : '\t';
  let result = '';
  let last = 0;
  for (let i = 0; i < line.length; i++) {
    if (line.charCodeAt(i) !== 0x1b || !keepColours) continue;
    SGR.lastIndex = i;
    const match = SGR.exec(line);
    if (!match) continue;
    result += escapeInvisible(line.slice(last, i), keep) + match[0];
    last = i + match[0].length;
    i = last - 1;
  }
  return result + escapeInvisible(line.slice(last), keep);
}

/** `\uXXXX`, with a surrogate pair for a character beyond the BMP. */
const jsonEscape = (c: string) =>
  [...Array(c.length).keys()]
    .map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`)
    .join('');

/**
 * `value` as pretty JSON in which every invisible character is written as a `\uXXXX` escape:
 * the same JSON value (a parser reads exactly what the server sent), nothing that can act on
 * a terminal. JSON.stringify escapes C0 itself but writes DEL, C1 and format characters
 * (U+202E) as they are.
 */
export function safeJson(value: unknown): string {
  // Line breaks outside strings are the layout; inside strings JSON.stringify escaped them.
  const json = JSON.stringify(value, null, 2);
  if (PRINTABLE_ASCII_LINES.test(json)) return json;
  return json.replace(INVISIBLE, (c) => (c === '\n' ? c : jsonEscape(c)));
}
