import { fileURLToPath } from 'node:url';
import { assertPasswordLength } from './auth/users.js';
import type { EmulatorOptions, RateLimits, RestKind } from './index.js';

/**
 * Where `npm run emulator`, the admin CLI and `npm start` keep PGlite data:
 * `.namecard/emulator/` under the repo root (`.namecard/` is git-ignored).
 */
export const PERSISTED_DATA_DIR = fileURLToPath(new URL('../.namecard/emulator', import.meta.url));

/** A command-line mistake: the entry point prints it with the usage and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Environment variables for the sign-in and visit limits, and the RateLimits field each sets. */
export const RATE_LIMIT_ENV = {
  NAMECARD_RATE_LIMIT_SIGN_IN: 'signIn',
  NAMECARD_RATE_LIMIT_TOKEN_REFRESH: 'tokenRefresh',
  NAMECARD_RATE_LIMIT_VISITS: 'visits',
  NAMECARD_RATE_LIMIT_INVITATIONS: 'invitations',
  NAMECARD_RATE_LIMIT_TOKENS: 'tokens',
  NAMECARD_RATE_LIMIT_WINDOW: 'windowSeconds',
} as const;

/**
 * Reads NAMECARD_RATE_LIMIT_SIGN_IN, NAMECARD_RATE_LIMIT_TOKEN_REFRESH,
 * NAMECARD_RATE_LIMIT_VISITS, NAMECARD_RATE_LIMIT_INVITATIONS, NAMECARD_RATE_LIMIT_TOKENS (requests per address per window), NAMECARD_RATE_LIMIT_WINDOW (seconds) and
 * NAMECARD_RATE_LIMIT_HEADER (a header holding the client address, e.g.
 * X-Forwarded-For; only behind a proxy that sets it). Unset or empty = default.
 * @returns only the fields that are set
 * @throws UsageError naming the variable when a count is not a positive integer.
 */
export function readRateLimitEnv(env: NodeJS.ProcessEnv): Partial<RateLimits> {
  const limits: Partial<RateLimits> = {};
  for (const [name, field] of Object.entries(RATE_LIMIT_ENV)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (!/^[1-9]\d*$/.test(value)) {
      throw new UsageError(`\`${name}\` must be a whole number of at least 1, got \`${value}\``);
    }
    limits[field] = Number(value);
  }
  if (env.NAMECARD_RATE_LIMIT_HEADER) limits.header = env.NAMECARD_RATE_LIMIT_HEADER;
  return limits;
}

/**
 * Reads the emulator's environment settings. NAMECARD_SIGN_UPS=on lets anyone sign up, as a new
 * hosted project does (default off); NAMECARD_REST (`emulator` or `postgrest`) says who answers
 * `/rest/v1` (see readRest).
 * @throws UsageError naming the variable when a value is malformed (see also
 * readRateLimitEnv), when only one
 * of NAMECARD_OWNER_EMAIL / NAMECARD_OWNER_PASSWORD is set, or when the password is
 * over 72 bytes (GoTrue's "Password cannot be longer than 72 characters").
 */
export function readEnvOptions(env: NodeJS.ProcessEnv): EmulatorOptions {
  const options: EmulatorOptions = { rateLimits: readRateLimitEnv(env) };
  if (env.DATABASE_URL) options.databaseUrl = env.DATABASE_URL;
  if (env.NAMECARD_REST) options.rest = readRest('NAMECARD_REST', env.NAMECARD_REST);
  const signUps = env.NAMECARD_SIGN_UPS;
  if (signUps !== undefined && signUps !== '') {
    if (signUps !== 'on' && signUps !== 'off') {
      throw new UsageError(`\`NAMECARD_SIGN_UPS\` must be \`on\` or \`off\`, got \`${signUps}\``);
    }
    options.signUps = signUps === 'on';
  }
  const reuse = env.NAMECARD_REFRESH_REUSE_INTERVAL;
  if (reuse !== undefined && reuse !== '') {
    if (!/^\d+(\.\d+)?$/.test(reuse)) {
      throw new UsageError(
        `\`NAMECARD_REFRESH_REUSE_INTERVAL\` must be a number of seconds, got \`${reuse}\``,
      );
    }
    options.refreshTokenReuseInterval = Number(reuse);
  }
  const email = env.NAMECARD_OWNER_EMAIL;
  const password = env.NAMECARD_OWNER_PASSWORD;
  if (email && password) {
    try {
      assertPasswordLength(password);
    } catch (e) {
      throw new UsageError(`\`NAMECARD_OWNER_PASSWORD\`: ${(e as Error).message}`);
    }
    options.owner = { email, password };
  } else if (email || password) {
    throw new UsageError(
      'set both `NAMECARD_OWNER_EMAIL` and `NAMECARD_OWNER_PASSWORD`, or neither',
    );
  }
  return options;
}

/**
 * Who answers `/rest/v1` (EmulatorOptions.rest), from `--rest` or NAMECARD_REST: `emulator`
 * (the emulator's own layer) or `postgrest` (the real PostgREST, which needs DATABASE_URL).
 * @param source the flag or variable the value came from, named in the error
 * @throws UsageError naming `source` for any other value.
 */
export function readRest(source: string, value: string): RestKind {
  if (value === 'emulator' || value === 'postgrest') return value;
  throw new UsageError(`\`${source}\` must be \`emulator\` or \`postgrest\`, got \`${value}\``);
}
