import { Command, Option } from 'commander';
import {
  argumentShape,
  COMMANDS,
  GLOBAL_OPTIONS,
  PROGRAM,
  type AnyLine,
  type CommandPath,
  type CommandSpec,
  type LineOf,
  type OptionSpec,
} from './table.js';

// commander's program and commands, built from the grammar table (cli/grammar/table.ts): the
// same arguments, options and help the entry point's recogniser reads. Each command's action
// receives the line as the recogniser gives it (`LineOf<'set'>`: its words, arguments by name,
// options by key), so the program runs a line the entry point already read without commander
// reading it again ({@link runLine}).

/** What a command does with its line. */
export type Action<P extends CommandPath> = (line: LineOf<P>) => unknown;

type GroupName = {
  [N in keyof typeof COMMANDS]: (typeof COMMANDS)[N] extends { commands: object } ? N : never;
}[keyof typeof COMMANDS];

/** A command's action, or a group's (`profile`) actions by subcommand. */
export type ActionsOf<N extends keyof typeof COMMANDS> = N extends GroupName
  ? {
      [S in keyof (typeof COMMANDS)[N]['commands'] & string]: Action<`${N} ${S}` & CommandPath>;
    }
  : Action<N & CommandPath>;

/** Each runnable command's action, for {@link runLine}. */
const ACTIONS = new WeakMap<Command, (line: AnyLine) => unknown>();

/** An option of the table as commander's. */
function optionOf(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.help);
  if (spec.required) option.makeOptionMandatory();
  if (spec.repeatable) {
    option.argParser((value: string, previous: string[] = []) => [...previous, value]);
  }
  return option;
}

/** A runnable command: its arguments, options, help, and its action given the line. */
function leafCommand(path: string, spec: CommandSpec, action: (line: AnyLine) => unknown): Command {
  const command = new Command(path.split(' ').at(-1)).description(spec.help);
  for (const argument of spec.arguments ?? []) command.argument(argument.name, argument.help);
  for (const option of spec.options ?? []) command.addOption(optionOf(option));
  if (spec.after) command.addHelpText('after', spec.after);
  const keys = (spec.arguments ?? []).map((argument) => argumentShape(argument.name).key);
  command.action(async (...params: unknown[]) => {
    const self = params.at(-1) as Command;
    const args = Object.fromEntries(keys.map((key, at) => [key, params[at] as string]));
    await action({ command: path, args, options: self.optsWithGlobals() });
  });
  ACTIONS.set(command, action);
  return command;
}

/**
 * The command `name` of the table, with its action (a group, `profile`: each subcommand's).
 *
 * @example commandOf('end', (line) => runEnd(line.options))
 */
export function commandOf<N extends keyof typeof COMMANDS>(
  name: N,
  actions: ActionsOf<N>,
): Command {
  const spec: CommandSpec = COMMANDS[name];
  if (!spec.commands) return leafCommand(name, spec, actions as (line: AnyLine) => unknown);
  const group = new Command(name).description(spec.help);
  const byName = actions as unknown as Record<string, (line: AnyLine) => unknown>;
  for (const [sub, subSpec] of Object.entries(spec.commands)) {
    group.addCommand(leafCommand(`${name} ${sub}`, subSpec, byName[sub]!));
  }
  return group;
}

/**
 * The program: its name, help, `--version`, `--help` and the table's global options. Its
 * commands are added by the caller ({@link addCommand}).
 *
 * @param version what `--version` prints
 */
export function programOf(version: string): Command {
  const program = new Command(PROGRAM.name)
    .description(PROGRAM.help)
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help');
  for (const option of GLOBAL_OPTIONS) program.addOption(optionOf(option));
  return program
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', PROGRAM.after)
    .exitOverride();
}

/**
 * Adds `command` to `parent` with the parent's settings (help option, output, exit override),
 * and so its subcommands, as commander's own `.command()` would.
 *
 * @param configure applied to each command added (e.g. where usage errors are recorded)
 */
export function addCommand(
  parent: Command,
  command: Command,
  configure: (command: Command) => void = () => undefined,
): void {
  parent.addCommand(command.copyInheritedSettings(parent));
  configure(command);
  for (const sub of command.commands) {
    sub.copyInheritedSettings(command);
    configure(sub);
  }
}

/**
 * Runs the line the entry point read (cli/grammar/read-line.ts) with its command's action,
 * without commander reading it again.
 *
 * @param top the command `line` starts with, as {@link commandOf} built it
 */
export async function runLine(top: Command, line: AnyLine): Promise<void> {
  let command: Command | undefined = top;
  for (const word of line.command.split(' ').slice(1)) {
    command = command?.commands.find((sub) => sub.name() === word);
  }
  const action = command && ACTIONS.get(command);
  if (!action) throw new Error(`no action for \`${line.command}\``);
  await action(line);
}
