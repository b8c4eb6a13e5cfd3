import { Command } from 'commander';
import { formatWhen, localTimeZone } from '../../shared/core/format.js';
import { MAIN_PROFILE } from '../../shared/core/profiles.js';
import { profileLabel, type NamecardRow } from '../../shared/core/types.js';
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
  const [{ requireWriter }, { endNow }, { statusJson, timelineLines }] = await Promise.all([
    import('../writer.js'),
    import('../../shared/supabase/data.js'),
    import('../outlook.js'),
  ]);
  const owner = await requireWriter(config);
  // One request: it stops what is in force and answers what visitors get afterwards.
  const { ended, alreadyStopped, status } = await owner.run(({ client, transport }) =>
    transport.guard(() => endNow(client), { act: 'end' }),
  );
  if (options.json) {
    printJson({ ended, already_stopped: alreadyStopped, ...statusJson(status, config) });
    return;
  }
  const zone = localTimeZone();
  const lines = timelineLines(status, config, zone);
  // An occurrence of a weekly series ends; the series stays (its id is the series').
  const name = (row: NamecardRow & { series?: boolean }) =>
    `${out.bold(showType(row.type))} (${profileLabel(row.type, status.labels)}, ${row.series ? 'this occurrence of series' : 'entry'} ${row.id})`;
  // Another call (a cancel, another end) stopped these while this one waited: say what it did.
  const others = alreadyStopped.map(
    (row) =>
      `  Meanwhile ${name(row)} was ${row.stop_kind === 'cancelled' ? 'cancelled' : 'ended early'}${
        row.stopped_at == null ? '' : ` at ${formatWhen(row.stopped_at, status.now, zone)}`
      } by another session.`,
  );
  if (ended.length === 0) {
    print(
      `Nothing to end: visitors already go to ${MAIN_PROFILE.visitorsGet}`,
      ...others,
      ...lines,
    );
    return;
  }
  print(
    `${out.green('✔')} Ended ${ended.map(name).join(' and ')}: visitors go to ${MAIN_PROFILE.visitorsGet} now`,
    ...others,
    ...lines,
  );
}

export const endCommand = new Command('end')
  .description(`send visitors to ${MAIN_PROFILE.visitorsGet} now (entries that start later stay)`)
  .option('--json', 'print the result as one JSON document')
  .action((_options: object, command: Command) => runEnd(command.optsWithGlobals<EndOptions>()));
