import { formatWhen } from '../../shared/core/format.js';
import type { EndOutcome } from '../../shared/core/member-answers.js';
import { MAIN_PROFILE } from '../../shared/core/profiles.js';
import type { NamecardRow } from '../../shared/core/types.js';
import { out, print, printJson } from './output.js';
import { statusJson, timelineLines } from './outlook.js';
import type { CliConfig } from '../session/settings.js';
import { showProfile } from './profile-words.js';

/**
 * Prints what `namecard end` did: the entries it stopped (or that nothing needed stopping),
 * those another session stopped meanwhile, and the timeline from now on; with `json`, one
 * JSON document. Shared by the program and the light path, so both print the same bytes.
 *
 * @param zone the IANA zone the times are shown in
 */
export function showEnd(
  outcome: EndOutcome,
  options: { json?: boolean },
  config: CliConfig,
  zone: () => string,
): void {
  const { ended, alreadyStopped, status } = outcome;
  if (options.json) {
    printJson({ ended, already_stopped: alreadyStopped, ...statusJson(status, config) });
    return;
  }
  const timeZone = zone();
  const lines = timelineLines(status, config, timeZone);
  // An occurrence of a weekly series ends; the series stays (its id is the series').
  const name = (row: NamecardRow & { series?: boolean }) =>
    showProfile(
      row.type,
      status.labels,
      `${row.series ? 'this occurrence of series' : 'entry'} ${row.id}`,
    );
  // Another call (a cancel, another end) stopped these while this one waited: say what it did.
  const others = alreadyStopped.map(
    (row) =>
      `  Meanwhile ${name(row)} was ${row.stop_kind === 'cancelled' ? 'cancelled' : 'ended early'}${
        row.stopped_at == null ? '' : ` at ${formatWhen(row.stopped_at, status.now, timeZone)}`
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
