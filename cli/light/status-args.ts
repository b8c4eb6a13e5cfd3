import type { StatusOptions } from './status-run.js';

// `namecard status` is the command people and scripts run most, so the entry point runs it
// without commander (about 13 ms of loading) when the command line is one this recogniser
// is sure about. It must never decide differently from commander: anything it does not
// know for certain (help, a repeated or unknown option, an extra argument, a value that
// looks like an option, `--`) is left to commander, which prints the same messages as always.

/** The program's options that take a value, as `--name <value>` or `--name=<value>`. */
const VALUE_OPTIONS = { '--api-url': 'apiUrl', '--timeout': 'timeout' } as const;

/**
 * The options of `namecard status …` when `args` (the arguments after the program name) are
 * exactly the status command with options it takes, each at most once; otherwise undefined,
 * and commander parses the line.
 */
export function statusArgs(args: readonly string[]): StatusOptions | undefined {
  const options: StatusOptions = {};
  let command = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === 'status' && !command) {
      command = true;
      continue;
    }
    // `--json` and `--tz` belong to the command, so they are only valid after it.
    if (arg === '--json' && command && options.json === undefined) {
      options.json = true;
      continue;
    }
    if ((arg === '--tz' || arg.startsWith('--tz=')) && command && options.tz === undefined) {
      const value = arg === '--tz' ? args[++i] : arg.slice('--tz='.length);
      if (value === undefined || value.startsWith('-')) return undefined;
      options.tz = value;
      continue;
    }
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    if (!Object.hasOwn(VALUE_OPTIONS, name)) return undefined;
    const key = VALUE_OPTIONS[name as keyof typeof VALUE_OPTIONS];
    const value = equals === -1 ? args[++i] : arg.slice(equals + 1);
    if (value === undefined || value.startsWith('-') || options[key] !== undefined) {
      return undefined;
    }
    options[key] = value;
  }
  return command ? options : undefined;
}
