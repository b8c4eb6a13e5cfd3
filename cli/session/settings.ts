import {
  SETTING_NAMES,
  loadConfig,
  type NamecardConfig,
  type RawSettings,
  type SettingName,
} from '../../shared/core/config.js';
import { SITE_URL_SETTING } from '../../shared/core/card-link.js';
import { parseCardSlug, type CardChoice } from '../../shared/core/cards.js';
import { ConfigError, InputError } from '../../shared/core/errors.js';
import { isLoopbackHost } from '../../shared/core/loopback.js';
import { TOKEN_FORM } from '../../shared/core/tokens.js';
import { configFile, readStoredState, type StoredState } from './store-file.js';
import { DEFAULT_TIMEOUT_MS } from '../transport/transport.js';

export {
  CONFIG_FILE,
  configDir,
  readStoredState,
  type StoredSession,
  type StoredState,
} from './store-file.js';

/** Command-line flags that override settings. */
export interface SettingFlags {
  apiUrl?: string;
  /** `--site-url <url>` of `link` and `qr`: overrides NAMECARD_SITE_URL. */
  siteUrl?: string;
  /** `--timeout <ms>`, as typed. */
  timeout?: string;
  /** `--allow-insecure-http`: send credentials over plain http: to another machine too. */
  allowInsecureHttp?: boolean;
  /** `--card <slug>`: the card to act on (overrides NAMECARD_CARD and the current card). */
  card?: string;
}

/** Where a run's card was named, cheaply known before any request. */
export type NamedSource = '--card' | 'NAMECARD_CARD' | 'card use';

/** A card named for a run: its slug and where it was named. */
export interface NamedCard extends CardChoice {
  source: NamedSource;
}

/** The settings of one run: the validated config and the time-out of each request. */
export interface CliConfig extends NamecardConfig {
  /** Time-out of each HTTP request, in milliseconds. */
  timeoutMs: number;
  /** `--allow-insecure-http` was given: see {@link checkCredentialTransport}. */
  allowInsecureHttp?: boolean;
  /** The settings given by a flag, the environment, `.env` or the stored config (not defaults). */
  given: ReadonlySet<SettingName>;
  /**
   * Ends every request of the run when it aborts (`namecard doctor`'s time limit); its reason,
   * a NamecardError, is what the calls then fail with.
   */
  signal?: AbortSignal;
  /**
   * The card named for this run (`--card`, NAMECARD_CARD, `namecard card use`), if any: the
   * run's card is then that one (shared/core/cards.ts's chooseCard), else chosen from the
   * caller's cards.
   */
  cardNamed?: NamedCard;
  /**
   * NAMECARD_TOKEN: a card token. The run's caller is then the token (sent in the header
   * `x-namecard-token` with the anon key), never a session, and its card is the token's.
   */
  cardToken?: string;
  /**
   * The card the outputs name (`Card: <slug>`, `"card"` in `--json`), once the run's card is
   * chosen: the run's card when the caller has more than one card or one was named; else none.
   */
  cardShown?: string;
}

/**
 * The card token of a run: NAMECARD_TOKEN, trimmed; none when unset or empty.
 *
 * @throws InputError naming NAMECARD_TOKEN (without echoing it) when it is not a token's form
 */
export function readCardToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const token = env.NAMECARD_TOKEN?.trim();
  if (!token) return undefined;
  if (!TOKEN_FORM.test(token)) {
    throw new InputError(
      'NAMECARD_TOKEN',
      'a card token',
      '',
      '`NAMECARD_TOKEN` must be a card token: nct_ and 32 letters, digits, - or _, as `namecard token create` shows it',
    );
  }
  return token;
}

/**
 * The card named for a run: `--card`, else NAMECARD_CARD, else the current card (`namecard card
 * use`), else none. Cheap (no request), so the light path asks it too.
 *
 * @throws InputError naming `--card` or `NAMECARD_CARD` when it is not a slug's form
 */
export function namedCard(
  flags: Pick<SettingFlags, 'card'>,
  env: NodeJS.ProcessEnv,
  stored: StoredState,
): NamedCard | undefined {
  if (flags.card !== undefined)
    return { slug: parseCardSlug(flags.card, '--card'), source: '--card' };
  const fromEnv = env.NAMECARD_CARD?.trim();
  if (fromEnv) return { slug: parseCardSlug(fromEnv, 'NAMECARD_CARD'), source: 'NAMECARD_CARD' };
  return stored.card === undefined ? undefined : { slug: stored.card, source: 'card use' };
}

/**
 * Refuses to send the user's credentials (password, refresh and access tokens, a card token) over plain
 * `http:` to another machine, where anyone on the network path can read them: only `https:`,
 * or `http:` to this machine (the local emulator), unless `--allow-insecure-http` was given
 * for a test on a LAN. A `.env` in a cloned checkout cannot then capture the password by
 * pointing SUPABASE_URL at a host of its own.
 *
 * @throws InputError naming `SUPABASE_URL` (exit 2) before anything is sent
 */
export function checkCredentialTransport(config: CliConfig): void {
  const url = new URL(config.supabaseUrl);
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname) || config.allowInsecureHttp) return;
  throw new InputError(
    'SUPABASE_URL',
    'an https: URL, or http: to this machine',
    config.supabaseUrl,
    `\`SUPABASE_URL\` must be an https: URL to send your password or session there, or http: to this machine (127.0.0.1, localhost), got \`${config.supabaseUrl}\`: on plain http: anyone on the way can read them (\`--allow-insecure-http\` allows it for a test on your own network)`,
  );
}

const MAX_TIMEOUT_MS = 600_000;

/**
 * Checks `--timeout <ms>`: a whole number of milliseconds from 100 to 600000.
 *
 * @throws InputError naming `--timeout`
 */
export function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(ms >= 100 && ms <= MAX_TIMEOUT_MS)) {
    throw new InputError(
      '--timeout',
      `a whole number of milliseconds from 100 to ${MAX_TIMEOUT_MS}`,
      value,
    );
  }
  return ms;
}

/**
 * The settings by precedence: flags, then the environment, then the stored config (saved at
 * login), then the defaults (the local emulator, from {@link loadConfig}).
 *
 * @throws InputError naming `--api-url`, `--site-url` or `--timeout` when a flag is malformed;
 *   ConfigError naming the setting or the broken config file otherwise
 */
export function resolveConfig(
  flags: SettingFlags = {},
  env: NodeJS.ProcessEnv = process.env,
  stored: StoredState = readStoredState(env),
): CliConfig {
  const timeoutMs = parseTimeout(flags.timeout);
  const token = readCardToken(env);
  const named = namedCard(flags, env, stored);
  const card = {
    ...(named ? { cardNamed: named } : {}),
    ...(token === undefined ? {} : { cardToken: token }),
  };
  if (flags.apiUrl !== undefined) {
    try {
      loadConfig({ SUPABASE_URL: flags.apiUrl });
    } catch (error) {
      // Only the URL's form is the flag's: the key it needs comes from the settings below.
      if (error instanceof ConfigError && error.setting === 'SUPABASE_URL') {
        throw new InputError(
          '--api-url',
          'an http(s) URL such as http://127.0.0.1:54321',
          flags.apiUrl,
        );
      }
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
  if (flags.siteUrl !== undefined) {
    if (!flags.siteUrl.trim()) {
      throw new InputError('--site-url', 'an http(s) URL such as https://me.example/', '');
    }
    raw.NAMECARD_SITE_URL = flags.siteUrl;
    fromStore.delete('NAMECARD_SITE_URL');
  }
  try {
    const given = new Set(SETTING_NAMES.filter((name) => raw[name]?.trim()));
    return {
      ...loadConfig(raw),
      timeoutMs,
      allowInsecureHttp: flags.allowInsecureHttp === true,
      given,
      ...card,
    };
  } catch (error) {
    if (
      error instanceof ConfigError &&
      error.setting === SITE_URL_SETTING &&
      flags.siteUrl !== undefined
    ) {
      const message = error.message.replace(`\`${SITE_URL_SETTING}\``, '`--site-url`');
      throw new InputError('--site-url', 'the URL the site is hosted at', flags.siteUrl, message);
    }
    if (error instanceof ConfigError && fromStore.has(error.setting)) {
      throw new ConfigError(
        error.setting,
        `${error.message} (saved by \`namecard login\` in ${configFile(env)})`,
      );
    }
    throw error;
  }
}

/**
 * The settings given explicitly by flag (`--api-url`, `--site-url`) or environment: what
 * `namecard login` saves with the session, so that later commands in any folder use them.
 */
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
  if (flags.siteUrl !== undefined) given.NAMECARD_SITE_URL = flags.siteUrl;
  return given;
}

/** The CI credentials, when both NAMECARD_EMAIL and NAMECARD_PASSWORD are set. */
export function ciCredentials(env: NodeJS.ProcessEnv = process.env) {
  const email = env.NAMECARD_EMAIL?.trim();
  const password = env.NAMECARD_PASSWORD;
  return email && password ? { email, password } : undefined;
}

/**
 * The e-mail of half-set CI credentials: NAMECARD_EMAIL set while NAMECARD_PASSWORD is unset
 * or empty, else undefined.
 */
export function emailWithoutPassword(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const email = env.NAMECARD_EMAIL?.trim();
  return email && !env.NAMECARD_PASSWORD ? email : undefined;
}
