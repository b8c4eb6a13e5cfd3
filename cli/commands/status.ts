import { Command } from 'commander';
import { runStatus, type StatusOptions } from '../light/status-run.js';

export const statusCommand = new Command('status')
  .description('show what visitors get now and the coming changes')
  .option('--tz <zone>', "the IANA time zone the times are shown in (default: this machine's)")
  .option('--json', 'print the result as one JSON document')
  .action((_options: object, command: Command) =>
    runStatus(command.optsWithGlobals<StatusOptions>()),
  );
