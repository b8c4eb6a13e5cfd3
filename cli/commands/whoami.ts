import { Command } from 'commander';
import { signedOut } from '../errors.js';
import { out, print } from '../output.js';
import { ciCredentials, readStoredState, resolveConfig } from '../settings.js';

export const whoamiCommand = new Command('whoami')
  .description('show who is signed in, and where')
  .action((_options: object, command: Command) => {
    const stored = readStoredState();
    const config = resolveConfig(command.optsWithGlobals(), process.env, stored);
    const ci = ciCredentials();
    if (ci) {
      print(`${out.bold(ci.email)} at ${config.supabaseUrl} (from NAMECARD_EMAIL, for each run)`);
      return;
    }
    const session = stored.session;
    if (!session || session.api_url !== config.supabaseUrl) {
      throw signedOut(config.supabaseUrl, session?.api_url);
    }
    print(`${out.bold(session.email)} at ${session.api_url}`);
  });
