import { readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { isCardSlug } from '../../shared/core/cards.js';
import { SETTING_NAMES, type RawSettings } from '../../shared/core/config.js';
import { BrokenConfigFileError } from '../errors.js';

// The conf file: where it lives, what it holds, and a check of what a person may have
// edited by hand. Reading needs no conf (conf pulls in ajv, ~100 ms, and `status` must start
// fast); writes always go through conf (session.ts).

/** The session conf keeps for the owner (never printed). */
export interface StoredSession {
  refresh_token: string;
  /**
   * The access token of the last sign-in or refresh and when it expires (epoch seconds, as
   * GoTrue answers `expires_at`): `set`, `end` and `cancel` use it while it is valid, so a
   * write is one request. Absent in files written before; a value of the wrong type counts as
   * absent (the refresh token still works).
   */
  access_token?: string;
  expires_at?: number;
  /** The API URL the session belongs to; another URL counts as signed out. */
  api_url: string;
  email: string;
}

/** What the conf file holds. */
export interface StoredState {
  session?: StoredSession;
  /** Settings saved at `namecard login`, by their environment names. */
  settings?: RawSettings;
  /**
   * The current card's slug (`namecard card use`); absent: the run's card is chosen from the
   * caller's cards. Commands act on it unless `--card` or NAMECARD_CARD names another.
   */
  card?: string;
}

/** The file name conf uses inside the config folder (its default `configName`). */
export const CONFIG_FILE = 'config.json';

/**
 * The folder of the conf file: `NAMECARD_CONFIG_DIR`, else the platform's config folder
 * (`~/.config/namecard` on Linux, as env-paths would give). Computed here rather than by conf
 * so that the folder can be created 0700 before conf writes into it.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NAMECARD_CONFIG_DIR) return path.resolve(env.NAMECARD_CONFIG_DIR);
  const home = homedir();
  if (process.platform === 'darwin') {
    return path.join(home, 'Library', 'Preferences', 'namecard');
  }
  if (process.platform === 'win32') {
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'namecard', 'Config');
  }
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'namecard');
}

/** The path of the conf file. */
export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), CONFIG_FILE);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a parsed conf file, or undefined when it has the expected shape. */
function problemWith(state: unknown): string | undefined {
  if (!isObject(state)) return 'is not a JSON object';
  const { session, settings, card } = state;
  if (card !== undefined && !isCardSlug(card)) return "has a `card` that is not a card's slug";
  if (session !== undefined) {
    if (!isObject(session)) return 'has a `session` that is not an object';
    for (const key of ['refresh_token', 'api_url', 'email'] as const) {
      // Only the name of the field, never its value: it may be a token.
      if (typeof session[key] !== 'string' || session[key] === '') {
        return `has a \`session.${key}\` that is not a non-empty string`;
      }
    }
  }
  if (settings !== undefined) {
    if (!isObject(settings)) return 'has `settings` that are not an object';
    for (const name of SETTING_NAMES) {
      const value = settings[name];
      if (value !== undefined && typeof value !== 'string') {
        return `has a \`settings.${name}\` that is not a string`;
      }
    }
  }
  return undefined;
}

/**
 * Reads and checks the conf file.
 *
 * @returns the stored state; `{}` when there is no file yet
 * @throws BrokenConfigFileError naming the file when it cannot be read or has the wrong shape
 */
export function readStoredState(env: NodeJS.ProcessEnv = process.env): StoredState {
  const file = configFile(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw new BrokenConfigFileError(file, `cannot be read (${code ?? 'unknown error'})`);
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    throw new BrokenConfigFileError(file, 'is not valid JSON');
  }
  const problem = problemWith(state);
  if (problem) throw new BrokenConfigFileError(file, problem);
  return state as StoredState;
}

/**
 * Deletes a broken conf file so that conf can start afresh (`login`, `logout`).
 *
 * @returns true when the file was broken and has been deleted
 */
export function removeBrokenStore(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    readStoredState(env);
    return false;
  } catch (error) {
    if (!(error instanceof BrokenConfigFileError)) throw error;
    rmSync(error.file, { force: true, recursive: true });
    return true;
  }
}

/**
 * The stored state, or `{}` with `broken` set when the file is broken: for the commands that
 * repair it (`login` replaces it, `logout` deletes it).
 */
export function readStoredStateOrNothing(env: NodeJS.ProcessEnv = process.env): {
  state: StoredState;
  broken?: BrokenConfigFileError;
} {
  try {
    return { state: readStoredState(env) };
  } catch (error) {
    if (error instanceof BrokenConfigFileError) return { state: {}, broken: error };
    throw error;
  }
}
