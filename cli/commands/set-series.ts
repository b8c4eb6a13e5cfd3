import { UsageError } from '../errors.js';
import { out, print, printJson } from '../terminal/output.js';
import { resolveConfig } from '../session/settings.js';
import { showType, terminalSafe } from '../terminal/terminal-safe.js';
import { formatWhen } from '../../shared/core/format.js';
import { PROFILE_NAME_FORM, isProfileType } from '../../shared/core/profiles.js';
import {
  describeRule,
  parseTimeRange,
  parseWeekdays,
  seriesWords,
  type SeriesRow,
} from '../../shared/core/series.js';
import { showProfile } from '../terminal/profile-words.js';
import type { Occurrence } from '../../shared/calendar/series.js';

/** The options of `namecard set … --every` (global ones included), as typed. */
export interface SetSeriesOptions {
  every: string;
  from?: string;
  until?: string;
  tz?: string;
  for?: string;
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

const USAGE =
  'Usage: namecard set <profile> --every <days> <HH:MM-HH:MM> [--from YYYY-MM-DD] [--until YYYY-MM-DD] [--tz <zone>]';

/**
 * The series the command line describes, every part checked before anything is sent.
 *
 * @throws InputError (exit 2) naming `--every`, the time range, `--from`, `--until` or `--tz`;
 *   UsageError (exit 2) for a missing or extra argument
 */
export async function planSeries(
  profile: string | undefined,
  range: string | undefined,
  extra: string | undefined,
  options: SetSeriesOptions,
) {
  const [time, plan, format] = await Promise.all([
    import('../../shared/calendar/time.js'),
    import('../../shared/calendar/plan.js'),
    import('../../shared/core/format.js'),
  ]);
  if (profile === undefined || range === undefined) {
    throw new UsageError(
      `missing argument${profile === undefined ? 's `profile`, ' : ' '}\`time range\` (HH:MM-HH:MM)`,
      USAGE,
    );
  }
  if (extra !== undefined || options.for !== undefined) {
    throw new UsageError(
      `--every takes a profile and one time range (HH:MM-HH:MM), not ${extra !== undefined ? `\`${extra}\`` : '--for'}`,
      USAGE,
    );
  }
  const name = profile.trim().toLowerCase();
  if (!PROFILE_NAME_FORM.test(name)) plan.parseProfile(profile);
  const weekdays = parseWeekdays(options.every, '--every');
  const { start, end } = parseTimeRange(range, 'time range');
  const first = options.from === undefined ? null : time.parseDate(options.from, '--from');
  const last = options.until === undefined ? null : time.parseDate(options.until, '--until');
  // The server keeps a series' dates from 1970 to 2199 (its constraints).
  for (const [field, date, text] of [
    ['--from', first, options.from],
    ['--until', last, options.until],
  ] as const) {
    if (date && (date.toString() < '1970-01-01' || date.toString() > '2199-12-31')) {
      const { InputError } = await import('../../shared/core/errors.js');
      throw new InputError(field, 'a date from 1970-01-01 to 2199-12-31', text!);
    }
  }
  if (first && last && first.toString() > last.toString()) {
    const { InputError } = await import('../../shared/core/errors.js');
    throw new InputError(
      '--until',
      `a date on or after --from (${first.toString()})`,
      options.until!,
    );
  }
  const timeZone =
    options.tz === undefined ? format.localTimeZone() : time.parseTimeZone(options.tz, '--tz');
  return {
    type: name,
    builtIn: isProfileType(name),
    weekdays,
    start_time: start,
    end_time: end,
    time_zone: timeZone,
    first_date: first?.toString() ?? null,
    last_date: last?.toString() ?? null,
  };
}

/**
 * A series in one line for `list`: its id, profile, days and times, and its next occurrence, or
 * that it was cancelled or has none ahead. A series set in another zone than `zone` gives its
 * own zone's times and its next start in both, each zone named (seriesWords); so does the
 * moment it was cancelled.
 *
 * @param next its next occurrence from `now`, or null
 * @param now epoch ms (the server's now)
 * @param zone the IANA zone times are shown in
 */
export function seriesLine(
  series: SeriesRow,
  next: Occurrence | null,
  now: number,
  zone: string,
): string {
  const words = seriesWords(series, next?.stamp_start ?? null, now, zone);
  const named = series.time_zone === zone ? '' : ` in ${zone}`;
  const state =
    series.stopped_at != null
      ? out.dim(`cancelled ${formatWhen(series.stopped_at, now, zone)}${named}`)
      : next
        ? out.cyan(words.next)
        : out.dim(words.next);
  return `  ${terminalSafe(series.id)}  ${showType(series.type)} ${words.rule}, ${state}`;
}

/**
 * `namecard set <profile> --every <days> <HH:MM-HH:MM>`: stores a weekly series through one
 * request and reports what the server confirmed: the series (with its id, which `cancel`
 * takes), its next occurrences and the timeline from now on.
 */
export async function runSetSeries(
  profile: string | undefined,
  range: string | undefined,
  extra: string | undefined,
  options: SetSeriesOptions,
): Promise<void> {
  const settings = resolveConfig(options);
  const planned = await planSeries(profile, range, extra, options);
  const [{ onRunCard }, { setSeries }, { statusJson, timelineLines }, format] = await Promise.all([
    import('../session/cards.js'),
    import('../../shared/supabase/series.js'),
    import('../terminal/outlook.js'),
    import('../../shared/core/format.js'),
  ]);
  const { caller, card, config } = await onRunCard(settings);
  if (!planned.builtIn) {
    const [{ listProfiles }, plan] = await Promise.all([
      import('../../shared/supabase/data.js'),
      import('../../shared/calendar/plan.js'),
    ]);
    const rows = await caller.run(({ client, transport }) =>
      transport.guard(() => listProfiles(client, { card: card.slug })),
    );
    plan.parseProfile(
      planned.type,
      'profile',
      rows.map((row) => row.name),
    );
  }
  const { builtIn: _builtIn, ...input } = planned;
  const { series, status } = await caller.run(({ client, transport }) =>
    transport.guard(() => setSeries(client, input, card.slug), { act: 'set' }),
  );
  const { withLabels } = await import('../terminal/labels.js');
  const labelled = await withLabels(caller, status, [series.type], card.slug);
  const { nextOccurrences } = await import('../../shared/calendar/series.js');
  const next = nextOccurrences(series, status.now, 3);
  if (options.json) {
    const s = statusJson(status, config);
    printJson({
      series,
      next_occurrences: next.map((o) => ({
        starts_at: new Date(o.stamp_start).toISOString(),
        ends_at: new Date(o.stamp_end).toISOString(),
        stamp_start: o.stamp_start,
        stamp_end: o.stamp_end,
      })),
      ...(s.card === undefined ? {} : { card: s.card }),
      target: s.target,
      active: s.active,
      next: s.next,
      timeline: s.timeline,
    });
    return;
  }
  const when = (ms: number) => format.formatWhen(ms, status.now, series.time_zone);
  const lines = [
    `${out.green('✔')} Series ${series.id}: ${showProfile(series.type, labelled.labels)} ${describeRule(series, true)}`,
  ];
  if (next[0]) {
    lines.push(
      `  Next: ${next.map((o) => `${when(o.stamp_start)}–${format.toWallClock(o.stamp_end, series.time_zone).time}`).join(', ')}`,
    );
  } else {
    lines.push('  It has no occurrence ahead.');
  }
  print(...lines, ...timelineLines(labelled, config, series.time_zone, false));
}
