import { commandOf } from '../grammar/commander.js';
import { NamecardError } from '../../shared/core/errors.js';
import { NOT_EDITOR_HINT } from '../errors.js';
import { out, print, printJson } from '../terminal/output.js';
import { terminalSafe } from '../terminal/terminal-safe.js';
import { resolveConfig, tableCard } from '../session/settings.js';

/** The options of `namecard stats` (global ones included), as typed. */
export interface StatsOptions {
  days?: string;
  tz?: string;
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/** The widest bar, in characters: date, count and bar fit in 80 columns. */
const BAR_WIDTH = 50;

/**
 * `namecard stats`: how many visits the card had in the last `--days` local days (default
 * 30) in `--tz` (default this machine's zone): the total, by profile (each named by its label,
 * as everywhere else; `--json` keys by name), by channel and a bar per day. Owners only: the counts are readable by owners alone (RLS).
 *
 * @throws InputError naming `--days` or `--tz` (exit 2); SessionError; NamecardError
 *   `not_owner` for a signed-in account that is not an owner; ApiError; NetworkError
 */
export async function runStats(options: StatsOptions): Promise<void> {
  const [visits, time, format] = await Promise.all([
    import('../../shared/calendar/visits.js'),
    import('../../shared/calendar/time.js'),
    import('../../shared/core/format.js'),
  ]);
  const days = visits.parseVisitDays(options.days);
  const zone =
    options.tz === undefined ? format.localTimeZone() : time.parseTimeZone(options.tz, '--tz');
  const config = resolveConfig(options);
  const [{ requireOwner }, { canSetCard, fetchVisitCounts, listProfiles }, profiles] =
    await Promise.all([
      import('../session/session.js'),
      import('../../shared/supabase/data.js'),
      import('../../shared/core/profiles.js'),
    ]);
  const owner = await requireOwner(config);
  const window = visits.visitWindow(Date.now(), days, zone);
  // The profiles' labels too (removed ones as well: their past visits still count), so that
  // each profile is named as everywhere else.
  const [isOwner, counts, rows] = await owner.transport.guard(() =>
    Promise.all([
      canSetCard(owner.client, config.card),
      fetchVisitCounts(owner.client, visits.dayStarts(window), config.card),
      listProfiles(owner.client, { removed: true, card: tableCard(config) }),
    ]),
  );
  const labels = profiles.labelsOf(rows);
  // A card token of any role reads its card's visits (`namecard_token_visit_days`).
  if (!isOwner && config.token === undefined) {
    throw new NamecardError(
      'not_owner',
      'this account may not read the visit counts',
      NOT_EDITOR_HINT,
    );
  }
  const summary = visits.summarizeVisits(counts, window);
  if (options.json) {
    printJson(summary);
    return;
  }
  const first = summary.days[0]!.day;
  const last = summary.days.at(-1)!.day;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const max = Math.max(1, ...summary.days.map((d) => d.total));
  const countWidth = Math.max(...summary.days.map((d) => String(d.total).length));
  print(
    `${out.bold(plural(summary.total, 'visit'))} from ${first} to ${last} (${plural(days, 'day')}, ${summary.time_zone})`,
    `  by profile: ${Object.entries(summary.by_type)
      .map(([type, n]) => `${terminalSafe(profiles.profileLabel(type, labels))} ${n}`)
      .join(', ')}`,
    `  by channel: QR code ${summary.by_via.qr}, NFC ${summary.by_via.nfc}, link ${summary.by_via.link}`,
    '',
    ...summary.days.map((d) => {
      // Any day with visits gets at least one block, so it never looks like zero.
      const length = d.total === 0 ? 0 : Math.max(1, Math.round((d.total / max) * BAR_WIDTH));
      const bar = '#'.repeat(length);
      return `${d.day}  ${String(d.total).padStart(countWidth)}  ${out.cyan(bar)}`.trimEnd();
    }),
    '',
    out.dim('Counts only: no cookies, addresses or devices are kept (see the README).'),
  );
}

export const statsCommand = commandOf('stats', ({ options }) => runStats(options));
