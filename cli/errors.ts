import {
  ApiError,
  ConfigError,
  InputError,
  NamecardError,
  NetworkError,
  TimeoutError,
} from '../shared/core/errors.js';
import { DEFAULT_SUPABASE_URL } from '../shared/core/config.js';
import { displayValue, sanitizeMessage } from './display.js';
import { OUTCOME_UNKNOWN_HINT, OutcomeUnknownError } from './outcome.js';
import { err } from './output.js';

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

const TIMEOUT_HINT = 'Try again, or allow more time with `--timeout <ms>`';

const KEY_HINT =
  'Check `SUPABASE_ANON_KEY`: it must be the anon (public) key of the project that `SUPABASE_URL` points to';

const DEFAULT_URL_HINT = `${DEFAULT_SUPABASE_URL} is the local emulator, used when \`SUPABASE_URL\` is not set: start it with \`npm run emulator\`, or set \`SUPABASE_URL\` (or \`--api-url\`) to your project's API URL`;

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

/**
 * Commander's own errors (`code` "commander.…" and an `exitCode`), recognised by shape: an
 * `instanceof CommanderError` would load commander, which `namecard status` runs without.
 */
function isCommanderError(error: unknown): error is { code: string; exitCode: number } {
  if (typeof error !== 'object' || error === null) return false;
  const { code, exitCode } = error as { code?: unknown; exitCode?: unknown };
  return typeof code === 'string' && code.startsWith('commander.') && typeof exitCode === 'number';
}

/** The message and exit code for any error; messages never contain a secret. */
function describe(error: unknown): { message?: string; hint?: string; code: number } {
  if (isCommanderError(error)) {
    // Commander has already printed its message ("error: unknown option '--x'") or the help.
    return { code: error.exitCode === 0 ? EXIT.ok : EXIT.usage };
  }
  if (error instanceof Error && error.name === 'ExitPromptError') {
    return { message: 'Operation cancelled', code: EXIT.cancelled };
  }
  if (error instanceof InputError) {
    return { message: inputMessage(error), hint: error.hint, code: EXIT.usage };
  }
  if (error instanceof UsageError) {
    return { message: error.message, hint: error.hint, code: EXIT.usage };
  }
  if (error instanceof TimeoutError) {
    const hint = error.outcomeUnknown ? OUTCOME_UNKNOWN_HINT : TIMEOUT_HINT;
    const message = error.outcomeUnknown
      ? `${error.message}, so the entry may or may not have been saved`
      : error.message;
    return { message, hint, code: EXIT.failure };
  }
  if (error instanceof NetworkError) {
    const hint = error.url === DEFAULT_SUPABASE_URL ? DEFAULT_URL_HINT : error.hint;
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
  const message = error instanceof Error ? error.message : String(error);
  return { message: `Unexpected error: ${message}`, code: EXIT.failure };
}

/**
 * The one error handler: prints the error on stderr (the stack too with NAMECARD_DEBUG=1) and
 * returns the exit code for the entry point to use.
 */
export function handleError(error: unknown): number {
  const described = describe(error);
  const { code } = described;
  const message = described.message === undefined ? undefined : sanitizeMessage(described.message);
  const hint = described.hint === undefined ? undefined : sanitizeMessage(described.hint);
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
