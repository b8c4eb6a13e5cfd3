import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { loadEnvFile } from '../shared/core/env-file.js';
import { cardLinkFrom, siteConfigFrom, siteUrlFrom } from './build/build-config.js';
import { cspMeta } from './build/csp.js';
import { hostFiles } from './build/host-files.js';
import { inlineGo } from './build/inline-go.js';
import type { SiteConfig } from './src/site-config.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const defaultOutDir = fileURLToPath(new URL('../dist/site', import.meta.url));

/** One HTML file per route, so every route works on a static host without rewrite rules. */
const PAGES = {
  home: 'index.html',
  login: 'login/index.html',
  manage: 'manage/index.html',
  go: 'go/index.html',
  notFound: '404.html',
};

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * Fills `%NAMECARD_BASE%`, `%NAMECARD_MAIN_URL%` and `%NAMECARD_API_ORIGIN%` (the API's
 * origin, for /go's preconnect) into the static HTML, so links work before (and without) any
 * script.
 */
function staticHtml(config: SiteConfig): Plugin {
  const values: Record<string, string> = {
    NAMECARD_BASE: config.basePath,
    NAMECARD_MAIN_URL: config.mainUrl,
    NAMECARD_API_ORIGIN: new URL(config.supabaseUrl).origin,
  };
  return {
    name: 'namecard-static-html',
    transformIndexHtml: {
      order: 'pre',
      handler: (html, ctx) =>
        html.replace(/%(NAMECARD_[A-Z_]+)%/g, (match, name: string) => {
          const value = values[name];
          if (value === undefined) throw new Error(`${ctx.path}: unknown placeholder ${match}`);
          return escapeHtml(value);
        }),
    },
  };
}

/**
 * The Vite config of the site for the given settings (`process.env` for `vite build`).
 * Scripts and tests build with their own settings and output folder through Vite's `build()`.
 *
 * @param env settings by their environment names; only the public ones are read
 * @param outDir where the static files go (default `dist/site/`)
 * @throws ConfigError naming the bad setting, which fails the build
 */
export function siteViteConfig(
  env: Record<string, string | undefined>,
  outDir: string = defaultOutDir,
): UserConfig {
  const config = siteConfigFrom(env);
  return {
    root,
    base: config.basePath,
    // Nothing from the environment or .env files reaches the bundle except the settings
    // passed through `define` below: Vite loads no .env (ours is read into the settings
    // before this), and its prefix is one no variable has.
    envDir: false,
    envPrefix: 'NAMECARD_SITE_EXPOSES_NO_ENV_',
    publicDir: false,
    // inlineGo before cspMeta: the policy hashes the inline code that inlineGo puts into /go.
    // hostFiles: `_headers` for Netlify/Cloudflare Pages and the public `namecard.json`.
    plugins: [
      react(),
      staticHtml(config),
      inlineGo(root, config),
      cspMeta(config),
      hostFiles(config, siteUrlFrom(env)),
    ],
    // The card link is a define of its own, read only by /manage: /go's bundle (site/inline-go.ts)
    // and the embedded site config stay as they are.
    define: {
      __NAMECARD_SITE__: JSON.stringify(config),
      __NAMECARD_CARD_LINK__: JSON.stringify(cardLinkFrom(env)),
    },
    build: {
      outDir,
      emptyOutDir: true,
      // Every browser the site supports has modulepreload; the polyfill would cost /go bytes.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        input: Object.fromEntries(
          Object.entries(PAGES).map(([name, file]) => [name, `${root}${file}`]),
        ),
      },
    },
  };
}

// `vite build --config site/vite.config.ts` (`npm run build:site` runs scripts/build-site.ts,
// which builds with the same config and reports a bad setting in one line): the project's
// `.env` fills in what the environment does not set.
export default defineConfig(() => {
  loadEnvFile(fileURLToPath(new URL('../.env', import.meta.url)));
  return siteViteConfig(process.env);
});
