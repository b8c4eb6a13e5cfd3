import { Command } from 'commander';
import { handleError, UsageError } from './errors.js';
import { readVersion } from './version.js';

// The program: registers the commands and turns every error into a message and an exit
// code, in one place. Commands load their heavy modules (supabase-js, conf, prompts, Temporal)
// when they run, so `--help` and `--version` start as fast as Node does.

const program = new Command('namecard')
  .description("Point your name card's link at your main site or your photo section")
  .version(readVersion(), '-V, --version', 'print the version')
  .helpOption('-h, --help', 'show help')
  .option('--api-url <url>', 'API base URL (overrides SUPABASE_URL)')
  .option('--timeout <ms>', 'time-out of each request in milliseconds (default: 15000)')
  .option(
    '--allow-insecure-http',
    'send your password and session over plain http: to another machine (a test on your LAN)',
  )
  .configureHelp({ showGlobalOptions: true })
  .addHelpText(
    'after',
    `
Settings: flags first, then SUPABASE_URL, SUPABASE_ANON_KEY, NAMECARD_MAIN_URL,
NAMECARD_PHOTO_PATH, NAMECARD_SITE_URL and NAMECARD_BASE_PATH from the environment, then
what \`namecard login\` saved, then the local emulator. In CI, set NAMECARD_EMAIL and
NAMECARD_PASSWORD to sign in for each run.`,
  )
  .exitOverride();

// Commander's own usage errors ("too many arguments", an unknown option) are printed by
// handleError in the project's style, with the usage of the command that refused the line:
// commander only records here which command that was.
let refusedBy: Command | undefined;
const recordRefusal = (command: Command) =>
  command.configureOutput({ outputError: () => (refusedBy = command) });
recordRefusal(program);

// The commands, in the order help lists them. When the first argument names one of them, only
// that module loads (`namecard status` need not load what `set` and `login` import: about
// 40 ms, measured by `npm run bench`); anything else (`--help`, an unknown command, a global
// option first) loads them all, so help and commander's suggestions stay complete.
const COMMANDS: Record<string, () => Promise<Command>> = {
  login: async () => (await import('./commands/login.js')).loginCommand,
  set: async () => (await import('./commands/set.js')).setCommand,
  profile: async () => (await import('./commands/profile.js')).profileCommand,
  end: async () => (await import('./commands/end.js')).endCommand,
  cancel: async () => (await import('./commands/cancel.js')).cancelCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
  list: async () => (await import('./commands/list.js')).listCommand,
  preview: async () => (await import('./commands/preview.js')).previewCommand,
  calendar: async () => (await import('./commands/calendar.js')).calendarCommand,
  link: async () => (await import('./commands/link.js')).linkCommand,
  qr: async () => (await import('./commands/qr.js')).qrCommand,
  stats: async () => (await import('./commands/stats.js')).statsCommand,
  logout: async () => (await import('./commands/logout.js')).logoutCommand,
  whoami: async () => (await import('./commands/whoami.js')).whoamiCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
};
const first = process.argv[2];
if (first === undefined) {
  // `namecard` alone: a usage error like any missing argument, with the short help (the
  // commands by name) instead of the whole of `--help`.
  const shortHelp = [
    'Usage: namecard [options] [command] (more: namecard --help)',
    `Commands: ${Object.keys(COMMANDS).join(', ')}`,
  ].join('\n');
  process.exitCode = handleError(new UsageError('missing command', shortHelp));
} else {
  const names = Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  for (const command of await Promise.all(names.map((name) => COMMANDS[name]!()))) {
    program.addCommand(recordRefusal(command.copyInheritedSettings(program)));
  }
  try {
    await program.parseAsync();
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
