import {
  argumentShape,
  COMMANDS,
  GLOBAL_OPTIONS,
  optionShape,
  type AnyLine,
  type CommandSpec,
  type Line,
  type OptionSpec,
} from './table.js';

// The entry point reads the command line with the grammar table alone, without commander
// (about 13 ms of loading, measured by `npm run bench`), so that the light paths and the
// program's commands start from one reading. It reads exactly as commander's program (built
// from the same table) reads, or not at all: whatever it is not sure about (help, `-h`, a short
// option, `--`, an unknown or repeated option, a value that looks like an option, a missing
// or extra argument, an unknown command) is left to commander, which prints its usual messages.
// tests/unit/grammar.test.ts holds the two to the same reading of every line the tests run.

/** An option as the reader needs it: where its value goes and how it is given. */
interface KnownOption {
  key: string;
  takesValue: boolean;
  repeatable: boolean;
}

const known = (specs: readonly OptionSpec[]): ReadonlyMap<string, KnownOption> =>
  new Map(
    specs.map((spec) => {
      const { long, key, takesValue } = optionShape(spec.flags);
      return [long, { key, takesValue, repeatable: spec.repeatable === true }];
    }),
  );

/** The program's options: commander's program takes them anywhere on the line. */
const GLOBAL = known(GLOBAL_OPTIONS);

/** The command being read: its words so far, and once they name a runnable one, its entry. */
interface Reading {
  words: string[];
  /** The commands the next word may name (the program's, or a group's such as `profile`). */
  next: Readonly<Record<string, CommandSpec>>;
  leaf?: CommandSpec;
  own: ReadonlyMap<string, KnownOption>;
  positional: string[];
  options: AnyLine['options'];
}

/**
 * The command line `args` (the arguments after the program's name) as commander's program
 * reads it: the command's words, its arguments by name and its options (the program's too) by
 * key; undefined for any line commander is to read itself.
 *
 * @example readLine(['--timeout', '500', 'set', 'photo', '--for', '2h'])
 * // → { command: 'set', args: { profile: 'photo' }, options: { timeout: '500', for: '2h' } }
 */
export function readLine(args: readonly string[]): Line | undefined {
  const reading: Reading = {
    words: [],
    next: COMMANDS,
    own: new Map(),
    positional: [],
    options: {},
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('-')) {
      const taken = readOption(reading, arg, args[i + 1]);
      if (taken === undefined) return undefined;
      i += taken;
    } else if (!readWord(reading, arg)) {
      return undefined;
    }
  }
  return complete(reading);
}

/**
 * One option (`--name`, `--name value`, `--name=value`) into `reading`: the program's anywhere,
 * the command's own only after its name (before it, commander's program refuses it).
 *
 * @returns how many arguments after `arg` it took (0 or 1), or undefined to leave the line
 */
function readOption(reading: Reading, arg: string, following: string | undefined) {
  const equals = arg.indexOf('=');
  const long = equals === -1 ? arg : arg.slice(0, equals);
  const option = long.startsWith('--') ? (GLOBAL.get(long) ?? reading.own.get(long)) : undefined;
  if (option === undefined) return undefined;
  if (!option.takesValue) {
    if (equals !== -1 || reading.options[option.key] !== undefined) return undefined;
    reading.options[option.key] = true;
    return 0;
  }
  // A value given apart must not look like an option: commander's program would take it as one
  // of its own first (`--from --timeout 5`), whatever the command reads.
  const value = equals === -1 ? following : arg.slice(equals + 1);
  if (value === undefined || (equals === -1 && value.startsWith('-'))) return undefined;
  const before = reading.options[option.key];
  if (option.repeatable) {
    reading.options[option.key] = [...((before as string[] | undefined) ?? []), value];
  } else if (before === undefined) {
    reading.options[option.key] = value;
  } else {
    return undefined;
  }
  return equals === -1 ? 1 : 0;
}

/** A word: the next word of the command's name, or one of its arguments. False to leave the line. */
function readWord(reading: Reading, word: string): boolean {
  if (reading.leaf) {
    reading.positional.push(word);
    return reading.positional.length <= (reading.leaf.arguments?.length ?? 0);
  }
  if (!Object.hasOwn(reading.next, word)) return false;
  const spec = reading.next[word]!;
  reading.words.push(word);
  if (spec.commands) {
    reading.next = spec.commands;
  } else {
    reading.leaf = spec;
    reading.own = known(spec.options ?? []);
  }
  return true;
}

/** The line read, when it names a runnable command with every required argument and option. */
function complete(reading: Reading): Line | undefined {
  const { leaf, positional, options } = reading;
  if (!leaf) return undefined;
  const args: AnyLine['args'] = {};
  for (const [at, argument] of (leaf.arguments ?? []).entries()) {
    const { key, required } = argumentShape(argument.name);
    if (positional[at] !== undefined) args[key] = positional[at];
    else if (required) return undefined;
  }
  for (const option of leaf.options ?? []) {
    if (option.required && options[optionShape(option.flags).key] === undefined) return undefined;
  }
  const line: AnyLine = { command: reading.words.join(' '), args, options };
  return line as Line;
}
