// The two pages of measurement 2, built for one emulator: the real site (its /go page) with
// the project's own build, and the BASELINE page (bench/baseline/) with a plain Vite build.
// Each is served from its own static server on 127.0.0.1.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildSite } from '../scripts/site-build.js';
import { serveSite } from '../scripts/site-server.js';
import { MAIN_CARD } from '../shared/core/cards.js';
import { GO_FUNCTION, lookupUrl } from '../shared/core/lookup.js';
import { track } from './cleanup.js';
import type { BenchEmulator } from './emulator.js';

const BASELINE_ROOT = fileURLToPath(new URL('./baseline/', import.meta.url));

/** A built page served on 127.0.0.1. */
export interface ServedPage {
  /** The page's URL (the site's /go, or the baseline's index). */
  url: string;
  stop(): Promise<void>;
}

async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `namecard-bench-${name}-`));
  track(`temp dir ${dir}`, () => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Serves an empty folder first (to learn its port, which the build needs as the main
 * site's URL), then builds into it: the redirect target is on the same static server.
 */
async function serveBuilt(
  name: string,
  entry: string,
  buildInto: (dir: string, origin: string) => Promise<void>,
): Promise<ServedPage> {
  const dir = await tempDir(name);
  const server = await serveSite(dir, { host: '127.0.0.1', port: 0 });
  const stop = track(`static server ${server.url}`, () => server.stop());
  await buildInto(dir, server.url);
  return { url: new URL(entry, server.url).href, stop };
}

/** The project's site built against `emulator`, as `npm run build:site` builds it; its /go. */
export function serveGoPage(emulator: BenchEmulator): Promise<ServedPage> {
  return serveBuilt('site', 'go/', (dir, origin) =>
    buildSite(
      {
        SUPABASE_URL: emulator.url,
        SUPABASE_ANON_KEY: emulator.anonKey,
        NAMECARD_MAIN_URL: `${origin}main/`,
        NAMECARD_PHOTO_PATH: 'photo',
      },
      dir,
    ),
  );
}

/** The baseline page (bench/baseline/) built against `emulator`. */
export function serveBaselinePage(emulator: BenchEmulator): Promise<ServedPage> {
  return serveBuilt('baseline', './', async (dir, origin) => {
    const config = {
      supabaseUrl: emulator.url,
      anonKey: emulator.anonKey,
      mainUrl: `${origin}main/`,
      photoUrl: `${origin}main/photo`,
    };
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        root: BASELINE_ROOT,
        configFile: false,
        envDir: false,
        publicDir: false,
        logLevel: 'warn',
        define: { __BASELINE__: JSON.stringify(config) },
        build: { outDir: dir, emptyOutDir: false, modulePreload: { polyfill: false } },
      });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
  });
}

/**
 * The URL of the lookup the REFERENCE page sends: the very GET of `fetchActiveEntry` for the card
 * main (`namecard_go`, the anon key as `apikey`), what a bare `/go/` asks.
 */
export function lookupUrlTemplate(emulator: BenchEmulator): string {
  return lookupUrl(emulator.url, emulator.anonKey, GO_FUNCTION, MAIN_CARD);
}

/**
 * A REFERENCE page for the physical limit of the visitor's path: one HTML file whose inline
 * script sends one "simple" CORS GET (the anon key as the `apikey` URL parameter, which the
 * gateway accepts, and no custom header, so the browser sends no preflight) and decides.
 * Not the product: it shows how close /go is to what one HTML file plus one round trip
 * costs on the same machine in the same run. It has /go's preconnect to the API, and
 * redirects 1.5 s after deciding, as /go does.
 */
export function serveLimitPage(emulator: BenchEmulator): Promise<ServedPage> {
  return serveBuilt('limit', './', async (dir, origin) => {
    const script = `
const url = ${JSON.stringify(lookupUrlTemplate(emulator))};
const main = ${JSON.stringify(`${origin}main/`)};
fetch(url, { headers: { Accept: 'application/json' } })
  .then((r) => r.json())
  .then((rows) => (rows[0] && rows[0].type === 'photo' ? main + 'photo' : main))
  .catch(() => main)
  .then((target) => {
    const root = document.documentElement;
    root.dataset.target = target;
    root.dataset.lookupDoneAt = String(performance.timeOrigin + performance.now());
    setTimeout(() => window.location.replace(target), 1500);
  });`;
    await writeFile(
      path.join(dir, 'index.html'),
      `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>Namecard (limit)</title>
    <link rel="preconnect" href="${new URL(emulator.url).origin}" crossorigin />
    <script type="module">${script}</script>
  </head>
  <body>
    <main>
      <h1>Redirecting..</h1>
      <p>If you are still not redirected, <a id="target" href="${origin}main/">click this link</a>.</p>
    </main>
  </body>
</html>
`,
    );
  });
}
