import type { EntryPlan } from '../../shared/core/entry-rules.js';
import { formatStamp, toWallClock } from '../../shared/core/format.js';
import type { CardStatus } from '../../shared/core/lookup.js';
import type { NamecardRow } from '../../shared/core/types.js';
import { out, print, printJson } from './output.js';
import { statusJson, timelineLines } from './outlook.js';
import type { CliConfig } from '../session/settings.js';
import { showProfile } from './profile-words.js';

/**
 * Prints what `namecard set` stored, as the server confirmed it: the entry (the zone named
 * once), a notice such as a start that has passed, the end in this machine's zone when the
 * entry was read in another, and the timeline in the entry's zone; with `json`, one JSON
 * document. Shared by the program and the light path, so both print the same bytes.
 *
 * @param stored the row as stored and the status after it (the answer of `namecard_set`)
 * @param entry the planned entry (its zone and notice)
 * @param localZone this machine's IANA zone
 */
export function showSet(
  stored: { entry: NamecardRow; status: CardStatus },
  entry: Pick<EntryPlan, 'timeZone' | 'notice'>,
  options: { json?: boolean },
  config: CliConfig,
  localZone: string,
): void {
  const { entry: row, status } = stored;
  if (options.json) {
    const { target, active, next, timeline } = statusJson(status, config);
    printJson({
      ...(config.cardShown === undefined ? {} : { card: config.cardShown }),
      profile: row.type,
      stamp_start: row.stamp_start ?? null,
      stamp_end: row.stamp_end,
      starts_at: row.stamp_start == null ? null : new Date(row.stamp_start).toISOString(),
      ends_at: new Date(row.stamp_end).toISOString(),
      time_zone: entry.timeZone,
      notice: entry.notice ?? null,
      target,
      active,
      next,
      timeline,
      row,
    });
    return;
  }
  // The entry exactly as stored, the zone named once; then the timeline in the same zone.
  const wall = (ms: number) => {
    const w = toWallClock(ms, entry.timeZone);
    return `${w.date} ${w.time}`;
  };
  const start = row.stamp_start == null ? '' : `from ${wall(row.stamp_start)} `;
  const end = formatStamp(row.stamp_end, entry.timeZone);
  const lines = [
    `${out.green('✔')} The card points to ${showProfile(row.type, status.labels)} ${start}until ${end}`,
  ];
  if (entry.notice) lines.push(`  ${entry.notice}.`);
  const elsewhere = localZone !== entry.timeZone;
  if (elsewhere) lines.push(`  That is ${formatStamp(row.stamp_end, localZone)} here.`);
  // After a time in this machine's zone, the timeline names its zone (`--tz`'s) again.
  print(...lines, ...timelineLines(status, config, entry.timeZone, elsewhere));
}
