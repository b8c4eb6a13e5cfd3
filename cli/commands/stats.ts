import { commandOf } from '../grammar/commander.js';
import { out, print, printJson } from '../terminal/output.js';
import { terminalSafe } from '../terminal/terminal-safe.js';
import { resolveConfig } from '../session/settings.js';

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
 * as everywhere else; `--json` keys by name), by channel and a bar per day. The card's members
 * read its counts (viewers and card tokens too); nobody else.
 *
 * @throws InputError naming `--days` or `--tz`, CardConflictError (exit 2); SessionError;
 *   ApiError (none of the caller's cards); NetworkError
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
  const settings = resolveConfig(options);
  const [{ onRunCard }, { fetchVisitCounts, listProfiles }, profiles] = await Promise.all([
    import('../session/cards.js'),
    import('../../shared/supabase/data.js'),
    import('../../shared/core/profiles.js'),
  ]);
  const { caller, card, config } = await onRunCard(settings);
  const window = visits.visitWindow(Date.now(), days, zone);
  // The profiles' labels too (removed ones as well: their past visits still count), so that
  // each profile is named as everywhere else.
  const [counts, rows] = await caller.run(({ client, transport }) =>
    transport.guard(() =>
      Promise.all([
        fetchVisitCounts(client, visits.dayStarts(window), card.slug),
        listProfiles(client, { removed: true, card: card.slug }),
      ]),
    ),
  );
  const labels = profiles.labelsOf(rows);
  const summary = visits.summarizeVisits(counts, window);
  if (options.json) {
    printJson({
      ...(config.cardShown === undefined ? {} : { card: config.cardShown }),
      ...summary,
    });
    return;
  }
  const first = summary.days[0]!.day;
  const last = summary.days.at(-1)!.day;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const max = Math.max(1, ...summary.days.map((d) => d.total));
  const countWidth = Math.max(...summary.days.map((d) => String(d.total).length));
  print(
    ...(config.cardShown === undefined ? [] : [`Card: ${config.cardShown}`]),
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
