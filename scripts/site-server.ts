import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sirv from 'sirv';
import { listen, type RunningServer } from './http-server.js';

/**
 * Serves a built site the way a plain static host does (GitHub Pages, S3): files only, no
 * rewrites and no SPA fallback; a path with no file gets `404.html` with status 404.
 *
 * @param dir the built site, e.g. `dist/site`
 * @param options.basePath the base path the site was built for (`NAMECARD_BASE_PATH`)
 */
export async function serveSite(
  dir: string,
  options: { host?: string; port?: number; basePath?: string } = {},
): Promise<RunningServer> {
  const basePath = options.basePath ?? '/';
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
    files(req, res, () => void notFound(res));
  }, options);
}
