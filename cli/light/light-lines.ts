import type { Line, LineOf } from '../grammar/table.js';

// Which lines, once read by the grammar (cli/grammar/read-line.ts), the entry point runs
// without the program: a plain `status` (cli/light/status-main.ts), and `end`, `cancel <id>`,
// `profile list` and a complete one-off `set` (cli/light/caller-light.ts, which still leaves a
// line to the program when its caller needs a sign-in or a refresh first). Each names the
// options it understands: a line with any other (`--allow-insecure-http`, `set --every`, an
// option a later round adds to every command) is the program's, which then runs it from the
// same reading.

/** A line the caller's light path runs. */
export type CallerLine = LineOf<'end'> | LineOf<'cancel'> | LineOf<'profile list'> | LineOf<'set'>;

/** The options each light command understands, by key. */
const LIGHT_OPTIONS: Readonly<Record<'status' | CallerLine['command'], readonly string[]>> = {
  status: ['json', 'tz', 'apiUrl', 'timeout', 'card'],
  end: ['json', 'apiUrl', 'timeout', 'card'],
  cancel: ['json', 'apiUrl', 'timeout', 'card'],
  'profile list': ['json', 'apiUrl', 'timeout', 'card'],
  set: ['json', 'apiUrl', 'timeout', 'card', 'from', 'for', 'tz'],
};

/** Whether the light path knows every option `line` gives. */
function understood(line: Line, command: keyof typeof LIGHT_OPTIONS): boolean {
  return Object.keys(line.options).every((key) => LIGHT_OPTIONS[command].includes(key));
}

/** `line` when it is a `status` the light path runs; else undefined. */
export function statusLine(line: Line | undefined): LineOf<'status'> | undefined {
  return line?.command === 'status' && understood(line, 'status') ? line : undefined;
}

/**
 * `line` when it is one the caller's light path runs; else undefined. `set` only when complete:
 * its profile, and the end's date and time or `--for` (never both); whatever is missing or extra
 * is the program's to ask for or refuse.
 */
export function callerLine(line: Line | undefined): CallerLine | undefined {
  if (line === undefined || !Object.hasOwn(LIGHT_OPTIONS, line.command)) return undefined;
  const command = line.command as keyof typeof LIGHT_OPTIONS;
  if (command === 'status' || !understood(line, command)) return undefined;
  const light = line as CallerLine;
  if (light.command !== 'set') return light;
  const { profile, date, time } = light.args;
  if (profile === undefined) return undefined;
  if (light.options.for !== undefined) return date === undefined ? light : undefined;
  return time === undefined ? undefined : light;
}
