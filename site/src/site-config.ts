/** The public settings baked into the site at build time (site/build/build-config.ts). */
export interface SiteConfig {
  /** API base URL, no trailing slash. */
  supabaseUrl: string;
  /** The public anon key. */
  anonKey: string;
  /** The main card site. */
  mainUrl: string;
  /** The photo sub-path, resolved against `mainUrl`. */
  photoPath: string;
  /** Where the site is hosted, with a leading and a trailing slash, e.g. `/` or `/card/`. */
  basePath: string;
  /**
   * The origins /go may send visitors to (`NAMECARD_ALLOWED_ORIGINS`, the main URL's always
   * among them), or `'*'` for any.
   */
  allowedOrigins: readonly string[] | '*';
}

// Replaced by the build with the validated public settings (`define` in site/vite.config.ts for
// the pages, and in site/build/inline-go.ts for /go's inlined script).
declare const __NAMECARD_SITE__: SiteConfig;

/** The settings this build of the site was made with. */
export const siteConfig: SiteConfig = __NAMECARD_SITE__;
