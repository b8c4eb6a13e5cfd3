import parseDuration from 'parse-duration';
import { InputError } from './errors.js';
import { formatStamp } from './format.js';
import { PROFILE_NAME_FORM, PROFILE_TYPES, profileChoices } from './profiles.js';
import { didYouMean, nearestName } from './suggest.js';
import type { NewEntry } from './types.js';
import { checkDate, checkTime, type WallClockFields } from './wall-time.js';

// Every rule about a new entry, in one place for the CLI (its program and its light path) and
// the manage page: which profile, when it starts and ends, and what is refused. Both faces
// parse what the owner typed once, here, and store exactly the plan this returns. The rules
// read wall-clock times through a {@link ZoneRules} they are given, so that they load no
// time-zone library themselves: shared/calendar/plan.ts gives them Temporal's (any zone), the
// CLI's light path gives them Date's local clock (the process's own zone, no Intl).

/** How a time zone is checked and a wall-clock time in it becomes an instant. */
export interface ZoneRules {
  /**
   * Checks a zone name the owner gave.
   *
   * @returns the canonical IANA name
   * @throws InputError naming `field`
   */
  parseTimeZone(timeZone: string, field: string): string;
  /**
   * A wall-clock `YYYY-MM-DD` and `HH:MM` in `timeZone` as epoch ms: a skipped time refused,
   * a repeated one its earlier instant (shared/calendar/time.ts's `toEpochMs` states the rule).
   *
   * @throws InputError naming the date's or time's field
   */
  toEpochMs(date: string, time: string, timeZone: string, fields: WallClockFields): number;
  /** The zone when the owner named none: the machine's or browser's. */
  localTimeZone(): string;
}

/** What the owner asked for, as typed (CLI arguments and flags, or the manage form's fields). */
export interface EntryInput {
  /** `main` or `photo`, any case. */
  profile: string;
  /** The end date, `YYYY-MM-DD` (with `time`). */
  date?: string;
  /** The end time, `HH:MM` 24-hour (with `date`). */
  time?: string;
  /** The start, `YYYY-MM-DD HH:MM`; none or empty means from the moment it is stored. */
  from?: string;
  /** How long it lasts, from the start (or from now): `90m`, `2h`, `3d`, `1h30m`. */
  for?: string;
  /** The IANA time zone the date and time are read in; the machine's or browser's by default. */
  timeZone?: string;
  /**
   * The profiles the card has (the server's, not removed), in order; main and photo (the
   * profiles every card starts with) when not given.
   */
  profiles?: readonly string[];
}

/** The names messages use for the fields, e.g. the CLI's flags (`--from`, `--for`, `--tz`). */
export type EntryFieldNames = Record<Exclude<keyof EntryInput, 'profiles'>, string>;

/** The CLI's names, the default. */
export const CLI_FIELD_NAMES: EntryFieldNames = {
  profile: 'profile',
  date: 'date',
  time: 'time',
  from: '--from',
  for: '--for',
  timeZone: '--tz',
};

/** A checked entry, ready to insert: epoch milliseconds, and the zone it was read in. */
export interface EntryPlan extends NewEntry {
  /** Epoch ms, or null for "from the moment it is stored". */
  stamp_start: number | null;
  /** The canonical IANA zone the date and time were read in. */
  timeZone: string;
  /**
   * What the owner must be told besides the entry itself, or absent: a start that has already
   * passed is stored as "from the moment it is stored", e.g. "`--from` 2026-11-20 09:00 has
   * passed: the entry starts now".
   */
  notice?: string;
}

/** The longest `--for`: 10 years of 365.25 days, in milliseconds. */
export const MAX_DURATION_MS = 10 * 365.25 * 24 * 3_600_000;

/**
 * The first instant the server refuses (epoch ms, 2200-01-01 00:00 UTC): every table keeps
 * its dates and instants from 1970 to the end of 2199, since a value past that would overflow
 * the rule's date arithmetic (docs/security.md, Round 5).
 */
export const INSTANTS_END_MS = 7_258_118_400_000;

const DURATION_FORM = 'a duration such as 90m, 2h, 3d or 1h30m';

/**
 * Checks a profile, ignoring case and surrounding space; a near miss gets a suggestion.
 *
 * @param value the profile as typed, e.g. `photo`, `PHOTO`, `shop`
 * @param field the field's name in messages
 * @param known the profiles the card has, in order (the server's list; main and photo, the
 *   profiles every card starts with, by default)
 * @returns the profile's name, one of `known`
 * @throws InputError naming the field and the profiles, e.g. "`profile` must be main or photo,
 *   got `foto`: did you mean `photo`?"
 */
export function parseProfile(
  value: string,
  field = 'profile',
  known: readonly string[] = PROFILE_TYPES,
): string {
  const typed = value.trim().toLowerCase();
  if (known.includes(typed)) return typed;
  // A near miss by spelling (`foto`, `shopp`), or a name that starts like one (`photographer`).
  const expected = profileChoices(known);
  throw new InputError(
    field,
    expected,
    value,
    `\`${field}\` must be ${expected}, got \`${value}\`${didYouMean(nearestName(typed, known))}`,
  );
}

/**
 * Checks a duration: a positive amount of time with units, at most 10 years.
 *
 * @param value e.g. `90m`, `2h`, `3d`, `1h30m`, `2 hours` (parse-duration's forms; a bare
 *   number is refused, since its unit would be a guess)
 * @param field the field's name in messages
 * @returns milliseconds
 * @throws InputError naming the field: unparseable, zero or negative, or beyond 10 years
 */
export function parseDurationMs(value: string, field = '--for'): number {
  const ms = /[a-z]/i.test(value) ? parseDuration(value) : null;
  if (ms === null || ms === undefined || !Number.isFinite(ms)) {
    throw new InputError(field, DURATION_FORM, value);
  }
  if (ms <= 0) {
    throw new InputError(
      field,
      DURATION_FORM,
      value,
      `\`${field}\` must be longer than zero, got \`${value}\``,
    );
  }
  if (ms > MAX_DURATION_MS) {
    throw new InputError(
      field,
      DURATION_FORM,
      value,
      `\`${field}\` must be at most 10 years, got \`${value}\``,
    );
  }
  return Math.round(ms);
}

/**
 * The one place that turns what the owner typed into an entry, with every rule of a new entry:
 *
 * - the end is either a date and time, or a duration (`for`) from the start, never both;
 * - dates and times are read in one zone (`timeZone`), for the end and the start alike; a local
 *   time skipped by a daylight-saving jump is refused, a repeated one means its first instant;
 * - the end must be in the future;
 * - a start, when given, must be before the end; a start that has passed (at or before `now`)
 *   means "starts now": it is stored as no start (the server's clock sets the moment), a
 *   duration still counts from it, and the plan's `notice` says so.
 *
 * @param zones how zones are read (Temporal's in shared/calendar/plan.ts)
 * @param input the fields as typed
 * @param now the owner's clock, epoch milliseconds (the end must come after it; a duration
 *   without a start counts from it)
 * @param names the field names messages use (the CLI's by default)
 * @returns the checked entry: `type`, `stamp_end` and `stamp_start` in epoch ms, the zone, and
 *   a `notice` when the start has passed
 * @throws InputError naming the field and the expected form
 * @example planEntry(temporalZones, { profile: 'photo', date: '2030-06-01', time: '18:00', timeZone: 'UTC' }, Date.now())
 * // → { type: 'photo', stamp_end: 1906653600000, stamp_start: null, timeZone: 'UTC' }
 */
export function planEntry(
  zones: ZoneRules,
  input: EntryInput,
  now: number,
  names: EntryFieldNames = CLI_FIELD_NAMES,
): EntryPlan {
  // Each field read once: the profile against the card's list here, the rest by readSetRequest.
  const type = parseProfile(input.profile, names.profile, input.profiles);
  const { profiles: _profiles, ...fields } = input;
  const request = readSetRequest(zones, { ...fields, profile: undefined }, now, names);
  return planRequest(zones, request, type, now, names);
}

/**
 * The entry a request asks for, once what it lacked was asked for: its profile checked by the
 * caller (`type`), its zone as {@link readSetRequest} found it (never looked up again), its end
 * and start as readSetRequest planned them when the line gave the whole end, else planned here
 * from the fields completed since. The CLI's `set` (program and light path) plans with this.
 *
 * @param request the request read by readSetRequest, its missing fields filled in
 * @param type the profile's name, checked against the card's profiles
 * @param now epoch ms
 * @returns the checked entry, as {@link planEntry} returns it
 * @throws InputError naming the field and the expected form (an end still missing, or a filled
 *   in field that is wrong)
 */
export function planRequest(
  zones: ZoneRules,
  request: SetRequest,
  type: string,
  now: number,
  names: EntryFieldNames = CLI_FIELD_NAMES,
): EntryPlan {
  const { timeZone } = request;
  if (request.span) return { type, ...request.span, timeZone };
  checkEndForm(request, names);
  return { type, ...planSpan(zones, request, timeZone, now, names), timeZone };
}

/**
 * The first rule of an entry's end, on what was given: a date and time, or a duration
 * (`for`), never both, and a date always with its time. The field checks a prompt runs and
 * {@link planEntry} share it.
 *
 * @throws InputError naming `--for` for both, or the missing `date` or `time`
 */
export function checkEndForm(
  input: Pick<EntryInput, 'date' | 'time' | 'for'>,
  names: EntryFieldNames = CLI_FIELD_NAMES,
): void {
  const hasEnd = input.date !== undefined || input.time !== undefined;
  if (hasEnd && input.for !== undefined) {
    throw new InputError(
      names.for,
      'a duration, or an end date and time',
      input.for,
      `\`${names.for}\` and an end ${names.date} and ${names.time} cannot be used together: give one of them`,
    );
  }
  if (input.for === undefined && (input.date === undefined || input.time === undefined)) {
    const missing = input.date === undefined ? names.date : names.time;
    throw new InputError(missing, 'given', '', `\`${missing}\` is missing: the entry needs an end`);
  }
}

/**
 * When an entry starts and ends, from a complete end (see {@link checkEndForm}) and an
 * optional start, read in `timeZone`: the start, the end (in the future), and the start
 * before the end. {@link planEntry} uses it, and so does the check of a prompted start.
 *
 * @param input `date` and `time`, or `for`; and `from` (empty means none)
 * @param timeZone canonical IANA zone
 * @param now epoch ms
 * @returns epoch ms; `stamp_start` null for "from the moment it is stored", which a start at
 *   or before `now` becomes too (then with a `notice` saying it starts now)
 * @throws InputError naming the field and the expected form
 */
export function planSpan(
  zones: ZoneRules,
  input: Pick<EntryInput, 'date' | 'time' | 'for' | 'from'>,
  timeZone: string,
  now: number,
  names: EntryFieldNames = CLI_FIELD_NAMES,
): EntrySpan {
  const from = input.from?.trim() ? input.from.trim() : undefined;
  const stampStart = from === undefined ? null : parseStart(zones, from, timeZone, names.from);
  const stampEnd = planEnd(zones, input, stampStart, timeZone, now, names);
  if (stampStart !== null && stampStart >= stampEnd) {
    throw new InputError(
      names.from,
      'before the end',
      from ?? '',
      `\`${names.from}\` must be before the end (${formatStamp(stampEnd, timeZone)}), got \`${from}\``,
    );
  }
  if (stampStart !== null && stampStart <= now) {
    // Kept as given, a past start would say the entry began when it did not. Stored as none,
    // it begins when the server stores it, which is what the owner is told.
    return {
      stamp_start: null,
      stamp_end: stampEnd,
      notice: `\`${names.from}\` ${from} has passed: the entry starts now`,
    };
  }
  return { stamp_start: stampStart, stamp_end: stampEnd };
}

/**
 * An entry's end, in the future: a date and time read in `timeZone`, or a duration from the
 * start (or from `now`). The check of a prompted end time uses it alone.
 *
 * @param stampStart epoch ms, or null when the entry starts when stored
 * @returns epoch ms
 * @throws InputError naming the field: a malformed or skipped date or time, a bad duration,
 *   or an end that is not in the future
 */
export function planEnd(
  zones: ZoneRules,
  input: Pick<EntryInput, 'date' | 'time' | 'for'>,
  stampStart: number | null,
  timeZone: string,
  now: number,
  names: EntryFieldNames = CLI_FIELD_NAMES,
): number {
  let stampEnd: number;
  let endText = input.for ?? '';
  if (input.for !== undefined) {
    stampEnd = (stampStart ?? now) + parseDurationMs(input.for, names.for);
  } else {
    const date = input.date ?? '';
    const time = input.time ?? '';
    stampEnd = zones.toEpochMs(date, time, timeZone, { date: names.date, time: names.time });
    endText = `${date} ${time}`;
  }
  if (stampEnd <= now) {
    throw new InputError(
      input.for === undefined ? names.time : names.for,
      'in the future',
      endText,
      input.for === undefined
        ? `\`${names.date}\` and \`${names.time}\` must be in the future, got \`${endText}\` in ${timeZone}`
        : `\`${names.from}\` plus \`${names.for}\` ends at ${formatStamp(stampEnd, timeZone)}, which has passed: the end must be in the future`,
    );
  }
  if (stampEnd >= INSTANTS_END_MS) {
    throw new InputError(
      input.for === undefined ? names.date : names.for,
      'before 2200',
      endText,
      input.for === undefined
        ? `\`${names.date}\` and \`${names.time}\` must be before 2200, got \`${endText}\`: the card keeps times to the end of 2199`
        : `\`${names.from}\` plus \`${names.for}\` ends at ${formatStamp(stampEnd, timeZone)}: the end must be before 2200`,
    );
  }
  return stampEnd;
}

/** A start given as one value, `YYYY-MM-DD HH:MM`, read in `timeZone`. */
function parseStart(zones: ZoneRules, value: string, timeZone: string, field: string): number {
  const parts = /^(\S+)\s+(\S+)$/.exec(value);
  if (!parts) throw new InputError(field, '"YYYY-MM-DD HH:MM"', value);
  return zones.toEpochMs(parts[1] ?? '', parts[2] ?? '', timeZone, { date: field, time: field });
}

/** When an entry starts and ends: epoch ms, and what the owner must be told about it. */
export interface EntrySpan {
  /** Epoch ms, or null for "from the moment it is stored". */
  stamp_start: number | null;
  stamp_end: number;
  /** E.g. a start that has passed: see {@link planSpan}. */
  notice?: string;
}

/**
 * A one-off `set` as given (the command line, or the prompts' answers so far), each field read
 * once: the zone canonical, every given field well-formed, and the span planned when the end
 * was given whole. What it lacks is asked for or refused by the caller; {@link planRequest}
 * plans the complete request.
 */
export interface SetRequest extends Omit<EntryInput, 'profile' | 'profiles' | 'timeZone'> {
  /** The profile as typed; its name is checked against the card's profiles when planned. */
  profile?: string;
  /** The canonical IANA zone of every date and time of the request. */
  timeZone: string;
  /** The start and end, when the request gave the whole end (a date and time, or `for`). */
  span?: EntrySpan;
}

/**
 * Reads what a `set` line gave, once and in the order its refusals are reported: the zone
 * (`timeZone`, the machine's by default), a profile that cannot be a profile's name at all, the
 * end's form (`for` never with a date or time), the date, the time, and when the end is given
 * whole, the span ({@link planSpan}: the start, the end in the future, the start before it).
 * The CLI's program and its light path both start here, so both refuse the same line with the
 * same words, before anything is sent or asked.
 *
 * @param zones how zones are read (Temporal's, or the light path's own zone)
 * @param input the fields as typed; `timeZone` undefined for the machine's
 * @param now epoch ms (the end must come after it)
 * @returns the request, its zone canonical, with its span when the end was given
 * @throws InputError naming the first field that is wrong and its expected form
 */
export function readSetRequest(
  zones: ZoneRules,
  input: Omit<SetRequest, 'timeZone' | 'span'> & { timeZone?: string },
  now: number,
  names: EntryFieldNames = CLI_FIELD_NAMES,
): SetRequest {
  const timeZone =
    input.timeZone === undefined
      ? zones.localTimeZone()
      : zones.parseTimeZone(input.timeZone, names.timeZone);
  // A name of a profile's form may be one the owner added: the card's list decides later.
  if (input.profile !== undefined && !PROFILE_NAME_FORM.test(input.profile.trim().toLowerCase())) {
    parseProfile(input.profile, names.profile);
  }
  if (input.for !== undefined) checkEndForm(input, names);
  if (input.date !== undefined) checkDate(input.date, names.date);
  if (input.time !== undefined) checkTime(input.time, names.time);
  const request: SetRequest = { ...input, timeZone };
  const whole = input.for !== undefined || (input.date !== undefined && input.time !== undefined);
  return whole ? { ...request, span: planSpan(zones, input, timeZone, now, names) } : request;
}
