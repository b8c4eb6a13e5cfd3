import { createColors } from 'picocolors';

// Colour only when the stream is a terminal and NO_COLOR is unset or empty (https://no-color.org).
function colorsFor(stream: NodeJS.WriteStream) {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
  return createColors(Boolean(stream.isTTY) && !noColor);
}

/** Colours for what goes to stdout (results). */
export const out = colorsFor(process.stdout);

/** Colours for what goes to stderr (errors, warnings, prompts). */
export const err = colorsFor(process.stderr);

/** Prints lines of human output on stdout. */
export function print(...lines: string[]): void {
  process.stdout.write(lines.map((line) => `${line}\n`).join(''));
}

/** Prints exactly one JSON document on stdout, the whole output of a `--json` run. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A warning on stderr: something went partly wrong but the command still did its job. */
export function warn(message: string): void {
  process.stderr.write(`${err.yellow('warning:')} ${message}\n`);
}
