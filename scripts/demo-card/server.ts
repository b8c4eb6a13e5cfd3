import { resolveTargets } from '../../shared/core/rules.js';
import { listen, type RunningServer } from '../http-server.js';

// Two pages that stand for the owner's card site while trying the product locally: the main
// site at `/` and its photo section, so a visitor's redirect lands on a page saying which.

const page = (title: string, heading: string, text: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<link rel="icon" href="data:," />
<title>${title}</title>
<style>
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #eef2f6;
  font-family: system-ui, sans-serif; color: #1c1f24; }
main { background: #fff; border: 1px solid #e2e6eb; border-radius: 12px; padding: 2.5rem 3rem;
  text-align: center; max-width: 28rem; }
h1 { margin: 0 0 0.5rem; }
p { color: #5f6b7a; margin: 0; }
</style>
</head>
<body><main><h1>${heading}</h1><p>${text}</p></main></body>
</html>
`;

const MAIN_PAGE = page(
  'Main profile | demo card',
  'Main profile',
  "This demo page stands for the owner's main card site.",
);
const PHOTO_PAGE = page(
  'Photo profile | demo card',
  'Photo profile',
  "This demo page stands for the photo section of the owner's card site.",
);

/**
 * Serves the demo card pages: `/` says "Main profile", the photo path (`/photo` by default)
 * says "Photo profile"; anything else is a 404.
 *
 * @param options.photoPath the photo sub-path, as in `NAMECARD_PHOTO_PATH`
 * @param options.onRequest called with each request's path as it arrives (tests time visits)
 * @returns the server; its `url` is the main card site to build the site with
 */
export async function startDemoCards(
  options: {
    host?: string;
    port?: number;
    photoPath?: string;
    onRequest?: (path: string) => void;
  } = {},
): Promise<RunningServer> {
  let photoPathname = '/photo';
  const server = await listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/(.)\/$/, '$1');
    options.onRequest?.(path);
    const body = path === '/' ? MAIN_PAGE : path === photoPathname ? PHOTO_PAGE : undefined;
    res
      .writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' })
      .end(body ?? page('Not found | demo card', 'Not found', 'No demo card page here.'));
  }, options);
  photoPathname = new URL(
    resolveTargets({ mainUrl: server.url, photoPath: options.photoPath ?? 'photo' }).photo,
  ).pathname.replace(/(.)\/$/, '$1');
  return server;
}
