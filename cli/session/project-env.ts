import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SETTING_NAMES } from '../../shared/core/config.js';
import { loadEnvFile } from '../../shared/core/env-file.js';
import { warn } from '../terminal/output.js';

// The CLI reads `.env` only when it runs in the root of a namecard checkout (a package.json
// named `namecard` next to the `.env`), as `npm start` and the site build do there. A `.env`
// in any other folder belongs to another project, whose SUPABASE_URL must not redirect the
// user's commands. Only the names the CLI knows are taken; the environment wins over the file.

/**
 * The names the CLI takes from the project's `.env`: the settings only. The credentials
 * (NAMECARD_EMAIL, NAMECARD_PASSWORD) and where the session is kept (NAMECARD_CONFIG_DIR) come
 * from the environment alone: a cloned checkout's `.env` must not sign in as someone, nor
 * move the user's session into a folder of its choosing.
 */
export const CLI_ENV_NAMES: readonly string[] = [...SETTING_NAMES];

/** True when `dir` is the root of a namecard checkout. */
function isProjectRoot(dir: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      name?: unknown;
    };
    return pkg.name === 'namecard';
  } catch {
    return false;
  }
}

/**
 * Fills `env` from `<cwd>/.env` when `cwd` is a namecard checkout's root. An unreadable `.env`
 * is reported as a warning and skipped: the settings then come from elsewhere, as without it.
 *
 * @returns the names set from the file
 */
export function loadProjectEnv(
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (!isProjectRoot(cwd)) return [];
  try {
    return loadEnvFile(path.join(cwd, '.env'), env, CLI_ENV_NAMES);
  } catch (error) {
    warn(`${(error as Error).message}: its settings are not used`);
    return [];
  }
}
