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
