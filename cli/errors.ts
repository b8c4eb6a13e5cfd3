import {
  ApiError,
  ConfigError,
  InputError,
  NamecardError,
  NetworkError,
  refusalOf,
  TimeoutError,
  type RefusalCode,
} from '../shared/core/errors.js';
import { describeRefusal, REFUSAL_WORDS } from '../shared/core/describe.js';
import { cardRefusalOf, neededRole, type CardRole } from '../shared/core/cards.js';
import { SITE_URL_SETTING } from '../shared/core/card-link.js';
import { DEFAULT_SUPABASE_URL } from '../shared/core/config.js';
import { displayValue, sanitizeMessage, sanitizeServerMessage } from './terminal/display.js';
import { err } from './terminal/output.js';

// Every failure the CLI reports, and the one handler that turns each into a message on stderr
// and an exit code. Only the entry point exits the process, with the code handleError returns.

/** Exit codes: 0 success, 1 failure, 2 usage (the command line is wrong), 130 cancelled. */
export const EXIT = { ok: 0, failure: 1, usage: 2, cancelled: 130 } as const;

/** The command line is wrong: a missing argument, or an argument that cannot be prompted for. */
export class UsageError extends NamecardError {
  constructor(message: string, hint?: string) {
    super('usage', message, hint);
  }
}

/** No usable session: signed out, signed in to another API URL, or the server rejected it. */
export class SessionError extends NamecardError {
  constructor(code: 'signed_out' | 'session_expired', message: string) {
    super(code, message);
  }
}

/**
 * "You are not signed in", saying so when the stored session is for another API URL.
 *
 * @param apiUrl the API URL in use
 * @param storedUrl the API URL of the stored session, if there is one
 */
export function signedOut(apiUrl: string, storedUrl?: string): SessionError {
  return new SessionError(
    'signed_out',
    storedUrl && storedUrl !== apiUrl
      ? `You are not signed in to ${apiUrl} (the stored session is for ${storedUrl}): run \`namecard login\``
      : 'You are not signed in: run `namecard login`',
  );
}

/**
 * NAMECARD_EMAIL is set without NAMECARD_PASSWORD and nothing else signs in: half of the CI
 * sign-in, a mistake in the command's environment (exit 2), not a session that ran out.
 */
export class MissingPasswordError extends UsageError {
  constructor() {
    super(
      '`NAMECARD_EMAIL` is set but `NAMECARD_PASSWORD` is not: set both to sign in for each run, or unset `NAMECARD_EMAIL`',
      'Or sign in once with `namecard login --email <email> --password-stdin` (the password on stdin)',
    );
  }
}

/** Where a password that is not typed at a prompt came from. */
export type PasswordSource = 'stdin' | 'env';

const PASSWORD_SOURCES: Readonly<Record<PasswordSource, { what: string; hint: string }>> = {
  stdin: {
    what: 'the password read from stdin (`--password-stdin`)',
    hint: 'Check what the script writes to stdin (one final line break is dropped; any other space is part of the password) and `--email`',
  },
  env: {
    what: 'the password in `NAMECARD_PASSWORD`',
    hint: "Check `NAMECARD_EMAIL` and `NAMECARD_PASSWORD` in this command's environment (a CI secret may be stale), or unset both to use the session `namecard login` keeps",
  },
};

/**
 * The server refused an email and password that did not come from a prompt: the message says
 * which source held the password, so a script's owner knows what to fix.
 */
export class WrongPasswordError extends NamecardError {
  readonly source: PasswordSource;

  /**
   * @param source where the password came from
   * @param email the email it was sent with (shown; never the password)
   * @param serverMessage the server's words (`Invalid login credentials`)
   */
  constructor(source: PasswordSource, email: string, serverMessage: string) {
    const words = PASSWORD_SOURCES[source];
    super(
      'invalid_credentials',
      `${words.what} was not accepted for ${email}: ${serverMessage}`,
      words.hint,
    );
    this.source = source;
  }
}

/**
 * `error` as a {@link WrongPasswordError} when it is the server's refusal of the email and
 * password themselves (GoTrue's `invalid_credentials`), else `error` as it is.
 */
export function fromPasswordSource(error: unknown, source: PasswordSource, email: string): unknown {
  return error instanceof ApiError && error.code === 'invalid_credentials'
    ? new WrongPasswordError(source, email, error.message)
    : error;
}

/** What to do after a write whose outcome is unknown: look before setting it again. */
export const OUTCOME_UNKNOWN_HINT =
  'Check with `namecard status` (or `namecard list`) whether it was saved before setting it again';

/**
 * The writes, as the command that sends one names it (`Transport.guard`'s `act`): what
 * an "outcome unknown" says may or may not have happened. Decided by the command, which knows
 * what it asked for, never guessed from the request's URL.
 */
export type WriteAct =
  'set' | 'end' | 'cancel' | 'profile change' | 'card change' | 'member change' | 'token change';

/** Each act's words: the request, what may or may not have happened, and where to look. */
const ACT_WORDS: Readonly<
  Record<WriteAct | 'write', { request: string; outcome: string; hint: string }>
> = {
  set: {
    request: 'the set request',
    outcome: 'the entry may or may not have been saved',
    hint: OUTCOME_UNKNOWN_HINT,
  },
  end: {
    request: 'the end request',
    outcome: 'the entries in force may or may not have been ended',
    hint: 'Check with `namecard status` what visitors get now before ending it again',
  },
  cancel: {
    request: 'the cancel request',
    outcome: 'the entry may or may not have been cancelled',
    hint: 'Check with `namecard list` whether the entry was cancelled before cancelling it again',
  },
  'profile change': {
    request: 'the profile change',
    outcome: 'the profile change may or may not have been saved',
    hint: 'Check the profiles before changing them again',
  },
  'card change': {
    request: 'the card change',
    outcome: 'the card change may or may not have been saved',
    hint: 'Check with `namecard card list` before trying again',
  },
  'member change': {
    request: 'the member change',
    outcome: 'the member change may or may not have been saved',
    hint: 'Check with `namecard member list` before trying again',
  },
  'token change': {
    request: 'the token change',
    outcome: 'the token change may or may not have been saved',
    hint: 'Check with `namecard token list` before trying again',
  },
  // A write no command named (none today): still never retried, in general words.
  write: {
    request: 'the change',
    outcome: 'the change may or may not have been saved',
    hint: 'Check with `namecard status` (or `namecard list`) whether it was saved before trying again',
  },
};

/** How a failed write's request is named in a message ("answered 502 … to the set request"). */
export function writeRequestName(act: WriteAct | undefined): string {
  return ACT_WORDS[act ?? 'write'].request;
}

/**
 * A data write was sent but its answer does not say whether the server stored it: a gateway
 * error, a time-out, an answer that is not JSON, or a connection that broke. Never retried,
 * never reported as a success.
 */
export class OutcomeUnknownError extends NamecardError {
  /** The write, as the command named it; undefined for a write no command named. */
  readonly act: WriteAct | undefined;

  /**
   * @param what what happened, e.g. "No answer from <url> within 15000 ms"
   * @param act the write the command asked for (set, end, cancel, profile change)
   */
  constructor(what: string, act?: WriteAct) {
    const words = ACT_WORDS[act ?? 'write'];
    super('outcome_unknown', `${what}, so ${words.outcome}`, words.hint);
    this.act = act;
  }
}

/**
 * The stored config cannot be used (not JSON, wrong types, unreadable). The message names
 * the file and the way out: `namecard logout` deletes it, `namecard login` replaces it.
 */
export class BrokenConfigFileError extends ConfigError {
  readonly file: string;

  constructor(file: string, problem: string) {
    super(
      file,
      `The stored config ${file} ${problem}: run \`namecard logout\` to delete it (or delete the file), then \`namecard login\``,
    );
    this.file = file;
  }
}

/**
 * Commander's own errors (unknown option, too many arguments, `--help` shown), recognised by
 * their shape so that this module does not load commander: `namecard status` never does.
 */
function isCommanderError(error: unknown): error is Error & { code: string; exitCode: number } {
  const { code, exitCode } = (error ?? {}) as { code?: unknown; exitCode?: unknown };
  return (
    error instanceof Error &&
    typeof code === 'string' &&
    code.startsWith('commander.') &&
    typeof exitCode === 'number'
  );
}

const TIMEOUT_HINT = 'Try again, or allow more time with `--timeout <ms>`';

const KEY_HINT =
  'Check `SUPABASE_ANON_KEY`: it must be the anon (public) key of the project that `SUPABASE_URL` points to';

const DEFAULT_URL_HINT = `${DEFAULT_SUPABASE_URL} is the local emulator, used when \`SUPABASE_URL\` is not set: start it with \`npm start\` or \`npm run emulator\` in the project folder, or set \`SUPABASE_URL\` (or \`--api-url\`) to your project's API URL`;

/** What to check when an API URL other than the emulator's cannot be reached. */
const urlHint = (url: string) =>
  `Check that ${url} is your project's API URL (from \`--api-url\`, \`SUPABASE_URL\` or the one saved at \`namecard login\`) and that this machine's network reaches it`;

/** Where to turn when an account may not change a card: another account, or another card. */
const NOT_EDITOR_WAYS =
  'Sign in with `namecard login` as an owner or editor of the card, or choose one of your cards with `--card <slug>`';

/** {@link NOT_EDITOR_WAYS}, and where the user's cards are listed. */
export const NOT_EDITOR_HINT = `${NOT_EDITOR_WAYS} (\`namecard card list\`)`;

/**
 * Why a signed-in account may not change a card, in one sentence (lower case, no full stop):
 * `whoami` and `login` say it before a write is refused, in the refusal's shared words
 * (REFUSAL_WORDS.not_owner) with the card's slug.
 *
 * @param card the run's card's slug
 */
export function notEditorSentence(card: string): string {
  return `${REFUSAL_WORDS.not_owner} ${card}: it is neither an owner nor an editor of it`;
}

/** What a caller with no card at all may do: join one, or make one. */
const NO_CARD_HINT =
  'Accept an invitation to a card with `namecard member accept <code>`, or add a card of your own with `namecard card add <slug>`';

/** Who made a refused call: a person signed in, or a card token (NAMECARD_TOKEN). */
export type CallerKind = 'person' | 'token';

/**
 * A refusal of a call in the user's words, naming the card and what is needed: a role too low
 * (`needs editor`), a card token asked for what only a person may do (`needs a person`), and a
 * caller who is a member of no card at all (the run's card was then main), and an entry id the
 * card does not have (ids are of one card). Where the refusal
 * does not say what is needed (row-level security, or a function not granted to a card token's
 * role), `on.need` says it. Any other error is returned as it is.
 *
 * @param error what the call threw
 * @param on.card the slug of the card the call was about, if any
 * @param on.caller who made the call
 * @param on.need what the command needs, for a refusal that does not say it
 * @param on.noCards true when the caller is a member of no card
 */
export function refusalOnCard(
  error: unknown,
  on: { card?: string; caller: CallerKind; need?: CardRole | 'person'; noCards?: boolean },
): unknown {
  if (!(error instanceof ApiError)) return error;
  const refusal = cardRefusalOf(error);
  const unsaid = refusal === undefined && refusalOf(error) === 'not_owner' ? on.need : undefined;
  const onCard = on.card === undefined ? '' : ` on the card ${on.card}`;
  // The server's own answer stays the cause: NAMECARD_DEBUG=1 shows it.
  const refused = (code: string, message: string, hint: string) =>
    Object.assign(new NamecardError(code, message, hint), { cause: error });
  if (refusal === 'needs_person' || (unsaid === 'person' && on.caller === 'token')) {
    return refused(
      'needs_person',
      `a card token cannot do this${onCard}: needs a person signed in`,
      'Unset NAMECARD_TOKEN and sign in with `namecard login`',
    );
  }
  const role = neededRole(error) ?? (unsaid === 'person' ? undefined : unsaid);
  if (role && on.card !== undefined) {
    const { message, hint } = roleRefusal(role, on.card, on.caller);
    return refused('needs_role', message, hint);
  }
  if (refusal === undefined && refusalOf(error) === 'no_such_entry' && on.card !== undefined) {
    // An id is of one card: one read off another card's list is not this card's.
    return refused(
      'no_such_entry',
      `${sanitizeServerMessage(error.message)} on the card ${on.card}`,
      `See the entries of ${on.card} and their ids with \`namecard list --card ${on.card}\``,
    );
  }
  if (refusal === 'no_such_card' && on.noCards && on.card !== undefined) {
    return refused(
      'no_card',
      `this account is a member of no card, so it may not act on the card ${on.card}`,
      NO_CARD_HINT,
    );
  }
  return error;
}

/** A role too low for a call on `card`: the words naming the role needed, and where to turn. */
function roleRefusal(
  role: CardRole,
  card: string,
  caller: CallerKind,
): { message: string; hint: string } {
  const hint =
    caller === 'person'
      ? `Ask one of the owners of ${card} (\`namecard member role\`)`
      : role === 'owner'
        ? `A card token never owns its card: unset NAMECARD_TOKEN and sign in with \`namecard login\` as an owner of ${card}`
        : `Ask an owner of ${card} for an editor token (\`namecard token create\`)`;
  const who = caller === 'token' ? "the token's role" : 'your role';
  return { message: `${who} on the card ${card} does not allow this: needs ${role}`, hint };
}

/** A refused cancel: the server's words name the entry and what it is. */
const LIST_HINT = 'See the entries and their ids with `namecard list`';

/**
 * The CLI's next step after each of the database's refusals; the words themselves are shared
 * (shared/core/describe.ts). The server's own text stays in the error (shown with
 * NAMECARD_DEBUG=1).
 */
const REFUSAL_HINTS: Readonly<Record<RefusalCode, string>> = {
  not_owner: `${NOT_EDITOR_WAYS} (\`namecard card list\`; NAMECARD_DEBUG=1 shows the server's answer)`,
  entry_refused: 'Check the date and time, and `--from`',
  no_such_entry: LIST_HINT,
  entry_stopped: LIST_HINT,
};

/** The API gateway's answers to a missing or wrong anon key (Supabase's Kong, the emulator). */
function isKeyRefused(error: ApiError): boolean {
  return (
    error.status === 401 &&
    (error.message === 'Invalid API key' || error.message === 'No API key found in request')
  );
}

/** The message of an input error with the value it echoes shortened and made printable. */
function inputMessage(error: InputError): string {
  const shown = displayValue(error.got);
  return shown === error.got ? error.message : error.message.split(error.got).join(shown);
}

/** Commander's exits after it printed help or the version itself: nothing more to say. */
const COMMANDER_PRINTED = new Set([
  'commander.help',
  'commander.helpDisplayed',
  'commander.version',
]);

/**
 * A refusal about cards and people (shared/core/cards.ts) that no command put in words of its
 * card (refusalOnCard): a role too low names the role needed ("needs editor"); the others (no
 * such card, member or invitation, the last owner, the card main, a slug taken) keep the server's
 * words, which name what was refused. Exit 1: nothing was stored.
 */
function cardRefusal(error: ApiError): { message: string; hint?: string; code: number } {
  const role = neededRole(error);
  if (role) {
    return {
      message: `your role on this card does not allow this: needs ${role}`,
      hint: error.hint ?? "Ask one of the card's owners (`namecard member role`)",
      code: EXIT.failure,
    };
  }
  return { message: error.message, hint: error.hint, code: EXIT.failure };
}

/** The message and exit code for any error; messages never contain a secret. */
function describe(
  error: unknown,
  usageHint?: string,
): { message?: string; hint?: string; code: number } {
  if (isCommanderError(error)) {
    if (COMMANDER_PRINTED.has(error.code) || error.exitCode === 0) {
      return { code: error.exitCode === 0 ? EXIT.ok : EXIT.usage };
    }
    // Commander's usage errors read "error: too many arguments …": one prefix is added below.
    return { message: error.message.replace(/^error: /, ''), hint: usageHint, code: EXIT.usage };
  }
  if (error instanceof Error && error.name === 'ExitPromptError') {
    return { message: 'Operation cancelled', code: EXIT.cancelled };
  }
  if (error instanceof InputError) {
    return { message: inputMessage(error), hint: error.hint, code: EXIT.usage };
  }
  if (error instanceof ConfigError && error.setting === SITE_URL_SETTING) {
    // Like a bad `--site-url`: the site URL is what the user gives `link` and `qr` to work with.
    return { message: error.message, hint: error.hint, code: EXIT.usage };
  }
  if (error instanceof UsageError) {
    return { message: error.message, hint: error.hint, code: EXIT.usage };
  }
  if (error instanceof TimeoutError) {
    return { message: error.message, hint: TIMEOUT_HINT, code: EXIT.failure };
  }
  if (error instanceof NetworkError) {
    const hint =
      error.url === DEFAULT_SUPABASE_URL ? DEFAULT_URL_HINT : (error.hint ?? urlHint(error.url));
    return { message: error.message, hint, code: EXIT.failure };
  }
  if (error instanceof ApiError && cardRefusalOf(error) !== undefined) return cardRefusal(error);
  const refusal = refusalOf(error);
  if (error instanceof ApiError && refusal !== undefined) {
    return {
      message: describeRefusal(refusal, error),
      hint: REFUSAL_HINTS[refusal],
      code: EXIT.failure,
    };
  }
  if (error instanceof ApiError && error.status === 429) {
    // The server's own words ("Request rate limit reached"). GoTrue does not say when the
    // window ends (no Retry-After), so the hint gives the usual wait.
    const hint =
      'The server limits sign-ins per address and time window: wait a few minutes, then try again';
    return { message: error.message, hint, code: EXIT.failure };
  }
  if (error instanceof ApiError && isKeyRefused(error)) {
    return { message: error.message, hint: KEY_HINT, code: EXIT.failure };
  }
  if (
    error instanceof ConfigError ||
    error instanceof OutcomeUnknownError ||
    error instanceof SessionError ||
    error instanceof ApiError
  ) {
    return { message: error.message, hint: error.hint, code: EXIT.failure };
  }
  if (error instanceof NamecardError && error.code === 'no_such_profile') {
    // A profile name the card never had is a typo, as `set`'s unknown profile is: bad input.
    return { message: error.message, hint: error.hint, code: EXIT.usage };
  }
  if (error instanceof NamecardError) {
    // The module's own refusals in the user's words (a profile that exists, is in use, …).
    return { message: error.message, hint: error.hint, code: EXIT.failure };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: `Unexpected error: ${message}`, code: EXIT.failure };
}

/**
 * The one error handler: prints the error on stderr (the stack too with NAMECARD_DEBUG=1) and
 * returns the exit code for the entry point to use.
 *
 * @param usageHint the usage line shown under a usage error of commander's own (an unknown
 *   option, too many arguments), for the command that refused the line
 */
export function handleError(error: unknown, usageHint?: string): number {
  const described = describe(error, usageHint);
  const { code } = described;
  // A server's words stay on one line; the CLI's own (commander's "(Did you mean …?)") may not.
  const clean = error instanceof ApiError ? sanitizeServerMessage : sanitizeMessage;
  const message = described.message === undefined ? undefined : clean(described.message);
  const hint = described.hint === undefined ? undefined : clean(described.hint);
  if (message !== undefined) {
    const text = code === EXIT.cancelled ? message : `${err.red('error:')} ${message}`;
    process.stderr.write(`${text}\n`);
  }
  if (hint) process.stderr.write(`${err.dim(hint)}\n`);
  if (process.env.NAMECARD_DEBUG === '1' && error instanceof Error && message !== undefined) {
    process.stderr.write(`${sanitizeMessage(error.stack ?? String(error))}\n`);
    // The chain of causes, e.g. "fetch failed" ← "connect ECONNREFUSED 127.0.0.1:54321".
    let cause = error.cause;
    for (let depth = 0; cause !== undefined && depth < 5; depth++) {
      process.stderr.write(
        `cause: ${sanitizeMessage(cause instanceof Error ? (cause.stack ?? String(cause)) : String(cause))}\n`,
      );
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return code;
}
