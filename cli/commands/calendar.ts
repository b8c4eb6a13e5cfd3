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
 * cancelled ones left out. Printed, or written to `--out`. Reads what anyone may read (no
 * sign-in needed) at the server's now.
 *
 * @throws InputError (exit 2) for a bad `--days`; ApiError, NetworkError (exit 1)
 */
export async function runCalendar(options: CalendarOptions): Promise<void> {
  const days = parseDays(options.days ?? '90');
  const config = resolveConfig(options);
  const [
    { connect },
    { listEntries, OPEN_ENTRIES },
    { listSeries },
    { readStatus },
    { calendarFile },
  ] = await Promise.all([
    import('../session/connect.js'),
    import('../../shared/supabase/data.js'),
    import('../../shared/supabase/series.js'),
    import('../terminal/outlook.js'),
    import('../../shared/calendar/ics.js'),
  ]);
  // A card named by its slug is read by its members only: with the session.
  // So is a card token's card (cli/session/card-token.ts).
  const { card } = config;
  const member = card !== undefined || config.token !== undefined;
  const { client, transport } = member
    ? await (await import('../session/session.js')).requireOwner(config)
    : connect(config);
  const status = await transport.guard(() =>
    member
      ? import('../../shared/supabase/cards.js').then((c) => c.fetchCardStatus(client, card ?? ''))
      : readStatus(config, transport.fetch),
  );
  const [entries, { series }] = await transport.guard(() =>
    Promise.all([
      listEntries(client, { limit: OPEN_ENTRIES, endingAfter: status.now, card }),
      listSeries(client, card),
    ]),
  );
  const { signedInLabels } = await import('../terminal/labels.js');
  const labels = await signedInLabels(config, status.labels, [
    ...entries.map((e) => e.type),
    ...series.map((s) => s.type),
  ]);
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
    `✔ Wrote the card's schedule to ${options.out} (iCalendar, ${series.filter((s) => s.stopped_at == null).length} series, the entries ahead)`,
  );
}

export const calendarCommand = commandOf('calendar', ({ options }) => runCalendar(options));
