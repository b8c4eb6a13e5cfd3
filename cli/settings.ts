import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import {
  SETTING_NAMES,
  loadConfig,
  type NamecardConfig,
  type RawSettings,
} from '../shared/config.js';
import { ConfigError, InputError } from '../shared/errors.js';

/** The session conf keeps for the owner (never printed). */
export interface StoredSession {
  refresh_token: string;
  /** The API URL the session belongs to; another URL counts as signed out. */
  api_url: string;
  email: string;
}

/** What the conf file holds. */
export interface StoredState {
  session?: StoredSession;
  /** Settings saved at `namecard login`, by their environment names. */
  settings?: RawSettings;
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

/**
 * Reads the conf file without loading conf: conf pulls in ajv (~100 ms), and `status` must
 * start fast. The file is conf's plain JSON; writes always go through conf (session.ts).
 *
 * @throws ConfigError when the file exists but is not a JSON object
 */
export function readStoredState(env: NodeJS.ProcessEnv = process.env): StoredState {
  const file = path.join(configDir(env), CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const state = JSON.parse(text) as unknown;
    if (typeof state === 'object' && state !== null && !Array.isArray(state)) {
      return state as StoredState;
    }
  } catch {
    // the one message below
  }
  throw new ConfigError(
    'NAMECARD_CONFIG_DIR',
    `The stored config ${file} is not a JSON object: delete it and run \`namecard login\``,
  );
}

/** Command-line flags that override settings. */
export interface SettingFlags {
  apiUrl?: string;
}

/**
 * The settings by precedence: flags, then the environment, then the stored config (saved at
 * login), then the defaults (the local emulator, from {@link loadConfig}).
 *
 * @throws InputError naming `--api-url` when the flag is not an http(s) URL; ConfigError
 *   naming the setting otherwise
 */
export function resolveConfig(
  flags: SettingFlags = {},
  env: NodeJS.ProcessEnv = process.env,
  stored: StoredState = readStoredState(env),
): NamecardConfig {
  if (flags.apiUrl !== undefined) {
    try {
      loadConfig({ SUPABASE_URL: flags.apiUrl });
    } catch {
      throw new InputError(
        '--api-url',
        'an http(s) URL such as http://127.0.0.1:54321',
        flags.apiUrl,
      );
    }
  }
  const raw: RawSettings = {};
  const fromStore = new Set<string>();
  for (const name of SETTING_NAMES) {
    const fromEnv = env[name]?.trim() || undefined;
    const saved = stored.settings?.[name]?.trim() || undefined;
    raw[name] = fromEnv ?? saved;
    if (!fromEnv && saved) fromStore.add(name);
  }
  if (flags.apiUrl !== undefined) {
    raw.SUPABASE_URL = flags.apiUrl;
    fromStore.delete('SUPABASE_URL');
  }
  try {
    return loadConfig(raw);
  } catch (error) {
    if (error instanceof ConfigError && fromStore.has(error.setting)) {
      throw new ConfigError(
        error.setting,
        `${error.message} (saved by \`namecard login\` in ${path.join(configDir(env), CONFIG_FILE)})`,
      );
    }
    throw error;
  }
}

/** The settings given explicitly by flag or environment: what `namecard login` saves. */
export function explicitSettings(
  flags: SettingFlags = {},
  env: NodeJS.ProcessEnv = process.env,
): RawSettings {
  const given: RawSettings = {};
  for (const name of SETTING_NAMES) {
    const value = env[name]?.trim();
    if (value) given[name] = value;
  }
  if (flags.apiUrl !== undefined) given.SUPABASE_URL = flags.apiUrl;
  return given;
}

/** The CI credentials, when both NAMECARD_EMAIL and NAMECARD_PASSWORD are set. */
export function ciCredentials(env: NodeJS.ProcessEnv = process.env) {
  const email = env.NAMECARD_EMAIL?.trim();
  const password = env.NAMECARD_PASSWORD;
  return email && password ? { email, password } : undefined;
}
