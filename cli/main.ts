import type { Command } from 'commander';
import { handleError, UsageError } from './errors.js';
import { addCommand, programOf, runLine } from './grammar/commander.js';
import type { COMMANDS as GRAMMAR, Line } from './grammar/table.js';
import { readVersion } from './version.js';

// The program: commander's commands, built from the grammar table (cli/grammar/table.ts), and
// every error turned into a message and an exit code, in one place. Commands load their heavy
// modules (supabase-js, conf, prompts, Temporal) when they run, so `--help` and `--version`
// start as fast as Node does.

// The commands' modules, one for each of the table's commands (the type says so). When the
// line names one of them, only that module loads (`namecard status` need not load what `set`
// and `login` import: about 40 ms, measured by `npm run bench`); anything else (`--help`, an
// unknown command, a global option first) loads them all, so help and commander's suggestions
// stay complete.
const COMMANDS: Record<keyof typeof GRAMMAR, () => Promise<Command>> = {
  login: async () => (await import('./commands/login.js')).loginCommand,
  set: async () => (await import('./commands/set.js')).setCommand,
  profile: async () => (await import('./commands/profile.js')).profileCommand,
  end: async () => (await import('./commands/end.js')).endCommand,
  cancel: async () => (await import('./commands/cancel.js')).cancelCommand,
  status: async () => {
    const { setSignedInStatus, statusCommand } = await import('./commands/status.js');
    // A status whose caller the light path cannot make (CI credentials, a session to refresh
    // first) needs the program's sign-in: loaded only then.
    setSignedInStatus(async (options) =>
      (await import('./commands/status-signed-in.js')).runSignedInStatus(options),
    );
    return statusCommand;
  },
  list: async () => (await import('./commands/list.js')).listCommand,
  preview: async () => (await import('./commands/preview.js')).previewCommand,
  calendar: async () => (await import('./commands/calendar.js')).calendarCommand,
  link: async () => (await import('./commands/link.js')).linkCommand,
  qr: async () => (await import('./commands/qr.js')).qrCommand,
  stats: async () => (await import('./commands/stats.js')).statsCommand,
  card: async () => (await import('./commands/card.js')).cardCommand,
  member: async () => (await import('./commands/member.js')).memberCommand,
  token: async () => (await import('./commands/token.js')).tokenCommand,
  logout: async () => (await import('./commands/logout.js')).logoutCommand,
  whoami: async () => (await import('./commands/whoami.js')).whoamiCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
};

/**
 * Runs the command line `args` (the arguments after the program's name). A `line` the entry
 * point already read by the grammar (cli/grammar/read-line.ts) runs its command's action
 * directly; any other line is read by commander, which also prints help, usage errors and its
 * suggestions. Sets `process.exitCode`; never exits the process.
 */
export async function runProgram(args: readonly string[], line?: Line): Promise<void> {
  if (line) {
    try {
      const top = line.command.split(' ')[0] as keyof typeof COMMANDS;
      await runLine(await COMMANDS[top](), line);
    } catch (error) {
      process.exitCode = handleError(error);
    }
    return;
  }
  const first = args[0];
  if (first === undefined) {
    // `namecard` alone: a usage error like any missing argument, with the short help (the
    // commands by name) instead of the whole of `--help`.
    const shortHelp = [
      'Usage: namecard [options] [command] (more: namecard --help)',
      `Commands: ${Object.keys(COMMANDS).join(', ')}`,
    ].join('\n');
    process.exitCode = handleError(new UsageError('missing command', shortHelp));
    return;
  }
  // commander's own usage errors ("too many arguments", an unknown option) are printed by
  // handleError in the project's style, with the usage of the command that refused the line:
  // commander only records here which command that was.
  let refusedBy: Command | undefined;
  const recordRefusal = (command: Command) =>
    command.configureOutput({ outputError: () => (refusedBy = command) });
  const program = programOf(readVersion());
  recordRefusal(program);
  const names = Object.hasOwn(COMMANDS, first)
    ? [first as keyof typeof COMMANDS]
    : (Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]);
  for (const command of await Promise.all(names.map((name) => COMMANDS[name]()))) {
    addCommand(program, command, recordRefusal);
  }
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    process.exitCode = handleError(error, refusedBy && usageHint(refusedBy));
  }
}

/** `Usage: namecard set [options] [profile] [date] [time] (more: namecard set --help)` */
function usageHint(command: Command): string {
  const usage = command.createHelp().commandUsage(command);
  const path = usage.slice(0, usage.length - command.usage().length - 1);
  return `Usage: ${usage} (more: ${path} --help)`;
}
