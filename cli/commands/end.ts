import { Command } from 'commander';
import { fetchActiveEntry } from '../../shared/core/lookup.js';
import { targetUrl } from '../../shared/core/rules.js';
import { out, print, printJson } from '../output.js';
import { resolveConfig } from '../settings.js';

/** The options of `namecard end` (global ones included), as typed. */
export interface EndOptions {
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/**
 * `namecard end`: visitors go to the main site from now on. It inserts (never updates) a
 * `main` entry that ends when the active entry would have ended, so the entry it interrupts
 * does not come back; when nothing but the main site is active, it stores nothing and says so.
 *
 * @throws SessionError, ApiError, NetworkError, OutcomeUnknownError (exit 1)
 */
export async function runEnd(options: EndOptions): Promise<void> {
  const config = resolveConfig(options);
  const { requireOwner } = await import('../session.js');
  const owner = await requireOwner(config);
  const active = await owner.transport.guard(() =>
    fetchActiveEntry({
      supabaseUrl: config.supabaseUrl,
      anonKey: config.anonKey,
      fetch: owner.transport.fetch,
    }),
  );
  if (!active || active.type === 'main') {
    const target = targetUrl(null, config);
    if (options.json) printJson({ ended: null, target, active });
    else print(`Nothing to end: visitors already go to the main site ${out.cyan(target)}`);
    return;
  }
  const [{ insertEntry }, { readOutlook, outlookJson, printOutlook }, { localTimeZone }] =
    await Promise.all([
      import('../../shared/supabase/data.js'),
      import('../outlook.js'),
      import('../../shared/core/format.js'),
    ]);
  const row = await owner.transport.guard(() =>
    insertEntry(owner.client, { type: 'main', stamp_end: active.stamp_end }),
  );
  const outlook = await readOutlook(config, owner);
  if (options.json) {
    printJson({ ended: active, ...outlookJson(outlook, config), row });
    return;
  }
  print(`${out.green('✔')} Ended ${out.bold(active.type)}: the card points to the main site`);
  printOutlook(outlook, config, localTimeZone());
}

export const endCommand = new Command('end')
  .description('send visitors to the main site now')
  .option('--json', 'print the result as one JSON document')
  .action((_options: object, command: Command) => runEnd(command.optsWithGlobals<EndOptions>()));
