import type { CardStatus } from '../../shared/core/lookup.js';
import { InputError } from '../../shared/core/errors.js';
import { formatWhen } from '../../shared/core/format.js';
import { describeRule, isSeriesRow, shortTime } from '../../shared/core/series.js';
import type { NamecardRow } from '../../shared/core/types.js';
import { out, print, printJson } from './output.js';
import { statusJson, timelineLines } from './outlook.js';
import type { CliConfig } from '../session/settings.js';
import { showProfile } from './profile-words.js';

/**
 * An entry id as typed: a whole number from 1 (ids are what `namecard list` shows).
 *
 * @throws InputError naming `id` (exit 2)
 */
export function parseEntryId(value: string): number {
  const id = /^[1-9]\d{0,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw new InputError(
      'id',
      'an entry id, a whole number such as 12 (see `namecard list`)',
      value,
    );
  }
  return id;
}

/**
 * Prints what `namecard cancel` did: the entry or series cancelled and the timeline from now
 * on; with `json`, one JSON document. Shared by the program and the light path.
 *
 * @param zone the IANA zone the times are shown in
 */
export function showCancel(
  outcome: { cancelled: NamecardRow; status: CardStatus },
  options: { json?: boolean },
  config: CliConfig,
  zone: () => string,
): void {
  const { cancelled: row, status } = outcome;
  if (options.json) {
    printJson({ cancelled: row, ...statusJson(status, config) });
    return;
  }
  const timeZone = zone();
  // Ids are shared by entries and series: a series' cancel ends the series for good.
  if (isSeriesRow(row)) {
    print(
      `${out.green('✔')} Cancelled series ${row.id}: ${showProfile(row.type, status.labels)} ${describeRule({ ...row, start_time: shortTime(row.start_time), end_time: shortTime(row.end_time) }, true)}. It ends for good; its past occurrences stay in the history.`,
      ...timelineLines(status, config, timeZone),
    );
    return;
  }
  const planned = row.planned_end ?? row.stamp_end;
  const when = (ms: number) => formatWhen(ms, status.now, timeZone);
  const span =
    row.stamp_start == null
      ? `until ${when(planned)}`
      : `from ${when(row.stamp_start)} until ${when(planned)}`;
  print(
    `${out.green('✔')} Cancelled entry ${row.id}: ${showProfile(row.type, status.labels)} ${span}`,
    ...timelineLines(status, config, timeZone),
  );
}
