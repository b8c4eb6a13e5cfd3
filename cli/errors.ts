import { CommanderError } from 'commander';
import {
  ApiError,
  ConfigError,
  InputError,
  NamecardError,
  NetworkError,
  TimeoutError,
} from '../shared/errors.js';
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

/** The message and exit code for any error; messages never contain a secret. */
function describe(error: unknown): { message?: string; hint?: string; code: number } {
  if (error instanceof CommanderError) {
    // Commander has already printed its message ("error: unknown option '--x'") or the help.
    return { code: error.exitCode === 0 ? EXIT.ok : EXIT.usage };
  }
  if (error instanceof Error && error.name === 'ExitPromptError') {
    return { message: 'Operation cancelled', code: EXIT.cancelled };
  }
  if (error instanceof UsageError || error instanceof InputError) {
    return { message: error.message, hint: error.hint, code: EXIT.usage };
  }
  if (error instanceof TimeoutError && error.outcomeUnknown) {
    return {
      message: error.message,
      hint: 'The entry may or may not have been saved: check with `namecard list`',
      code: EXIT.failure,
    };
  }
  if (
    error instanceof ConfigError ||
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
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
  const { message, hint, code } = describe(error);
  if (message !== undefined) {
    const text = code === EXIT.cancelled ? message : `${err.red('error:')} ${message}`;
    process.stderr.write(`${text}\n`);
  }
  if (hint) process.stderr.write(`${err.dim(hint)}\n`);
  if (process.env.NAMECARD_DEBUG === '1' && error instanceof Error && message !== undefined) {
    process.stderr.write(`${error.stack ?? String(error)}\n`);
    // The chain of causes, e.g. "fetch failed" ← "connect ECONNREFUSED 127.0.0.1:54321".
    let cause = error.cause;
    for (let depth = 0; cause !== undefined && depth < 5; depth++) {
      process.stderr.write(
        `cause: ${cause instanceof Error ? (cause.stack ?? String(cause)) : String(cause)}\n`,
      );
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return code;
}
