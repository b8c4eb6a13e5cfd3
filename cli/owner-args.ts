// `namecard end`, `cancel <id>` and `profile list` run without commander when the stored access
// token is valid (cli/owner-light.ts). As for status (status-args.ts), this recogniser must
// never decide differently from commander: it takes only lines it is sure about (the command,
// its one argument, `--json` after the command, `--api-url` and `--timeout` at most once each)
// and leaves everything else (help, a repeated or unknown option, an extra argument, a value
// that looks like an option, `--`) to commander, which prints the same messages as always.

/** The options of the owner's light commands (global ones included), as typed. */
export interface OwnerLineOptions {
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/** A command line the light path runs. */
export type OwnerLine =
  | { command: 'end'; options: OwnerLineOptions }
  | { command: 'cancel'; id: string; options: OwnerLineOptions }
  | { command: 'profile list'; options: OwnerLineOptions };

/** The program's options that take a value, as `--name <value>` or `--name=<value>`. */
const VALUE_OPTIONS = { '--api-url': 'apiUrl', '--timeout': 'timeout' } as const;

/** The words of each command, and whether it takes one argument. */
const COMMANDS = {
  end: { words: ['end'], argument: false },
  cancel: { words: ['cancel'], argument: true },
  'profile list': { words: ['profile', 'list'], argument: false },
} as const;

/**
 * The light command `args` (the arguments after the program name) are, exactly; otherwise
 * undefined, and commander parses the line.
 */
export function ownerArgs(args: readonly string[]): OwnerLine | undefined {
  const options: OwnerLineOptions = {};
  const words: string[] = [];
  let argument: string | undefined;
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
      if (!COMMANDS[command].argument || argument !== undefined) return undefined;
      argument = arg;
      continue;
    }
    // `--json` belongs to the command, so it is only valid after it.
    if (arg === '--json' && command !== undefined && options.json === undefined) {
      options.json = true;
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
  if (command === 'cancel')
    return argument === undefined ? undefined : { command, id: argument, options };
  return command === undefined ? undefined : { command, options };
}
