import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sirv from 'sirv';
import { listen, type RunningServer } from './http-server.js';

/** The pages that act for a signed-in owner, which no other site may show in a frame. */
const UNFRAMEABLE = /^\/(login|manage)(\/|\.html$|$)/;

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
    if (antiFraming && UNFRAMEABLE.test(req.url.split(/[?#]/)[0] ?? '')) {
      for (const [name, value] of Object.entries(ANTI_FRAMING_HEADERS)) res.setHeader(name, value);
    }
    files(req, res, () => void notFound(res));
  }, options);
}
