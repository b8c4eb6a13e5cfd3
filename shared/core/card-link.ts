import { ConfigError } from './errors.js';

/** The site that `npm start` serves: the default of `NAMECARD_SITE_URL`. */
export const DEFAULT_SITE_URL = 'http://127.0.0.1:4173/';

/** The setting that builds the site for hosting under a sub-path (default `/`). */
export const BASE_PATH_SETTING = 'NAMECARD_BASE_PATH';

/** The setting that names where the static site is hosted. */
export const SITE_URL_SETTING = 'NAMECARD_SITE_URL';

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
 * The card link: the address of the Redirecting.. page (`go/`) of the site hosted at
 * `siteUrl`, the one link to print on the card or put in its QR code.
 *
 * The site's pages refer to each other and to their scripts under the base path they were built
 * for, so the site can only be hosted there: a site URL without a path (`https://me.example`)
 * takes the base path, and one with a path must be that base path. With the base path `/` the
 * site URL's own folder is taken as it is (a host or proxy may serve the site under a folder).
 *
 * @param siteUrl the absolute http(s) URL the site is hosted at, e.g. `https://me.example/card/`
 *   (a path without a trailing slash means that folder)
 * @param basePath the site's base path, as {@link parseBasePath} returns it (default `/`)
 * @returns the card link, e.g. `https://me.example/card/go/`
 * @throws ConfigError naming `NAMECARD_SITE_URL` when it has a query or fragment, or a path
 *   other than the base path
 * @example cardLink('https://me.example', '/card/') // → 'https://me.example/card/go/'
 */
export function cardLink(siteUrl: string, basePath = '/'): string {
  const url = new URL(siteUrl);
  const folder = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const path = folder === '/' ? basePath : folder;
  if (url.search || url.hash || (basePath !== '/' && path !== basePath)) {
    const where =
      basePath === '/' ? 'a folder' : `the base path ${basePath} (${BASE_PATH_SETTING})`;
    throw new ConfigError(
      SITE_URL_SETTING,
      `\`${SITE_URL_SETTING}\` must be the URL the site is hosted at, ending in ${where} with no ?query or #fragment, such as ${new URL(basePath, 'https://me.example').href}, got \`${siteUrl}\``,
    );
  }
  return new URL(`${path}go/`, url.origin).href;
}

/** The channels a card link can be marked with: its QR code and an NFC tag. */
export type LinkChannel = 'qr' | 'nfc';

/**
 * The card link marked with the channel it is given through, `…/go/?via=qr` for the QR code
 * and `…/go/?via=nfc` for an NFC tag, so that /go counts the visit for that channel (the
 * plain link, on printed cards, counts as `link`). /go ignores any other query.
 *
 * @param link the card link, as {@link cardLink} returns it (no query)
 * @param via the channel
 * @returns the marked link
 * @example channelLink('https://me.example/go/', 'qr') // → 'https://me.example/go/?via=qr'
 */
export function channelLink(link: string, via: LinkChannel): string {
  const url = new URL(link);
  url.search = `via=${via}`;
  return url.href;
}

/**
 * How the card link is drawn as a QR code, by the CLI and on /manage alike (options of the
 * `qrcode` package): error correction level M, which still reads with 15 % of the code damaged
 * or covered (a worn card, a sticker edge), and the quiet zone of 4 modules around the code
 * that ISO/IEC 18004 asks for.
 */
export const QR_CODE_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

/**
 * The smallest width of the PNG image in pixels, and the default: 1024 px is about 8.7 cm at
 * 300 dpi, enough to print on a card or a poster without upscaling.
 */
export const QR_PNG_MIN_SIZE = 1024;

/** The largest width `namecard qr --size` accepts, in pixels (a 64 MB bitmap while drawn). */
export const QR_PNG_MAX_SIZE = 4096;

/**
 * Whole pixels per module for a PNG at least `minSize` pixels wide: whole pixels keep every
 * module the same size, which a printer and a scanner both like better than a code scaled by a
 * fraction. The image is then `modules × scale` pixels, from `minSize` up to `minSize + modules - 1`.
 *
 * @param modules the code's width in modules with its quiet zone (the `qrcode` package's
 *   `create(...).modules.size` plus twice {@link QR_CODE_OPTIONS}' margin)
 * @param minSize the smallest image width in pixels (default {@link QR_PNG_MIN_SIZE})
 * @returns the `scale` option of the `qrcode` package
 * @example qrPngScale(41) // → 25: a 1025 px image
 */
export function qrPngScale(modules: number, minSize: number = QR_PNG_MIN_SIZE): number {
  return Math.ceil(minSize / modules);
}
