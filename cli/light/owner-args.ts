// `namecard end`, `cancel <id>`, `profile list` and a one-off `set` run without commander when
// the stored access token is valid (cli/light/owner-light.ts). As for status (status-args.ts), this
// recogniser must never decide differently from commander: it takes only lines it is sure about
// (the command, its arguments, `--json` and set's `--from`, `--for`, `--tz` after the command,
// `--api-url` and `--timeout` at most once each)
// and leaves everything else (help, a repeated or unknown option, an extra argument, a value
// that looks like an option, `--`) to commander, which prints the same messages as always.

/** The options of the owner's light commands (global ones included), as typed. */
export interface OwnerLineOptions {
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
  /** `set`'s: the start, `YYYY-MM-DD HH:MM`. */
  from?: string;
  /** `set`'s: a duration instead of the end's date and time. */
  for?: string;
  /** `set`'s: the zone of the date and time. */
  tz?: string;
}

/** A command line the light path runs. */
export type OwnerLine =
  | { command: 'end'; options: OwnerLineOptions }
  | { command: 'cancel'; id: string; options: OwnerLineOptions }
  | { command: 'profile list'; options: OwnerLineOptions }
  | {
      command: 'set';
      /** The profile, and the end's date and time unless `--for` is given. */
      args: { profile: string; date?: string; time?: string };
      options: OwnerLineOptions;
    };

/** The program's options that take a value, as `--name <value>` or `--name=<value>`. */
const VALUE_OPTIONS = { '--api-url': 'apiUrl', '--timeout': 'timeout' } as const;

/** `set`'s own options that take a value (after the command only). */
const SET_OPTIONS = { '--from': 'from', '--for': 'for', '--tz': 'tz' } as const;

/** The words of each command, and how many arguments it takes at most. */
const COMMANDS = {
  end: { words: ['end'], argument: 0 },
  cancel: { words: ['cancel'], argument: 1 },
  'profile list': { words: ['profile', 'list'], argument: 0 },
  set: { words: ['set'], argument: 3 },
} as const;

/**
 * The light command `args` (the arguments after the program name) are, exactly; otherwise
 * undefined, and commander parses the line.
 */
export function ownerArgs(args: readonly string[]): OwnerLine | undefined {
  const options: OwnerLineOptions = {};
  const words: string[] = [];
  const argument: string[] = [];
  let command: keyof typeof COMMANDS | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('-')) {
      if (command === undefined) {
        words.push(arg);
        const found = (Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]).find((name) =>
          COMMANDS[name].words.every((word, at) => words[at] === word),
        );
        const partial = (Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]).some((name) =>
          words.every((word, at) => COMMANDS[name].words[at] === word),
        );
        if (found && COMMANDS[found].words.length === words.length) command = found;
        else if (!partial) return undefined;
        continue;
      }
      if (argument.length >= COMMANDS[command].argument) return undefined;
      argument.push(arg);
      continue;
    }
    // `--json` belongs to the command, so it is only valid after it.
    if (arg === '--json' && command !== undefined && options.json === undefined) {
      options.json = true;
      continue;
    }
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    const own = command === 'set' && Object.hasOwn(SET_OPTIONS, name);
    if (!own && !Object.hasOwn(VALUE_OPTIONS, name)) return undefined;
    const key = own
      ? SET_OPTIONS[name as keyof typeof SET_OPTIONS]
      : VALUE_OPTIONS[name as keyof typeof VALUE_OPTIONS];
    const value = equals === -1 ? args[++i] : arg.slice(equals + 1);
    if (value === undefined || value.startsWith('-') || options[key] !== undefined) {
      return undefined;
    }
    options[key] = value;
  }
  if (command === 'cancel')
    return argument[0] === undefined ? undefined : { command, id: argument[0], options };
  if (command === 'set') {
    // Complete lines only: the profile, and the end's date and time or `--for` (never both).
    // Whatever is missing or extra is the program's to ask for or refuse.
    const [profile, date, time] = argument;
    if (profile === undefined) return undefined;
    if (options.for !== undefined) {
      return argument.length === 1 ? { command, args: { profile }, options } : undefined;
    }
    return time === undefined ? undefined : { command, args: { profile, date, time }, options };
  }
  return command === undefined ? undefined : { command, options };
}
