import { createColors } from 'picocolors';
import { safeJson, safeLine } from './terminal-safe.js';

// Colour only when the stream is a terminal and NO_COLOR is unset or empty (https://no-color.org).
const colorOn = (stream: NodeJS.WriteStream) =>
  Boolean(stream.isTTY) && !(process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '');

function colorsFor(stream: NodeJS.WriteStream) {
  return createColors(colorOn(stream));
}

/** Colours for what goes to stdout (results). */
export const out = colorsFor(process.stdout);

/** Colours for what goes to stderr (errors, warnings, prompts). */
export const err = colorsFor(process.stderr);

/**
 * Prints lines of human output on stdout, one argument a line. Whatever a line holds, no
 * escape sequence, line break or other control character reaches the terminal, except the
 * CLI's own colours ({@link safeLine}): a line break in a line is shown as `\u{a}`.
 */
export function print(...lines: string[]): void {
  const colours = colorOn(process.stdout);
  process.stdout.write(lines.map((line) => `${safeLine(line, colours)}\n`).join(''));
}

/**
 * Prints exactly one JSON document on stdout, the whole output of a `--json` run: the exact
 * values, with every control or format character written as a JSON escape ({@link safeJson}).
 */
export function printJson(value: unknown): void {
  process.stdout.write(`${safeJson(value)}\n`);
}

/** A warning on stderr: something went partly wrong but the command still did its job. */
export function warn(message: string): void {
  process.stderr.write(
    `${safeLine(`${err.yellow('warning:')} ${message}`, colorOn(process.stderr), true)}\n`,
  );
}
