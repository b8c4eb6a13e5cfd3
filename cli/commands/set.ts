import { MissingPasswordError, SessionError, UsageError } from '../errors.js';
import { commandOf } from '../grammar/commander.js';
import { isInteractive } from '../terminal/prompts.js';
import type { RunCaller } from '../session/caller.js';
import type { OnCard } from '../session/cards.js';
import { explicitSettings, resolveConfig, type CliConfig } from '../session/settings.js';
import type { EntryInput, EntryPlan, SetRequest } from '../../shared/calendar/plan.js';
import { isProfileType } from '../../shared/core/profiles.js';
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

/** What `set` asks for, in order: its form in messages, its prompt. */
interface Step {
  /** The argument (`profile`, `date`, `time`) or option (`from`) the step fills in. */
  name: keyof SetArgs | 'from';
  /** Its form, as a missing argument's message names it (the arguments' help is the grammar's). */
  form: string;
  /** Whether the command line needs it: the end's date and time are not, with `--for`. */
  needed: (options: SetOptions) => boolean;
}

/**
 * The one table of `set`'s fields: the forms a missing argument's message names, and (in
 * {@link setFlow}) the prompt of each. `from` is an option: it is offered at the prompts only
 * when the command line left something to ask. The profile is any of the card's, which only
 * the server knows: the form points to `namecard profile list`, and the prompt lists them.
 */
const STEPS: readonly Step[] = [
  { name: 'profile', form: 'a profile, see `namecard profile list`', needed: () => true },
  { name: 'date', form: 'YYYY-MM-DD', needed: (options) => options.for === undefined },
  { name: 'time', form: 'HH:MM, 24-hour', needed: (options) => options.for === undefined },
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

/** What {@link setFlow} needs from outside; a test passes its own (e.g. a counting planRequest). */
export interface SetFlowDeps<O> {
  /**
   * The entry's rules (shared/calendar/plan.ts): `readSetRequest` reads the line once, and
   * `planRequest` plans the completed request once, at the end.
   */
  plan: Pick<
    PlanModule,
    'readSetRequest' | 'planRequest' | 'parseProfile' | 'planSpan' | 'planEnd'
  >;
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
  /** The run's caller and card, before any question (may offer to sign in). */
  signIn: () => Promise<O>;
  /** Asks for the profile, offering these choices (the server's profiles, when known). */
  askProfile: (choices?: readonly { value: string; label: string }[]) => Promise<string>;
  /**
   * The card's profiles, from the server (not removed, in order), for a name that is not one
   * every card has (main, photo) and for the prompt; the built-in ones when absent.
   */
  profiles?: (caller: O) => Promise<readonly { value: string; label: string }[]>;
  /** Asks for a line, each answer checked as typed with `check` (which throws to refuse). */
  askText: (
    message: string,
    check: (value: string) => void,
    defaultValue?: string,
  ) => Promise<string>;
}

/**
 * `set` as a flow of steps: reads what the command line gave once (`readSetRequest`: the zone,
 * each field with its own check, the span when the end is whole, before asking or sending
 * anything), refuses what is missing without a terminal, signs in, checks the profile once
 * (against the card's profiles when it is not main or photo), asks for each missing field (a
 * step is skipped when its argument was given, each answer checked by its field's check), and
 * calls `planRequest` once, with the complete request.
 *
 * @returns the caller on its card and the entry to store
 * @throws InputError (exit 2) for a bad value; UsageError (exit 2) for a missing argument
 *   without a terminal; whatever `signIn` throws
 */
export async function setFlow<O>(
  args: SetArgs,
  options: SetOptions,
  deps: SetFlowDeps<O>,
): Promise<{ caller: O; plan: EntryPlan }> {
  const { plan } = deps;
  // 1. Read everything given on the command line once, before asking or sending anything: the
  //    zone, each field in its form (a profile's name only when it cannot be a profile at all;
  //    any other name is checked against the server's list below), the span when it is whole.
  const request = plan.readSetRequest(
    { ...args, for: options.for, from: options.from, timeZone: options.tz ?? deps.localTimeZone() },
    deps.now(),
  );
  const missing = missingArguments(args, options);
  if (missing.length > 0 && !deps.interactive) {
    const names = missing.map((name) => `\`${name}\` (${step(name).form})`).join(', ');
    throw new UsageError(`missing argument${missing.length > 1 ? 's' : ''} ${names}`, USAGE);
  }

  // 2. The caller and the card, before any question, so a signed-out user is told at once (at a
  //    terminal they may sign in right here instead of starting over with `namecard login`),
  //    and a token run naming another card is refused before anything is asked or sent.
  const caller = await deps.signIn();

  // 3. The profile, checked once: main and photo as every card has them; any other name (or
  //    the prompt's choice) against the server's profiles, read only then, so that setting main
  //    or photo stays one request.
  const typed = args.profile?.trim().toLowerCase();
  const builtIn = typed !== undefined && isProfileType(typed);
  const choices = builtIn || !deps.profiles ? undefined : await deps.profiles(caller);
  const profiles = choices?.map((choice) => choice.value);
  const type =
    builtIn && typed !== undefined
      ? typed
      : plan.parseProfile(args.profile ?? (await deps.askProfile(choices)), 'profile', profiles);

  // 4. Ask for what is missing, each answer checked by its field's own check; then the entry,
  //    from the complete request: planRequest's one call.
  const complete = missing.length > 0 ? await askEnd(request, options, deps) : request;
  return { caller, plan: plan.planRequest(complete, type, deps.now()) };
}

/**
 * The end's date and time and the start, asked for when the command line left something to
 * ask (never with `--for`), each answer checked as it is typed.
 *
 * @returns the request with the answers, its span left to be planned again when any was asked
 */
async function askEnd<O>(
  request: SetRequest,
  options: SetOptions,
  deps: SetFlowDeps<O>,
): Promise<SetRequest> {
  if (options.for !== undefined) return request;
  const { plan, time } = deps;
  const { timeZone } = request;
  const end = (fields: SetArgs): Pick<EntryInput, 'date' | 'time'> => ({
    date: fields.date,
    time: fields.time,
  });
  const given: SetRequest = { ...request };
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
  const asked = (['date', 'time', 'from'] as const).some((key) => given[key] !== request[key]);
  if (!asked) return request;
  const { span: _span, ...answered } = given;
  return answered;
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
  const { caller: on, plan: entry } = await setFlow(args, options, {
    plan,
    time,
    localTimeZone: localZone,
    today: (zone) => format.toWallClock(Date.now(), zone).date,
    now: Date.now,
    interactive: isInteractive(),
    signIn: () => callerOrSignIn(config, options),
    askProfile: async (choices) => (await import('../terminal/prompts.js')).askProfile(choices),
    profiles: async ({ caller, card }) => {
      const { listProfiles } = await import('../../shared/supabase/data.js');
      const rows = await caller.run(({ client, transport }) =>
        transport.guard(() => listProfiles(client, { card: card.slug })),
      );
      return rows.map((row) => ({ value: row.name, label: row.label }));
    },
    askText: async (message, check, defaultValue) =>
      (await import('../terminal/prompts.js')).askText(message, check, defaultValue),
  });
  // Store it and learn what visitors get now in one request; report only what the server
  // confirmed.
  const { caller, card } = on;
  const { setEntry } = await import('../../shared/supabase/data.js');
  const stored = await caller.run(({ client, transport }) =>
    transport.guard(() => setEntry(client, entry, card.slug), { act: 'set' }),
  );
  const { withLabels } = await import('../terminal/labels.js');
  const status = await withLabels(caller, stored.status, [stored.entry.type], card.slug);
  // The machine's zone is the entry's unless `--tz` named another.
  showSet(
    { ...stored, status },
    entry,
    options,
    on.config,
    options.tz === undefined ? entry.timeZone : localZone(),
  );
}

/**
 * The run's caller on its card: a card token, CI credentials or the stored session; when signed
 * out (or the session has expired, or NAMECARD_EMAIL comes without NAMECARD_PASSWORD) at a
 * terminal, the offer to sign in now, as `namecard login` would.
 *
 * @throws SessionError or MissingPasswordError without a terminal or when the offer is declined;
 *   CardConflictError (exit 2) for a token run naming another card
 */
async function callerOrSignIn(config: CliConfig, options: SetOptions): Promise<OnCard> {
  const [{ requireCaller, callerFor }, { onRunCard }] = await Promise.all([
    import('../session/caller.js'),
    import('../session/cards.js'),
  ]);
  let caller: RunCaller;
  try {
    caller = await requireCaller(config);
  } catch (error) {
    const halfSet = error instanceof MissingPasswordError;
    if (!(error instanceof SessionError || halfSet) || !isInteractive()) throw error;
    const { askConfirm } = await import('../terminal/prompts.js');
    const question = halfSet
      ? 'NAMECARD_EMAIL is set without NAMECARD_PASSWORD. Sign in now?'
      : `${error.message.replace(/: run `namecard login`$/, '')}. Sign in now?`;
    if (!(await askConfirm(question))) throw error;
    const [{ signInInteractively }, { connectAs }] = await Promise.all([
      import('../session/sign-in.js'),
      import('../session/connect.js'),
    ]);
    const { session } = await signInInteractively(config, {
      settings: explicitSettings(options),
      ...(halfSet ? { suggestedEmail: process.env.NAMECARD_EMAIL?.trim() } : {}),
    });
    caller = callerFor(connectAs(config, session));
  }
  return onRunCard(config, { caller });
}

export const setCommand = commandOf('set', ({ args, options }) => {
  if (options.every !== undefined) {
    return import('./set-series.js').then(({ runSetSeries }) =>
      runSetSeries(args.profile, args.date, args.time, { ...options, every: options.every! }),
    );
  }
  if (options.until !== undefined) {
    throw new UsageError('--until goes with --every (a weekly series)', USAGE);
  }
  return runSet(args, options);
});
