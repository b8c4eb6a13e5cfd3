import type { Plugin } from 'vite';
import { SCHEMA_VERSION } from '../../shared/core/schema-version.js';
import type { SiteConfig } from '../src/site-config.js';

/** The file (at the site's root) where a build publishes its public settings. */
export const PUBLIC_SETTINGS_FILE = 'namecard.json';

/** The header file that Netlify and Cloudflare Pages read from the published folder's root. */
export const HEADERS_FILE = '_headers';

/**
 * What a build publishes about itself in `namecard.json`: only settings the pages already embed
 * (all public), so `namecard doctor` can check that the hosted site was built for the same API
 * and key as the CLI, and for a database with the same schema.
 */
export interface PublicSettings {
  supabaseUrl: string;
  anonKey: string;
  mainUrl: string;
  photoPath: string;
  /** Where the site is hosted (`NAMECARD_SITE_URL`), ending in the base path. */
  siteUrl: string;
  basePath: string;
  /** The origins /go follows a profile's destination to (`NAMECARD_ALLOWED_ORIGINS`), or `*`. */
  allowedOrigins: readonly string[] | '*';
  /** The newest migration this build needs (`namecard_schema_version()`). */
  schemaVersion: string;
}

/** The anti-framing headers for the pages that act for a signed-in owner. */
const NO_FRAMING = ["Content-Security-Policy: frame-ancestors 'none'", 'X-Frame-Options: DENY'];

/** HTML and namecard.json: the browser asks again each time (a new upload shows at once). */
const REVALIDATE = 'Cache-Control: no-cache';

/** Vite's content-hashed files: a changed file gets a new name, so they never change. */
const IMMUTABLE = 'Cache-Control: public, max-age=31536000, immutable';

/**
 * The `_headers` file (Netlify's and Cloudflare Pages' format: a path line, then indented
 * `Name: value` lines) for a site built for `basePath`.
 *
 * Every rule names exact paths except the assets' splat, so no request matches two rules: both
 * hosts join the values of a header set by several matching rules, which would turn
 * `X-Frame-Options: DENY` into `DENY, DENY` and mix the caching rules.
 *
 * @param basePath the site's base path, `/` or `/card/` (leading and trailing slash)
 * @returns the file's text
 */
export function headersFile(basePath: string): string {
  const page = (route: string) =>
    route === ''
      ? [basePath, `${basePath}index.html`]
      : [`${basePath}${route}`, `${basePath}${route}/`, `${basePath}${route}/index.html`];
  const rules: [string[], string[]][] = [
    [page('login'), [...NO_FRAMING, REVALIDATE]],
    [page('manage'), [...NO_FRAMING, REVALIDATE]],
    [page('go'), [REVALIDATE]],
    [page(''), [REVALIDATE]],
    [[`${basePath}404.html`, `${basePath}${PUBLIC_SETTINGS_FILE}`], [REVALIDATE]],
    [[`${basePath}assets/*`], [IMMUTABLE]],
  ];
  const blocks = rules.flatMap(([paths, headers]) =>
    paths.map((path) => [path, ...headers.map((h) => `  ${h}`)].join('\n')),
  );
  return `# Read by Netlify and Cloudflare Pages; other hosts: see docs/deploy.md.\n${blocks.join('\n')}\n`;
}

/**
 * Emits the host files into the build: `_headers` ({@link headersFile}) and `namecard.json`
 * ({@link PublicSettings}).
 *
 * @param config the site's validated public settings
 * @param siteUrl where the site is hosted (`NAMECARD_SITE_URL` with the base path)
 */
export function hostFiles(config: SiteConfig, siteUrl: string): Plugin {
  const settings: PublicSettings = {
    supabaseUrl: config.supabaseUrl,
    anonKey: config.anonKey,
    mainUrl: config.mainUrl,
    photoPath: config.photoPath,
    siteUrl,
    basePath: config.basePath,
    allowedOrigins: config.allowedOrigins,
    schemaVersion: SCHEMA_VERSION,
  };
  return {
    name: 'namecard-host-files',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: HEADERS_FILE,
        source: headersFile(config.basePath),
      });
      this.emitFile({
        type: 'asset',
        fileName: PUBLIC_SETTINGS_FILE,
        source: `${JSON.stringify(settings, null, 2)}\n`,
      });
    },
  };
}
