import { commandOf } from '../grammar/commander.js';
import { writeFile } from 'node:fs/promises';
import { InputError } from '../../shared/core/errors.js';
import { print } from '../terminal/output.js';
import { terminalSafe } from '../terminal/terminal-safe.js';
import { resolveConfig } from '../session/settings.js';

/** The options of `namecard calendar` (global ones included), as typed. */
export interface CalendarOptions {
  out?: string;
  days?: string;
  apiUrl?: string;
  timeout?: string;
}

/** `--days`: a whole number from 1 to 3660. */
function parseDays(value: string): number {
  const n = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= 3660))
    throw new InputError('--days', 'a whole number from 1 to 3660', value);
  return n;
}

/**
 * `namecard calendar`: the card's schedule as an iCalendar file (RFC 5545): weekly series as
 * recurring events in their own zones, one-off entries that have not ended as single events,
 * cancelled ones left out. Printed, or written to `--out`. Reads the run's card as one of its
 * members (a person signed in, or a card token) at the server's now.
 *
 * @throws InputError (exit 2) for a bad `--days`, CardConflictError; SessionError, ApiError,
 *   NetworkError (exit 1)
 */
export async function runCalendar(options: CalendarOptions): Promise<void> {
  const days = parseDays(options.days ?? '90');
  const settings = resolveConfig(options);
  const [
    { onRunCard },
    { listEntries, OPEN_ENTRIES },
    { listSeries },
    { readStatus },
    { calendarFile },
  ] = await Promise.all([
    import('../session/cards.js'),
    import('../../shared/supabase/data.js'),
    import('../../shared/supabase/series.js'),
    import('../terminal/outlook.js'),
    import('../../shared/calendar/ics.js'),
  ]);
  // A card's entries and series are its members' to read (a card token is one of its card's).
  const { caller, card, config } = await onRunCard(settings);
  const [status, entries, { series }] = await caller.run(({ client, transport }) =>
    transport.guard(async () => {
      const now = await readStatus(config, transport.fetch, card.slug);
      return Promise.all([
        now,
        listEntries(client, { limit: OPEN_ENTRIES, endingAfter: now.now, card: card.slug }),
        listSeries(client, card.slug),
      ]);
    }),
  );
  const { withLabels } = await import('../terminal/labels.js');
  const { labels } = await withLabels(
    caller,
    status,
    [...entries.map((e) => e.type), ...series.map((s) => s.type)],
    card.slug,
  );
  const text = calendarFile({ entries, series, now: status.now, days, labels });
  if (options.out === undefined) {
    // To a file or a pipe, the file as it is (escaped as RFC 5545 asks, CRLF line ends); to a
    // terminal, line by line, every character from the server that could act on it escaped.
    if (process.stdout.isTTY) print(...text.replace(/\r\n$/, '').split('\r\n').map(terminalSafe));
    else process.stdout.write(text);
    return;
  }
  await writeFile(options.out, text);
  print(
    `✔ Wrote the ${config.cardShown === undefined ? "card's schedule" : `schedule of the card ${config.cardShown}`} to ${options.out} (iCalendar, ${series.filter((s) => s.stopped_at == null).length} series, the entries ahead)`,
  );
}

export const calendarCommand = commandOf('calendar', ({ options }) => runCalendar(options));
