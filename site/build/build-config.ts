import { ConfigError } from '../../shared/core/errors.js';
import { loadConfig, type RawSettings } from '../../shared/core/config.js';
import type { SiteConfig } from '../src/site-config.js';

/** The setting that builds the site for hosting under a sub-path (default `/`). */
export const BASE_PATH_SETTING = 'NAMECARD_BASE_PATH';

const BASE_PATH_FORM = /^\/([A-Za-z0-9._~-]+\/)*$/;

/**
 * Checks `NAMECARD_BASE_PATH` and gives it one leading and one trailing slash:
 * `card` → `/card/`, unset or empty → `/`.
 *
 * @throws ConfigError naming `NAMECARD_BASE_PATH` and the expected form
 */
export function parseBasePath(value: string | undefined): string {
  const raw = value?.trim() ?? '';
  if (!raw || raw === '/') return '/';
  const path = `/${raw.replace(/^\/+/, '').replace(/\/+$/, '')}/`;
  if (!BASE_PATH_FORM.test(path) || path.split('/').some((part) => part === '..' || part === '.')) {
    throw new ConfigError(
      BASE_PATH_SETTING,
      `\`${BASE_PATH_SETTING}\` must be a URL path such as /namecard/, got \`${raw}\``,
    );
  }
  return path;
}

/**
 * The public settings the site is built with, from environment-style settings. Only these
 * reach the browser; nothing else from the environment is read.
 *
 * @throws ConfigError naming the bad setting
 */
export function siteConfigFrom(env: RawSettings & { NAMECARD_BASE_PATH?: string }): SiteConfig {
  const config = loadConfig(env);
  return {
    supabaseUrl: config.supabaseUrl,
    anonKey: config.anonKey,
    mainUrl: config.mainUrl,
    photoPath: config.photoPath,
    basePath: parseBasePath(env.NAMECARD_BASE_PATH),
  };
}
