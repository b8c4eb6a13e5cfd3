import { cardLink, DEFAULT_SITE_URL, siteBasePath } from './card-link.js';
import { ConfigError } from './errors.js';
import { isLoopbackHost } from './loopback.js';
import { MAIN_PROFILE, PROFILES, SUB_PATH_PROFILES, type ProfileSetting } from './profiles.js';
import { resolveTargets, type AllowedOrigins, type TargetConfig, type Targets } from './rules.js';

/**
 * The emulator's API URL: Supabase's local API port, so the same settings work with
 * `supabase start`.
 */
export const DEFAULT_SUPABASE_URL = 'http://127.0.0.1:54321';

/**
 * Supabase's well-known local-development anon key (HS256 over
 * `{"iss":"supabase-demo","role":"anon","exp":1983812996}` with the local secret; see the
 * Supabase CLI's `pkg/config/apikeys.go`). It is public by design; the emulator accepts it.
 */
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

/** The demo main card site that `npm start` serves (the profile table's main default). */
export const DEFAULT_MAIN_URL: string = MAIN_PROFILE.defaultValue;

/**
 * The names of the settings, as environment variables; CLI, site build and `npm start` share
 * them. The profiles' settings (`NAMECARD_MAIN_URL`, `NAMECARD_PHOTO_PATH`) come from the
 * profile table.
 */
export const SETTING_NAMES: readonly SettingName[] = [
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  ...PROFILES.map((p) => p.setting),
  'NAMECARD_SITE_URL',
  'NAMECARD_BASE_PATH',
  'NAMECARD_ALLOWED_ORIGINS',
];

/** The name of one setting (an environment variable), as `.env.example` documents it. */
export type SettingName =
  | 'SUPABASE_URL'
  | 'SUPABASE_ANON_KEY'
  | ProfileSetting
  | 'NAMECARD_SITE_URL'
  | 'NAMECARD_BASE_PATH'
  | 'NAMECARD_ALLOWED_ORIGINS';

/** Raw settings by name; missing or empty values take the defaults. */
export type RawSettings = Partial<Record<SettingName, string | undefined>>;

/** Validated settings. URLs are absolute http(s) URLs; `supabaseUrl` has no trailing slash. */
export interface NamecardConfig extends TargetConfig {
  supabaseUrl: string;
  anonKey: string;
  /** Every profile's target, resolved from `mainUrl` and `photoPath` when the config is loaded. */
  targets: Targets;
  /** Where the static site is hosted, with its base path. */
  siteUrl: string;
  /** The site's base path, with a leading and a trailing slash (`/`, `/card/`). */
  basePath: string;
  /** The card link: the site's Redirecting.. page (`…/go/`), from {@link cardLink}. */
  cardLink: string;
  /**
   * The origins the Redirecting.. page may send visitors to (`NAMECARD_ALLOWED_ORIGINS`), the
   * main URL's always among them; `'*'` allows any (and gives up the guarantee).
   */
  allowedOrigins: AllowedOrigins;
}

/** `value` as an http(s) URL without credentials, or undefined for anything else. */
function plainHttpUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const http = url.protocol === 'http:' || url.protocol === 'https:';
  return http && !url.username && !url.password ? url : undefined;
}

function httpUrl(setting: SettingName, value: string, example: string): URL {
  const url = plainHttpUrl(value);
  if (!url) {
    throw new ConfigError(
      setting,
      `\`${setting}\` must be an http(s) URL such as ${example}, got \`${value}\``,
    );
  }
  return url;
}

/**
 * The claims of a legacy JWT API key, or undefined for a key that is not a readable JWT (e.g.
 * `sb_publishable_…`). Read, not verified: only the server can verify them.
 */
function jwtClaims(key: string): Record<string, unknown> | undefined {
  const payload = key.split('.')[1];
  if (!payload || key.startsWith('sb_')) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as unknown;
    return typeof claims === 'object' && claims !== null
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `role` claim of a legacy JWT API key, or undefined for a key that is not a readable JWT.
 * Supabase's legacy keys carry `"role":"anon"` or `"service_role"`.
 */
function jwtRole(key: string): string | undefined {
  const role = jwtClaims(key)?.role;
  return typeof role === 'string' ? role : undefined;
}

/**
 * The anon key when `SUPABASE_ANON_KEY` is unset or empty: the emulator's {@link LOCAL_ANON_KEY},
 * for an API on this machine only. Any other API is a hosted or remote one, which never accepts
 * that key; embedding it would publish a site whose every request fails (a CI variable that was
 * forgotten becomes an empty string), so the setting is asked for instead.
 *
 * @throws ConfigError naming `SUPABASE_ANON_KEY`
 */
function localAnonKey(supabaseUrl: string): string {
  if (isLoopbackHost(new URL(supabaseUrl).hostname)) return LOCAL_ANON_KEY;
  throw new ConfigError(
    'SUPABASE_ANON_KEY',
    `\`SUPABASE_ANON_KEY\` is not set, and \`SUPABASE_URL\` ${supabaseUrl} is not on this machine: set it to that project's anon or publishable key (Project Settings, API Keys); the local emulator's demo key is used only for an API on 127.0.0.1 or localhost`,
  );
}

/**
 * True for the key that Supabase's local development (and the emulator) use: a JWT issued by
 * `supabase-demo`, signed with a secret everyone knows. An API that accepts it lets anyone sign
 * their own keys, so it belongs to an API on this machine only.
 *
 * @param key an anon key as configured
 * @example isDemoKey(LOCAL_ANON_KEY) // → true
 */
export function isDemoKey(key: string): boolean {
  return key === LOCAL_ANON_KEY || jwtClaims(key)?.iss === 'supabase-demo';
}

// A JWT (three base64url parts) or one of Supabase's publishable keys.
const KEY_FORM = /^([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|sb_publishable_[A-Za-z0-9_-]+)$/;

/**
 * Validates the settings in one place and fills in the defaults, which point at the local
 * emulator. Values are trimmed; empty means unset.
 *
 * @param raw settings by their environment names, e.g. `process.env`
 * @returns the validated config with both targets and the card link resolved; the base path
 *   taken from `NAMECARD_SITE_URL` when `NAMECARD_BASE_PATH` is unset ({@link siteBasePath})
 * @throws ConfigError naming the bad setting and the expected form: `SUPABASE_ANON_KEY` too when
 *   it is unset and `SUPABASE_URL` is not on this machine. The anon key's value is never
 *   repeated in a message.
 * @example loadConfig({ NAMECARD_MAIN_URL: 'https://me.example/' }).targets.photo
 * // → 'https://me.example/photo'
 */
export function loadConfig(raw: RawSettings = {}): NamecardConfig {
  const get = (name: SettingName) => {
    const v = raw[name]?.trim();
    return v ? v : undefined;
  };
  const api = httpUrl(
    'SUPABASE_URL',
    get('SUPABASE_URL') ?? DEFAULT_SUPABASE_URL,
    DEFAULT_SUPABASE_URL,
  );
  const supabaseUrl = api.href.replace(/\/+$/, '');

  const anonKey = get('SUPABASE_ANON_KEY') ?? localAnonKey(supabaseUrl);
  if (!KEY_FORM.test(anonKey)) {
    throw new ConfigError(
      'SUPABASE_ANON_KEY',
      "`SUPABASE_ANON_KEY` must be the project's anon key (a JWT like eyJ….….…) or an sb_publishable_… key",
    );
  }
  const role = jwtRole(anonKey);
  if (role !== undefined && role !== 'anon') {
    // The site embeds this key: a service_role key there would give every visitor full access.
    throw new ConfigError(
      'SUPABASE_ANON_KEY',
      `\`SUPABASE_ANON_KEY\` must be the project's anon (public) key, but this key's role is \`${role.slice(0, 40)}\`: never use the service_role key here`,
    );
  }

  // The profiles' targets, from the table: the main site's URL, then each path under it.
  const mainUrl = httpUrl(
    MAIN_PROFILE.setting,
    get(MAIN_PROFILE.setting) ?? MAIN_PROFILE.defaultValue,
    'https://me.example/',
  ).href;
  const paths = { [MAIN_PROFILE.configKey]: mainUrl } as TargetConfig;
  for (const profile of SUB_PATH_PROFILES) {
    paths[profile.configKey] = get(profile.setting) ?? profile.defaultValue;
  }
  const targets = resolveTargets(paths);
  // Every other target must stay on the main site: a scheme, `//host` or `..` escaping it is refused.
  const main = new URL(mainUrl);
  const mainFolder = main.pathname.endsWith('/') ? main.pathname : `${main.pathname}/`;
  for (const profile of SUB_PATH_PROFILES) {
    const path = paths[profile.configKey];
    const target = new URL(targets[profile.type]);
    if (
      target.origin !== main.origin ||
      !target.pathname.startsWith(mainFolder) ||
      /^[a-z][a-z0-9+.-]*:/i.test(path)
    ) {
      throw new ConfigError(
        profile.setting,
        `\`${profile.setting}\` must be a path under the main site such as \`${profile.defaultValue}\` or \`#${profile.defaultValue}\`, got \`${path}\``,
      );
    }
  }
  const site = get('NAMECARD_SITE_URL') ?? DEFAULT_SITE_URL;
  httpUrl('NAMECARD_SITE_URL', site, 'https://me.example/');
  const basePath = siteBasePath(site, get('NAMECARD_BASE_PATH'));
  const link = cardLink(site, basePath);
  const siteUrl = new URL('..', link).href;
  const allowedOrigins = parseAllowedOrigins(get('NAMECARD_ALLOWED_ORIGINS'), mainUrl);
  return {
    supabaseUrl,
    anonKey,
    ...paths,
    targets,
    siteUrl,
    basePath,
    cardLink: link,
    allowedOrigins,
  };
}

/**
 * Reads `NAMECARD_ALLOWED_ORIGINS`: the origins a profile's destination may be on, separated by
 * commas (`https://me.example,https://shop.example`), or `*` for any. The main URL's origin is
 * always allowed (it is where visitors go when nothing else may be followed), and it is the
 * whole list when the setting is empty.
 *
 * @param value the setting's text, or undefined when unset
 * @param mainUrl the validated main URL (absolute http(s))
 * @returns the origins (`scheme://host[:port]`, no trailing slash, lowercased host), or `'*'`
 * @throws ConfigError naming `NAMECARD_ALLOWED_ORIGINS` for an entry that is not an http(s)
 *   origin (a path, a query, credentials or another scheme)
 */
function parseAllowedOrigins(value: string | undefined, mainUrl: string): AllowedOrigins {
  const origins = new Set<string>([new URL(mainUrl).origin]);
  const parts = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.includes('*')) return '*';
  for (const part of parts) {
    const url = plainHttpUrl(part);
    if (!url || url.href !== `${url.origin}/` || !/^[a-z]+:\/\/[^/]+\/?$/i.test(part)) {
      throw new ConfigError(
        'NAMECARD_ALLOWED_ORIGINS',
        `\`NAMECARD_ALLOWED_ORIGINS\` must be origins such as https://me.example,https://shop.example (scheme and host, no path), or *, got \`${part}\``,
      );
    }
    origins.add(url.origin);
  }
  return [...origins];
}
