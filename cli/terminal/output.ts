import { createColors } from 'picocolors';
import { safeJson, safeLine } from './terminal-safe.js';

// Colour when the stream is a terminal, or when FORCE_COLOR asks for it in a pipe (as chalk and
// picocolors read it: set and not `0` or `false`); never while NO_COLOR is set and not empty
// (https://no-color.org).
const isSet = (name: string) => process.env[name] !== undefined && process.env[name] !== '';
const forced = () => isSet('FORCE_COLOR') && !/^(0|false)$/i.test(process.env.FORCE_COLOR!);
const colorOn = (stream: NodeJS.WriteStream) =>
  !isSet('NO_COLOR') && (Boolean(stream.isTTY) || forced());

/** True when what goes to stdout is coloured (a terminal, or FORCE_COLOR). */
export const stdoutColoured = (): boolean => colorOn(process.stdout);

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
