import { fileURLToPath } from 'node:url';
import type { EmulatorOptions } from './index.js';

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

/**
 * Reads the emulator's environment settings.
 * @throws UsageError naming the variable when a value is malformed, or when only one
 * of NAMECARD_OWNER_EMAIL / NAMECARD_OWNER_PASSWORD is set.
 */
export function readEnvOptions(env: NodeJS.ProcessEnv): EmulatorOptions {
  const options: EmulatorOptions = {};
  if (env.DATABASE_URL) options.databaseUrl = env.DATABASE_URL;
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
  if (email && password) options.owner = { email, password };
  else if (email || password) {
    throw new UsageError(
      'set both `NAMECARD_OWNER_EMAIL` and `NAMECARD_OWNER_PASSWORD`, or neither',
    );
  }
  return options;
}
