import { describeChanges, visitorsGet } from '../shared/core/describe.js';
import { formatStamp, localTimeZone } from '../shared/core/format.js';
import { fetchActiveEntry } from '../shared/core/lookup.js';
import { changesAfter, targetUrl, type Change } from '../shared/core/rules.js';
import { profileLabel, type NamecardRow } from '../shared/core/types.js';
import { listEntries } from '../shared/supabase/data.js';
import type { Owner } from './session.js';
import type { CliConfig } from './settings.js';
import { out, print } from './output.js';

// What visitors get now and what follows, read right after the owner changed the card. This
// module loads supabase-js (through the owner's client): only `set` and `end` use it.

/** What visitors get now (by the server's clock) and the changes to come. */
export interface Outlook {
  /** The active entry, as the view `namecard_active` answers it. */
  active: NamecardRow | null;
  /** The changes after now, worked out from every entry that has not ended. */
  changes: Change[];
  /** The owner's clock when the entries were read, epoch ms. */
  now: number;
}

/** How many entries that have not ended are read to work out what follows. */
const OPEN_ENTRIES = 1000;

/**
 * Reads the active entry and every entry that has not ended, in parallel.
 *
 * @throws as fetchActiveEntry and listEntries
 */
export async function readOutlook(config: CliConfig, owner: Owner): Promise<Outlook> {
  const now = Date.now();
  const [active, rows] = await owner.transport.guard(() =>
    Promise.all([
      fetchActiveEntry({
        supabaseUrl: config.supabaseUrl,
        anonKey: config.anonKey,
        fetch: owner.transport.fetch,
      }),
      listEntries(owner.client, { owner: true, endingAfter: now, limit: OPEN_ENTRIES }),
    ]),
  );
  return { active, changes: changesAfter(rows, now), now };
}

/** The outlook's fields of a `--json` document. */
export function outlookJson(outlook: Outlook, config: CliConfig) {
  return {
    target: targetUrl(outlook.active?.type, config),
    active: outlook.active,
    following: outlook.changes.map((change) => ({
      at: new Date(change.at).toISOString(),
      entry: change.entry,
      target: targetUrl(change.entry?.type, config),
    })),
  };
}

/**
 * Prints, for people: the stored entry (when given), what visitors get now, and what follows.
 *
 * @param zone the IANA time zone the owner gave the times in
 * @param row the entry the server stored, if any
 */
export function printOutlook(
  outlook: Outlook,
  config: CliConfig,
  zone: string,
  row?: NamecardRow,
): void {
  const lines: string[] = [];
  const local = localTimeZone();
  if (row) {
    const from = row.stamp_start == null ? '' : ` from ${formatStamp(row.stamp_start, zone)}`;
    lines.push(
      `${out.green('✔')} The card points to ${out.bold(row.type)} (${profileLabel(row.type)})${from} until ${formatStamp(row.stamp_end, zone)}`,
    );
    if (local !== zone) lines.push(`  That is ${formatStamp(row.stamp_end, local)} here.`);
  }
  const target = targetUrl(outlook.active?.type, config);
  const until = outlook.active ? ` until ${formatStamp(outlook.active.stamp_end, zone)}` : '';
  lines.push(
    row
      ? `  Visitors now go to ${out.cyan(target)}`
      : `Visitors now get ${visitorsGet(outlook.active)}${until}: ${out.cyan(target)}`,
  );
  const indent = row ? '  ' : '';
  for (const sentence of describeChanges(outlook.changes, outlook.active, outlook.now, zone)) {
    lines.push(`${indent}${sentence}`);
  }
  print(...lines);
}
