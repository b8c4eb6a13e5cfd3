/**
 * Typed errors of the namecard module. Every failure the module reports is one of these,
 * so that the CLI and the site can turn each kind into one readable message.
 */

/** Base class: `code` is a stable machine-readable code, `hint` an optional next step. */
export class NamecardError extends Error {
  readonly code: string;
  readonly hint: string | undefined;

  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.hint = hint;
  }
}

/**
 * Bad input from a person or a script: names the field and the expected form.
 *
 * @example new InputError('date', 'YYYY-MM-DD', '2030-02-30').message
 * // "`date` must be YYYY-MM-DD, got `2030-02-30`"
 */
export class InputError extends NamecardError {
  readonly field: string;
  readonly expected: string;
  readonly got: string;

  /**
   * @param field the field's name as the user knows it (`date`, `time`, `profile`, …)
   * @param expected the expected form, e.g. `YYYY-MM-DD`
   * @param got the value received (shown back to the user; never pass a secret here)
   * @param message overrides the default "`field` must be expected, got `got`" wording
   */
  constructor(field: string, expected: string, got: string, message?: string) {
    super('invalid_input', message ?? `\`${field}\` must be ${expected}, got \`${got}\``);
    this.field = field;
    this.expected = expected;
    this.got = got;
  }
}

/** A setting (environment variable or stored config) that is missing or malformed. */
export class ConfigError extends NamecardError {
  readonly setting: string;

  /**
   * @param setting the setting's name, e.g. `SUPABASE_URL`
   * @param message the whole message; it names the setting and never contains a secret value
   */
  constructor(setting: string, message: string) {
    super('invalid_config', message);
    this.setting = setting;
  }
}

/**
 * An answer from the server that is not a success: carries the server's code and message
 * (PostgREST's `{code, message, details, hint}` or GoTrue's `{code, message}`) and the HTTP status.
 */
export class ApiError extends NamecardError {
  readonly status: number;
  readonly details: string | null;

  /**
   * @param status HTTP status of the answer (0 when none was received)
   * @param code the server's error code, e.g. `42501`, `PGRST205`, `invalid_credentials`
   * @param message the server's message, shown as is
   */
  constructor(
    status: number,
    code: string,
    message: string,
    details?: string | null,
    hint?: string | null,
  ) {
    super(code, message, hint ?? undefined);
    this.status = status;
    this.details = details ?? null;
  }
}

/** No answer at all: the backend is down or unreachable. Message: "Cannot reach <url>". */
export class NetworkError extends NamecardError {
  readonly url: string;

  /** @param url the base URL that could not be reached (never contains a key) */
  constructor(url: string, cause?: unknown) {
    super('network', `Cannot reach ${url}`);
    this.url = url;
    if (cause !== undefined) this.cause = cause;
  }
}

/** A request that got no answer within its time-out. */
export class TimeoutError extends NamecardError {
  readonly url: string;

  /**
   * @param url the base URL the request went to
   * @param ms the time-out in milliseconds
   */
  constructor(url: string, ms: number) {
    super('timeout', `No answer from ${url} within ${ms} ms`);
    this.url = url;
  }
}

/**
 * The server's refusals that the owner is told about in their own words, by name, with the
 * code the server sends (as auth-js names GoTrue's error codes): `not_owner` is PostgreSQL's
 * insufficient_privilege (row-level security or a missing grant), `entry_refused` its
 * check_violation (a stamp out of range, a start not before its end), `no_such_entry` and
 * `entry_stopped` are `namecard_cancel`'s own (PostgREST's `PT<status>` codes, raised with
 * the entry named in the message).
 */
export const REFUSAL_CODES = {
  not_owner: '42501',
  entry_refused: '23514',
  no_such_entry: 'PT404',
  entry_stopped: 'PT409',
} as const;

/** The name of one of the server's refusals in {@link REFUSAL_CODES}. */
export type RefusalCode = keyof typeof REFUSAL_CODES;

/**
 * Which of the known refusals an error is, if any.
 *
 * @param error anything thrown
 * @returns the refusal's name, or undefined for any other error
 */
export function refusalOf(error: unknown): RefusalCode | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const names = Object.keys(REFUSAL_CODES) as RefusalCode[];
  return names.find((name) => REFUSAL_CODES[name] === error.code);
}

/**
 * True when `error` is the server's refusal `code` (or, without `code`, any known refusal),
 * like auth-js's `isAuthError` guards.
 */
export function isRefusal(error: unknown, code?: RefusalCode): error is ApiError {
  const refusal = refusalOf(error);
  return refusal !== undefined && (code === undefined || refusal === code);
}
