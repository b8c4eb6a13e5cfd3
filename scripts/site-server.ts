import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import sirv from 'sirv';
import { listen, type RunningServer } from './http-server.js';

/** The pages that act for a signed-in owner, which no other site may show in a frame. */
const UNFRAMEABLE = /^\/(login|manage)(\/|\.html$|$)/;

/**
 * The path a request names once spelled plainly, as the file server resolves it: percent
 * escapes decoded (`/%6danage/` is `/manage/`), runs of slashes made one (`//login/`), dot
 * segments resolved. Whether a page may be framed is decided on this, never on the spelling.
 * A path that cannot be decoded counts as one that may not be framed.
 *
 * @param url the request's path and query, e.g. `//manage/?x=1`
 * @returns the normalized path, or null when it cannot be decoded
 */
export function normalizedPath(url: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(url.split(/[?#]/)[0] ?? '/');
  } catch {
    return null;
  }
  return posix.normalize(path.replace(/\\/g, '/').replace(/\/{2,}/g, '/'));
}

/**
 * The headers that keep a page out of other sites' frames: CSP's `frame-ancestors 'none'`
 * and, for older browsers, `X-Frame-Options: DENY`. /go has neither: it may be framed.
 */
export const ANTI_FRAMING_HEADERS = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
} as const;

/**
 * Serves a built site the way a plain static host does (GitHub Pages, S3): files only, no
 * rewrites and no SPA fallback; a path with no file gets `404.html` with status 404. Where
 * a host can set headers, this server does what the README asks of it: /login and /manage
 * get ANTI_FRAMING_HEADERS.
 *
 * @param dir the built site, e.g. `dist/site`
 * @param options.basePath the base path the site was built for (`NAMECARD_BASE_PATH`)
 * @param options.antiFraming false: no headers at all, like GitHub Pages (default true)
 */
export async function serveSite(
  dir: string,
  options: { host?: string; port?: number; basePath?: string; antiFraming?: boolean } = {},
): Promise<RunningServer> {
  const basePath = options.basePath ?? '/';
  const antiFraming = options.antiFraming ?? true;
  const files = sirv(dir, { dev: true, etag: true, extensions: ['html'] });
  const notFound = async (res: import('node:http').ServerResponse) => {
    const page = await readFile(join(dir, '404.html')).catch(() => Buffer.from('Not found'));
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
  };
  return listen((req, res) => {
    const url = req.url ?? '/';
    if (basePath !== '/' && `${url}/` === basePath) {
      res.writeHead(301, { Location: basePath }).end();
      return;
    }
    if (!url.startsWith(basePath)) {
      void notFound(res);
      return;
    }
    req.url = `/${url.slice(basePath.length)}`;
    const plain = normalizedPath(req.url);
    if (antiFraming && (plain === null || UNFRAMEABLE.test(plain))) {
      for (const [name, value] of Object.entries(ANTI_FRAMING_HEADERS)) res.setHeader(name, value);
    }
    files(req, res, () => void notFound(res));
  }, options);
}
