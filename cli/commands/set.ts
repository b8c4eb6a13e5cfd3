import { Command } from 'commander';
import { MissingPasswordError, SessionError, UsageError } from '../errors.js';
import { isInteractive } from '../terminal/prompts.js';
import type { OwnerWriter } from '../session/writer.js';
import { explicitSettings, resolveConfig, type CliConfig } from '../session/settings.js';
import type { EntryInput, EntryPlan } from '../../shared/calendar/plan.js';
import { isProfileType, profileChoices } from '../../shared/core/profiles.js';
import { hostEntryZone } from '../session/host-zone.js';
import { showSet } from '../terminal/set-show.js';

/** The positional arguments of `namecard set`, as typed. */
export interface SetArgs {
  profile?: string;
  date?: string;
  time?: string;
}

/** The options of `namecard set` (global ones included), as typed. */
export interface SetOptions {
  tz?: string;
  /** Weekdays of a weekly series (`sat`, `sat,sun`, `mon-fri`): `date` is then the time range. */
  every?: string;
  /** The last date of a weekly series. */
  until?: string;
  from?: string;
  for?: string;
  json?: boolean;
  apiUrl?: string;
  timeout?: string;
}

/** What `set` asks for, in order: the argument's help, its form in messages, its prompt. */
interface Step {
  /** The argument (`profile`, `date`, `time`) or option (`from`) the step fills in. */
  name: keyof SetArgs | 'from';
  /** Its help line, for the positional arguments. */
  help?: string;
  /** Its form, as a missing argument's message names it. */
  form: string;
  /** Whether the command line needs it: the end's date and time are not, with `--for`. */
  needed: (options: SetOptions) => boolean;
}

/**
 * The one table of `set`'s fields: the help of the arguments, the forms a missing argument's
 * message names, and (in {@link setFlow}) the prompt of each. `from` is an option: it is
 * offered at the prompts only when the command line left something to ask.
 */
const STEPS: readonly Step[] = [
  { name: 'profile', help: profileChoices(), form: profileChoices(), needed: () => true },
  {
    name: 'date',
    help: 'the end date, YYYY-MM-DD',
    form: 'YYYY-MM-DD',
    needed: (options) => options.for === undefined,
  },
  {
    name: 'time',
    help: 'the end time, HH:MM (24-hour)',
    form: 'HH:MM, 24-hour',
    needed: (options) => options.for === undefined,
  },
  { name: 'from', form: 'YYYY-MM-DD HH:MM', needed: () => false },
];

const step = (name: Step['name']): Step => STEPS.find((s) => s.name === name)!;

const USAGE =
  'Usage: namecard set <profile> <date> <time> [--from "YYYY-MM-DD HH:MM"] [--tz <zone>], or namecard set <profile> --for <duration>; without a terminal nothing can be asked';

/**
 * What the command line leaves to ask: the names of the missing arguments, in order. With
 * `--for`, only the profile is needed.
 */
export function missingArguments(args: SetArgs, options: SetOptions): (keyof SetArgs)[] {
  return STEPS.filter((s) => s.name !== 'from' && s.needed(options))
    .map((s) => s.name as keyof SetArgs)
    .filter((name) => args[name] === undefined);
}

type PlanModule = typeof import('../../shared/calendar/plan.js');
type TimeModule = typeof import('../../shared/calendar/time.js');

/** What {@link setFlow} needs from outside; a test passes its own (e.g. a counting planEntry). */
export interface SetFlowDeps<O> {
  /** The entry's rules (shared/calendar/plan.ts): `planEntry` is called once, at the end. */
  plan: Pick<PlanModule, 'readSetRequest' | 'planEntry' | 'parseProfile' | 'planSpan' | 'planEnd'>;
  /** The field parsers (shared/calendar/time.ts): a prompted date's check. */
  time: Pick<TimeModule, 'parseDate'>;
  /** The machine's IANA zone, the default of `--tz`. */
  localTimeZone: () => string;
  /** Today's date in `zone`, `YYYY-MM-DD`: the date prompt's default. */
  today: (zone: string) => string;
  /** The clock, epoch ms. */
  now: () => number;
  /** Whether a person can answer prompts. */
  interactive: boolean;
  /** The owner's session, before any question (may offer to sign in). */
  signIn: () => Promise<O>;
  /** Asks for the profile, offering these choices (the server's profiles, when known). */
  askProfile: (choices?: readonly { value: string; label: string }[]) => Promise<string>;
  /**
   * The card's profiles, from the server (not removed, in order), for a name that is not one
   * every card has (main, photo) and for the prompt; the built-in ones when absent.
   */
  profiles?: (owner: O) => Promise<readonly { value: string; label: string }[]>;
  /** Asks for a line, each answer checked as typed with `check` (which throws to refuse). */
  askText: (
    message: string,
    check: (value: string) => void,
    defaultValue?: string,
  ) => Promise<string>;
}

/**
 * `set` as a flow of steps: checks what the command line gave (each field with its own
 * check, before asking or sending anything), refuses what is missing without a terminal,
 * signs in, asks for each missing field (a step is skipped when its argument was given, each
 * answer checked by its field's check), and calls `planEntry` once, with the complete input.
 *
 * @returns the owner's session and the entry to store
 * @throws InputError (exit 2) for a bad value; UsageError (exit 2) for a missing argument
 *   without a terminal; whatever `signIn` throws
 */
export async function setFlow<O>(
  args: SetArgs,
  options: SetOptions,
  deps: SetFlowDeps<O>,
): Promise<{ owner: O; plan: EntryPlan }> {
  const { plan, time } = deps;
  // 1. Read everything given on the command line once, before asking or sending anything: the
  //    zone, each field in its form (a profile's name only when it cannot be a profile at all;
  //    any other name is checked against the server's list below).
  const request = plan.readSetRequest({
    ...args,
    for: options.for,
    from: options.from,
    timeZone: options.tz ?? deps.localTimeZone(),
  });
  const { timeZone } = request;
  const end = (fields: SetArgs): Pick<EntryInput, 'date' | 'time' | 'for'> =>
    options.for === undefined ? { date: fields.date, time: fields.time } : { for: options.for };

  const missing = missingArguments(args, options);
  if (missing.length === 0)
    plan.planSpan({ ...end(args), from: options.from }, timeZone, deps.now());
  if (missing.length > 0 && !deps.interactive) {
    const names = missing.map((name) => `\`${name}\` (${step(name).form})`).join(', ');
    throw new UsageError(`missing argument${missing.length > 1 ? 's' : ''} ${names}`, USAGE);
  }

  // 2. The owner's session, before any question, so a signed-out user is told at once; at a
  //    terminal they may sign in right here instead of starting over with `namecard login`.
  const owner = await deps.signIn();

  // 3. Ask for what is missing, each answer checked by its field's own check.
  const given: SetArgs & { from?: string } = { ...args, from: options.from };
  const builtIn = given.profile !== undefined && isProfileType(given.profile.trim().toLowerCase());
  // The server's profiles only when they matter (a name not every card has, or the prompt):
  // setting main or photo stays one request.
  const choices = builtIn || !deps.profiles ? undefined : await deps.profiles(owner);
  const profiles = choices?.map((choice) => choice.value);
  if (given.profile !== undefined) plan.parseProfile(given.profile, 'profile', profiles);
  given.profile ??= await deps.askProfile(choices);
  if (missing.length > 0 && options.for === undefined) {
    given.date ??= await deps.askText(
      `Until date (${step('date').form})`,
      (value) => time.parseDate(value),
      deps.today(timeZone),
    );
    given.time ??= await deps.askText(`Until time (${step('time').form}, ${timeZone})`, (value) => {
      plan.planEnd({ date: given.date, time: value }, null, timeZone, deps.now());
    });
    given.from ??= await deps.askText(`From (${step('from').form}, empty = now)`, (value) => {
      plan.planSpan({ ...end(given), from: value }, timeZone, deps.now());
    });
  }

  // 4. The entry, from the complete input: planEntry's one call.
  const entry = plan.planEntry(
    { profile: given.profile, ...end(given), from: given.from, timeZone, profiles },
    deps.now(),
  );
  return { owner, plan: entry };
}

/**
 * `namecard set`: runs {@link setFlow} (checks, sign-in, prompts, `planEntry` once), stores
 * the entry, and reports only what the server confirmed: the stored entry, what visitors get
 * now, and what follows.
 *
 * @param args the positional arguments as typed
 * @param options the options as typed
 * @throws InputError (exit 2) for a bad value; UsageError (exit 2) for a missing argument
 *   without a terminal; SessionError, ApiError, NetworkError, OutcomeUnknownError (exit 1)
 */
export async function runSet(args: SetArgs, options: SetOptions): Promise<void> {
  const config = resolveConfig(options);
  const [plan, time, format] = await Promise.all([
    import('../../shared/calendar/plan.js'),
    import('../../shared/calendar/time.js'),
    import('../../shared/core/format.js'),
  ]);
  // The machine's zone by the name the light path gives it too (cli/session/host-zone.ts).
  const localZone = () => hostEntryZone() ?? format.localTimeZone();
  const { owner, plan: entry } = await setFlow(args, options, {
    plan,
    time,
    localTimeZone: localZone,
    today: (zone) => format.toWallClock(Date.now(), zone).date,
    now: Date.now,
    interactive: isInteractive(),
    signIn: () => ownerOrSignIn(config, options),
    askProfile: async (choices) => (await import('../terminal/prompts.js')).askProfile(choices),
    profiles: async (owner) => {
      const { listProfiles } = await import('../../shared/supabase/data.js');
      const rows = await owner.run(({ client, transport }) =>
        transport.guard(() => listProfiles(client)),
      );
      return rows.map((row) => ({ value: row.name, label: row.label }));
    },
    askText: async (message, check, defaultValue) =>
      (await import('../terminal/prompts.js')).askText(message, check, defaultValue),
  });
  // Store it and learn what visitors get now in one request; report only what the server
  // confirmed.
  const { setEntry } = await import('../../shared/supabase/data.js');
  const stored = await owner.run(({ client, transport }) =>
    transport.guard(() => setEntry(client, entry), { act: 'set' }),
  );
  const { withLabels } = await import('../terminal/labels.js');
  const status = await withLabels(owner, stored.status, [stored.entry.type]);
  showSet({ ...stored, status }, entry, options, config, localZone());
}

/**
 * The owner's writer: the stored session (or CI credentials); when signed out (or the session
 * has expired, or NAMECARD_EMAIL comes without NAMECARD_PASSWORD) at a terminal, the offer to
 * sign in now, as `namecard login` would.
 *
 * @throws SessionError or MissingPasswordError without a terminal or when the offer is declined
 */
async function ownerOrSignIn(config: CliConfig, options: SetOptions): Promise<OwnerWriter> {
  const { requireWriter, writerFor } = await import('../session/writer.js');
  try {
    return await requireWriter(config);
  } catch (error) {
    const halfSet = error instanceof MissingPasswordError;
    if (!(error instanceof SessionError || halfSet) || !isInteractive()) throw error;
    const { askConfirm } = await import('../terminal/prompts.js');
    const question = halfSet
      ? 'NAMECARD_EMAIL is set without NAMECARD_PASSWORD. Sign in now?'
      : `${error.message.replace(/: run `namecard login`$/, '')}. Sign in now?`;
    if (!(await askConfirm(question))) throw error;
    const { signInInteractively } = await import('../session/sign-in.js');
    const { client, transport } = await signInInteractively(config, {
      settings: explicitSettings(options),
      ...(halfSet ? { suggestedEmail: process.env.NAMECARD_EMAIL?.trim() } : {}),
    });
    return writerFor({ client, transport });
  }
}

export const setCommand = new Command('set')
  .description("set the card's profile and end time")
  .argument('[profile]', step('profile').help)
  .argument('[date]', step('date').help)
  .argument('[time]', step('time').help)
  .option(
    '--from <start>',
    'start at "YYYY-MM-DD HH:MM" instead of now (with --every: the first date)',
  )
  .option(
    '--every <days>',
    'repeat weekly on these days (sat, sat,sun, mon-fri); then give HH:MM-HH:MM',
  )
  .option('--until <date>', 'with --every: the last date, YYYY-MM-DD')
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
  $ namecard set main 2030-06-01 09:30 --tz Europe/Berlin
  $ namecard set photo --every sat 10:00-18:00 --tz Europe/Berlin`,
  )
  .action(
    (
      profile: string | undefined,
      date: string | undefined,
      time: string | undefined,
      _options: SetOptions,
      command: Command,
    ) => {
      const options = command.optsWithGlobals<SetOptions>();
      if (options.every !== undefined) {
        return import('./set-series.js').then(({ runSetSeries }) =>
          runSetSeries(profile, date, time, { ...options, every: options.every! }),
        );
      }
      if (options.until !== undefined) {
        throw new UsageError('--until goes with --every (a weekly series)', USAGE);
      }
      return runSet({ profile, date, time }, options);
    },
  );
