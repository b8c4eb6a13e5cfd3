import { MAIN_CARD, isCardSlug } from './cards.js';
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

/** The folder of a URL's path, with a trailing slash: `https://me.example/card` → `/card/`. */
const folderOf = (url: URL) => (url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`);

/**
 * The base path the site is built for, from `NAMECARD_BASE_PATH` and `NAMECARD_SITE_URL`
 * together. The pages load their scripts and styles from `<base path>assets/`, so a site hosted
 * under a folder works only when built for that folder: unset, the base path is the site URL's
 * folder (`https://me.github.io/namecard/` → `/namecard/`, GitHub Pages' project sites); set to
 * `/` while the site URL names a folder, the two disagree and the build would load every asset
 * from the host's root, where there is none.
 *
 * @param siteUrl the absolute http(s) URL the site is hosted at (`NAMECARD_SITE_URL`)
 * @param setting `NAMECARD_BASE_PATH` as given, or undefined when unset or empty
 * @returns the base path, with a leading and a trailing slash
 * @throws ConfigError naming `NAMECARD_BASE_PATH` when it is malformed or `/` against a site URL
 *   with a folder; naming `NAMECARD_SITE_URL` when its folder is not a URL path a base path may
 *   be. A base path other than `/` that differs from the site URL's folder is refused by
 *   {@link cardLink}.
 * @example siteBasePath('https://me.github.io/namecard/', undefined) // → '/namecard/'
 */
export function siteBasePath(siteUrl: string, setting: string | undefined): string {
  const folder = folderOf(new URL(siteUrl));
  if (setting?.trim()) {
    const basePath = parseBasePath(setting);
    if (basePath === '/' && folder !== '/') {
      throw new ConfigError(
        BASE_PATH_SETTING,
        `\`${BASE_PATH_SETTING}\` is /, but \`${SITE_URL_SETTING}\` ${siteUrl} is under ${folder}: the pages would load their scripts from the host's /assets/, not from ${folder}assets/. Set ${BASE_PATH_SETTING}=${folder}, or leave it unset to take the site URL's path`,
      );
    }
    return basePath;
  }
  // URL has already resolved `.` and `..` segments; what is left must have a base path's form.
  if (BASE_PATH_FORM.test(folder)) return folder;
  throw new ConfigError(
    SITE_URL_SETTING,
    `\`${SITE_URL_SETTING}\`'s path ${folder} cannot be the site's base path: use a folder of letters, digits and . _ ~ - such as https://me.example/namecard/, got \`${siteUrl}\``,
  );
}

/**
 * The card link: the address of the Redirecting.. page (`go/`) of the site hosted at
 * `siteUrl`, the one link to print on the card or put in its QR code.
 *
 * The site's pages refer to each other and to their scripts under the base path they were built
 * for, so the site can only be hosted there: a site URL without a path (`https://me.example`)
 * takes the base path, and one with a path must be that base path ({@link siteBasePath} gives
 * the base path that agrees with a site URL). With the base path `/` the site URL's own folder
 * is taken as it is.
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
  const folder = folderOf(url);
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

/** The query parameter of a card's link that names the card: `/go/?c=<slug>`. */
export const CARD_PARAM = 'c';

/**
 * The link of one card: the card link itself (`…/go/`) for the card main, so that every card
 * printed with the bare link keeps working, and `…/go/?c=<slug>` for any other. Works on any
 * static host (a query, no rewrite rule).
 *
 * @param link the card link, as {@link cardLink} returns it (no query)
 * @param slug the card's slug
 * @returns the card's link
 * @example cardLinkOf('https://me.example/go/', 'studio') // → 'https://me.example/go/?c=studio'
 */
export function cardLinkOf(link: string, slug: string): string {
  const url = new URL(link);
  url.search = '';
  if (slug !== MAIN_CARD) url.searchParams.set(CARD_PARAM, slug);
  return url.href;
}

/**
 * The card a visitor of /go asks for, from the page's query: `main` for a bare `/go/` and for an
 * empty `?c=`, the slug of `?c=<slug>` in lower case (slugs are matched without regard to case),
 * or `undefined` when `c` is given but is no slug (nothing to ask: visitors get the main site, as
 * for an unknown card).
 *
 * @param search the page's `location.search`
 * @example goCardOf('?c=Studio&via=qr') // → 'studio'
 */
export function goCardOf(search: string): string | undefined {
  const card = (new URLSearchParams(search).get(CARD_PARAM) ?? '').trim().toLowerCase();
  if (card === '') return MAIN_CARD;
  return isCardSlug(card) ? card : undefined;
}

/** The channels a card link can be marked with: its QR code and an NFC tag. */
export type LinkChannel = 'qr' | 'nfc';

/**
 * The card link marked with the channel it is given through, `…/go/?via=qr` for the QR code
 * and `…/go/?via=nfc` for an NFC tag, so that /go counts the visit for that channel (the
 * plain link, on printed cards, counts as `link`). A card's `?c=` stays; /go ignores any other
 * query.
 *
 * @param link the card link, as {@link cardLink} or {@link cardLinkOf} returns it
 * @param via the channel
 * @returns the marked link
 * @example channelLink('https://me.example/go/', 'qr') // → 'https://me.example/go/?via=qr'
 * @example channelLink('https://me.example/go/?c=studio', 'nfc') // → 'https://me.example/go/?c=studio&via=nfc'
 */
export function channelLink(link: string, via: LinkChannel): string {
  const url = new URL(link);
  const card = url.searchParams.get(CARD_PARAM);
  url.search = '';
  if (card !== null) url.searchParams.set(CARD_PARAM, card);
  url.searchParams.set('via', via);
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
