import { build, type Plugin } from 'vite';
import type { SiteConfig } from '../src/site-config.js';

/** The Redirecting.. page, as Vite names it (`ctx.path`), and its script and stylesheet tags. */
const GO_PAGE = '/go/index.html';
const GO_SCRIPT_TAG = /\s*<script type="module" src="\/src\/go\/main\.ts"><\/script>/;
const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="([^"]+\.css)">/;

/** Bundles /go's script (site/src/go/main.ts with all it imports) into one minified ES module. */
async function bundleGoScript(root: string, config: SiteConfig): Promise<string> {
  const output = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    // The same guards as the site's own build: only `define` reaches the bundle.
    envDir: false,
    envPrefix: 'NAMECARD_SITE_EXPOSES_NO_ENV_',
    publicDir: false,
    define: { __NAMECARD_SITE__: JSON.stringify(config) },
    build: {
      write: false,
      emptyOutDir: false,
      copyPublicDir: false,
      modulePreload: { polyfill: false },
      rolldownOptions: { input: `${root}src/go/main.ts` },
    },
  });
  const files = (Array.isArray(output) ? output : [output]).flatMap((o) =>
    'output' in o ? o.output : [],
  );
  const [chunk, ...rest] = files;
  if (!chunk || chunk.type !== 'chunk' || rest.length > 0) {
    throw new Error(`/go's script must bundle into one file, got: ${files.map((f) => f.fileName)}`);
  }
  return chunk.code.trim();
}

/**
 * Makes /go self-contained, so a first-time visitor's browser starts the lookup as soon as the
 * HTML has arrived, with no further request (every extra round trip before the lookup
 * delayed the redirect decision):
 *
 * - `pre`: drops the `<script src="/src/go/main.ts">` tag from go/index.html, so the site's
 *   build makes no chunks for /go (the dev server, which does not apply this plugin, still
 *   serves it as a module file);
 * - `post`: bundles site/src/go/main.ts on its own into ONE minified module (a separate Vite
 *   build in memory, with the same `define`) and puts it into the page as an inline
 *   `<script type="module">`, and replaces the site stylesheet's `<link>` by a `<style>` with
 *   the very same built CSS (the asset stays in the bundle for the other pages).
 *
 * The page's CSP then admits exactly these two inline elements by their hashes (`cspMeta`, which
 * must come after this plugin). The preconnect to the API is in go/index.html itself.
 *
 * @throws Error (failing the build) when go/index.html does not have the expected tags, or the
 *   inlined code would end its element early
 */
export function inlineGo(root: string, config: SiteConfig): Plugin[] {
  return [
    {
      name: 'namecard-inline-go:drop-script',
      apply: 'build',
      transformIndexHtml: {
        order: 'pre',
        handler: (html, ctx) => {
          if (ctx.path !== GO_PAGE) return html;
          if (!GO_SCRIPT_TAG.test(html)) throw new Error(`${ctx.path}: no /src/go/main.ts script`);
          return html.replace(GO_SCRIPT_TAG, '');
        },
      },
    },
    {
      name: 'namecard-inline-go:inline',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler: async (html, ctx) => {
          if (ctx.path !== GO_PAGE) return html;
          const link = STYLESHEET_LINK.exec(html);
          const fileName = link?.[1]?.slice(config.basePath.length);
          const css = ctx.bundle?.[fileName ?? ''];
          if (!link || !css || css.type !== 'asset') {
            throw new Error(`${ctx.path}: its built stylesheet was not found`);
          }
          const style = String(css.source).trim();
          const script = await bundleGoScript(root, config);
          if (/<\/style/i.test(style) || /<\/script|<!--/i.test(script)) {
            throw new Error(`${ctx.path}: the inlined code would end its element early`);
          }
          if (/<script\b/i.test(html)) throw new Error(`${ctx.path}: has a script of its own`);
          return html
            .replace(link[0], () => `<style>${style}</style>`)
            .replace('</body>', () => `  <script type="module">${script}</script>\n  </body>`);
        },
      },
    },
  ];
}
