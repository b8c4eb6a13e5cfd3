import { Command } from 'commander';
import { localTimeZone } from '../../shared/core/format.js';
import { MAIN_PROFILE } from '../../shared/core/profiles.js';
import { profileLabel } from '../../shared/core/types.js';
import { out, print, printJson } from '../output.js';
import { resolveConfig } from '../settings.js';
import { showType } from '../terminal-safe.js';

/** The options of `namecard end` (global ones included), as typed. */
export interface EndOptions {
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/**
 * `namecard end`: visitors go to the main site now. The server (`namecard_end_now()`, on its
 * own clock) stops every entry in force now, the one visitors get and any older one that would
 * come back after it, and keeps every entry that starts later; rows are marked, never deleted.
 * When that would change nothing visitors get, it stores nothing and says so (exit 0). Then it
 * shows the timeline from now on.
 *
 * @throws SessionError, ApiError, NetworkError, OutcomeUnknownError (exit 1)
 */
export async function runEnd(options: EndOptions): Promise<void> {
  const config = resolveConfig(options);
  const [{ requireOwner }, { endNow }, { readStatus, statusJson, timelineLines }] =
    await Promise.all([
      import('../session.js'),
      import('../../shared/supabase/data.js'),
      import('../outlook.js'),
    ]);
  const owner = await requireOwner(config);
  const ended = await owner.transport.guard(() => endNow(owner.client));
  const status = await owner.transport.guard(() => readStatus(config, owner.transport.fetch));
  if (options.json) {
    printJson({ ended, ...statusJson(status, config) });
    return;
  }
  const lines = timelineLines(status, config, localTimeZone());
  if (ended.length === 0) {
    print(`Nothing to end: visitors already go to ${MAIN_PROFILE.visitorsGet}`, ...lines);
    return;
  }
  const names = ended.map(
    (row) => `${out.bold(showType(row.type))} (${profileLabel(row.type)}, entry ${row.id})`,
  );
  print(
    `${out.green('✔')} Ended ${names.join(' and ')}: visitors go to ${MAIN_PROFILE.visitorsGet} now`,
    ...lines,
  );
}

export const endCommand = new Command('end')
  .description(`send visitors to ${MAIN_PROFILE.visitorsGet} now (entries that start later stay)`)
  .option('--json', 'print the result as one JSON document')
  .action((_options: object, command: Command) => runEnd(command.optsWithGlobals<EndOptions>()));
