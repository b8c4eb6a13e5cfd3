import { loadConfig, type RawSettings } from '../../shared/core/config.js';
import type { SiteConfig } from '../src/site-config.js';

export { BASE_PATH_SETTING, parseBasePath } from '../../shared/core/card-link.js';

/**
 * The public settings the site is built with, from environment-style settings. Only these
 * and the card link ({@link cardLinkFrom}) reach the browser; nothing else from the environment
 * is read.
 *
 * @throws ConfigError naming the bad setting
 */
export function siteConfigFrom(env: RawSettings): SiteConfig {
  const config = loadConfig(env);
  return {
    supabaseUrl: config.supabaseUrl,
    anonKey: config.anonKey,
    mainUrl: config.mainUrl,
    photoPath: config.photoPath,
    basePath: config.basePath,
    allowedOrigins: config.allowedOrigins,
  };
}

/**
 * The card link the site shows on /manage (from `NAMECARD_SITE_URL` and `NAMECARD_BASE_PATH`):
 * the site embeds the site URL only as this public link.
 *
 * @throws ConfigError naming the bad setting
 */
export function cardLinkFrom(env: RawSettings): string {
  return loadConfig(env).cardLink;
}

/**
 * Where the site is hosted (`NAMECARD_SITE_URL` ending in the base path), as the build publishes
 * it in namecard.json.
 *
 * @throws ConfigError naming the bad setting
 */
export function siteUrlFrom(env: RawSettings): string {
  return loadConfig(env).siteUrl;
}
