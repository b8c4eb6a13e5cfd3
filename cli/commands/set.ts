import { Command } from 'commander';
import { SessionError, UsageError } from '../errors.js';
import { out, print, printJson } from '../output.js';
import { isInteractive } from '../prompts.js';
import type { Owner } from '../session.js';
import { explicitSettings, resolveConfig, type CliConfig } from '../settings.js';
import type { EntryInput } from '../../shared/calendar/plan.js';
import { profileChoices } from '../../shared/core/profiles.js';
import { profileLabel } from '../../shared/core/types.js';

/** The positional arguments of `namecard set`, as typed. */
export interface SetArgs {
  profile?: string;
  date?: string;
  time?: string;
}

/** The options of `namecard set` (global ones included), as typed. */
export interface SetOptions {
  tz?: string;
  from?: string;
  for?: string;
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

const FORMS = { profile: profileChoices(), date: 'YYYY-MM-DD', time: 'HH:MM (24-hour)' } as const;
const MISSING = { profile: profileChoices(), date: 'YYYY-MM-DD', time: 'HH:MM, 24-hour' } as const;
const USAGE =
  'Usage: namecard set <profile> <date> <time> [--from "YYYY-MM-DD HH:MM"] [--tz <zone>], or namecard set <profile> --for <duration>; without a terminal nothing can be asked';

/**
 * What the command line leaves to ask: the names of the missing arguments, in order. With
 * `--for`, only the profile is needed.
 */
export function missingArguments(args: SetArgs, options: SetOptions): (keyof SetArgs)[] {
  const needed: (keyof SetArgs)[] =
    options.for === undefined ? ['profile', 'date', 'time'] : ['profile'];
  return needed.filter((name) => args[name] === undefined);
}

/**
 * `namecard set`: checks everything given on the command line before asking or sending
 * anything, signs in, asks for what is missing at a terminal, stores the entry through
 * `planEntry` (which owns every rule of a new entry), and reports only what the server
 * confirmed: the stored entry, what visitors get now, and what follows.
 *
 * @param args the positional arguments as typed
 * @param options the options as typed
 * @throws InputError (exit 2) for a bad value; UsageError (exit 2) for a missing argument
 *   without a terminal; SessionError, ApiError, NetworkError, OutcomeUnknownError (exit 1)
 */
export async function runSet(args: SetArgs, options: SetOptions): Promise<void> {
  const config = resolveConfig(options);
  const [{ planEntry, parseProfile, CLI_FIELD_NAMES }, time, format] = await Promise.all([
    import('../../shared/calendar/plan.js'),
    import('../../shared/calendar/time.js'),
    import('../../shared/core/format.js'),
  ]);
  const zone =
    options.tz === undefined ? format.localTimeZone() : time.parseTimeZone(options.tz, '--tz');
  const input = (fields: Partial<EntryInput>): EntryInput => ({
    profile: args.profile ?? '',
    ...(options.for === undefined ? { date: args.date, time: args.time } : { for: options.for }),
    ...(options.from === undefined ? {} : { from: options.from }),
    timeZone: zone,
    ...fields,
  });

  // 1. Check everything given on the command line before asking or sending anything.
  if (args.profile !== undefined) parseProfile(args.profile);
  if (options.for !== undefined && (args.date !== undefined || args.time !== undefined)) {
    planEntry(input({}), Date.now()); // refuses the combination, naming `--for`
  }
  if (args.date !== undefined) time.parseDate(args.date);
  if (args.time !== undefined) time.parseTime(args.time);
  const missing = missingArguments(args, options);
  if (missing.length === 0) planEntry(input({}), Date.now());
  if (missing.length > 0 && !isInteractive()) {
    const names = missing.map((name) => `\`${name}\` (${MISSING[name]})`).join(', ');
    throw new UsageError(`missing argument${missing.length > 1 ? 's' : ''} ${names}`, USAGE);
  }

  // 2. The owner's session, before any question, so a signed-out user is told at once; at a
  //    terminal they may sign in right here instead of starting over with `namecard login`.
  const owner = await ownerOrSignIn(config, options);

  // 3. Ask for what is missing, each answer checked as it is typed.
  const { askProfile, askText } = await import('../prompts.js');
  const profile = args.profile ?? (await askProfile());
  let date = args.date;
  let clock = args.time;
  let from = options.from;
  if (missing.length > 0 && options.for === undefined) {
    const today = format.toWallClock(Date.now(), zone).date;
    date ??= await askText(`Until date (${FORMS.date})`, (value) => time.parseDate(value), today);
    const endDate = date;
    clock ??= await askText(`Until time (${MISSING.time}, ${zone})`, (value) => {
      planEntry(input({ profile, date: endDate, time: value, from: undefined }), Date.now());
    });
    const endClock = clock;
    if (from === undefined) {
      from = await askText(`From (YYYY-MM-DD HH:MM, empty = now)`, (value) => {
        planEntry(input({ profile, date: endDate, time: endClock, from: value }), Date.now());
      });
    }
  }
  const plan = planEntry(input({ profile, date, time: clock, from }), Date.now(), CLI_FIELD_NAMES);

  // 4. Insert, and report only what the server confirmed.
  const { insertEntry } = await import('../../shared/supabase/data.js');
  const row = await owner.transport.guard(() => insertEntry(owner.client, plan));
  const { readStatus, statusJson, timelineLines } = await import('../outlook.js');
  const status = await owner.transport.guard(() => readStatus(config, owner.transport.fetch));
  if (options.json) {
    printJson({
      profile: row.type,
      stamp_start: row.stamp_start ?? null,
      stamp_end: row.stamp_end,
      starts_at: row.stamp_start == null ? null : new Date(row.stamp_start).toISOString(),
      ends_at: new Date(row.stamp_end).toISOString(),
      time_zone: plan.timeZone,
      ...pick(statusJson(status, config), 'target', 'active', 'next', 'timeline'),
      row,
    });
    return;
  }
  // The entry exactly as stored, the zone named once; then the timeline in the same zone.
  const wall = (ms: number) => {
    const w = format.toWallClock(ms, plan.timeZone);
    return `${w.date} ${w.time}`;
  };
  const start = row.stamp_start == null ? '' : `from ${wall(row.stamp_start)} `;
  const end = format.formatStamp(row.stamp_end, plan.timeZone);
  const lines = [
    `${out.green('✔')} The card points to ${out.bold(row.type)} (${profileLabel(row.type)}) ${start}until ${end}`,
  ];
  const local = format.localTimeZone();
  if (local !== plan.timeZone) {
    lines.push(`  That is ${format.formatStamp(row.stamp_end, local)} here.`);
  }
  print(...lines, ...timelineLines(status, config, plan.timeZone, false));
}

/** The named fields of an object. */
function pick<T extends object, K extends keyof T>(value: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}

/**
 * The owner's client: the stored session (or CI credentials); when signed out (or the session
 * has expired) at a terminal, the offer to sign in now, as `namecard login` would.
 *
 * @throws SessionError when signed out without a terminal or when the offer is declined
 */
async function ownerOrSignIn(config: CliConfig, options: SetOptions): Promise<Owner> {
  const { requireOwner } = await import('../session.js');
  try {
    return await requireOwner(config);
  } catch (error) {
    if (!(error instanceof SessionError) || !isInteractive()) throw error;
    const { askConfirm } = await import('../prompts.js');
    if (
      !(await askConfirm(`${error.message.replace(/: run `namecard login`$/, '')}. Sign in now?`))
    ) {
      throw error;
    }
    const { signInInteractively } = await import('../sign-in.js');
    const { client, transport } = await signInInteractively(config, {
      settings: explicitSettings(options),
    });
    return { client, transport };
  }
}

export const setCommand = new Command('set')
  .description("set the card's profile and end time")
  .argument('[profile]', FORMS.profile)
  .argument('[date]', `the end date, ${FORMS.date}`)
  .argument('[time]', `the end time, ${FORMS.time}`)
  .option('--from <start>', 'start at "YYYY-MM-DD HH:MM" instead of now')
  .option('--for <duration>', 'end after 90m, 2h, 3d… (instead of date and time)')
  .option('--tz <zone>', "the IANA time zone of date and time (default: this machine's)")
  .option('--json', 'print the result as one JSON document')
  .addHelpText(
    'after',
    `
At a terminal, missing arguments are asked for. --from is read in the same time
zone as the end; --for counts from the start (or from now).

Examples:
  $ namecard set photo 2030-06-01 18:00
  $ namecard set photo 2030-06-01 18:00 --from "2030-06-01 09:00"
  $ namecard set photo --for 2h
  $ namecard set main 2030-06-01 09:30 --tz Europe/Berlin`,
  )
  .action(
    (
      profile: string | undefined,
      date: string | undefined,
      time: string | undefined,
      _options: SetOptions,
      command: Command,
    ) => runSet({ profile, date, time }, command.optsWithGlobals<SetOptions>()),
  );
