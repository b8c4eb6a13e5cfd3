import { Command } from 'commander';
import { listCommand } from './commands/list.js';
import { loginCommand } from './commands/login.js';
import { logoutCommand } from './commands/logout.js';
import { setCommand } from './commands/set.js';
import { statusCommand } from './commands/status.js';
import { whoamiCommand } from './commands/whoami.js';
import { sanitizeMessage } from './display.js';
import { handleError } from './errors.js';
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
  .configureHelp({ showGlobalOptions: true })
  .addHelpText(
    'after',
    `
Settings: flags first, then SUPABASE_URL, SUPABASE_ANON_KEY, NAMECARD_MAIN_URL and
NAMECARD_PHOTO_PATH from the environment, then what \`namecard login\` saved, then the
local emulator. In CI, set NAMECARD_EMAIL and NAMECARD_PASSWORD to sign in for each run.`,
  )
  // Commander echoes unknown options: keep a 10 KB or control-character value readable.
  .configureOutput({ outputError: (message, write) => write(sanitizeMessage(message)) })
  .exitOverride();

for (const command of [
  loginCommand,
  setCommand,
  statusCommand,
  listCommand,
  logoutCommand,
  whoamiCommand,
]) {
  program.addCommand(command.copyInheritedSettings(program));
}

try {
  await program.parseAsync();
} catch (error) {
  process.exitCode = handleError(error);
}
