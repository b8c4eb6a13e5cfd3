import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import type { SiteConfig } from '../src/site-config.js';

/** CSP's `'sha256-…'` source for an inline element's text (its UTF-8 bytes). */
export const cspHash = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** `'sha256-…'` of the empty string: the empty `<style>` element stitches appends. */
export const EMPTY_STYLE_HASH = cspHash('');

/** The text of a page's inline `<script>` (no `src`) and `<style>` elements. */
export interface InlineCode {
  scripts: string[];
  styles: string[];
}

const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;

/** The inline scripts and styles of a built page, whose hashes its policy must list. */
export function inlineCode(html: string): InlineCode {
  return {
    scripts: [...html.matchAll(INLINE_SCRIPT)].map((m) => m[1] ?? ''),
    styles: [...html.matchAll(INLINE_STYLE)].map((m) => m[1] ?? ''),
  };
}

/**
 * The Content-Security-Policy of every page, from the validated public settings.
 *
 * - Scripts only from the site itself: Vite emits module scripts as files, never inline. The
 *   one exception is /go, whose script and style the build inlines (site/build/inline-go.ts) so the
 *   lookup starts without another request: that page's policy admits exactly those elements by
 *   their hashes (`inline`), never `'unsafe-inline'`.
 * - Connections only to the API (`SUPABASE_URL`'s origin): the lookup and the visit count
 *   (`sendBeacon` to /rest/v1/rpc, which connect-src governs) on /go, and supabase-js on /login
 *   and /manage. The site fetches nothing else.
 * - Styles from the site, plus one empty `<style>` element: the Auth UI on /login (stitches)
 *   appends an empty `<style>` and fills it through the CSSOM (`insertRule`), which CSP does not
 *   restrict. Allowing the hash of the empty string admits exactly that element, where
 *   `'unsafe-inline'` would admit any injected `<style>` or `style="…"` markup. React sets
 *   `style` props through the CSSOM too.
 * - `data:` images for the empty `<link rel="icon" href="data:,">` that stops the browser
 *   asking for /favicon.ico.
 *
 * A `<meta>` policy cannot carry `frame-ancestors` or reporting; a host that can send headers
 * may add `frame-ancestors 'none'` there.
 *
 * @param config the site's validated settings (only `supabaseUrl` is read)
 * @param inline the page's own inline scripts and styles (none on every page but /go)
 * @returns the policy, directives separated by `; `
 * @example contentSecurityPolicy({ supabaseUrl: 'https://abc.supabase.co' })
 * // → "default-src 'self'; script-src 'self'; … connect-src https://abc.supabase.co; …"
 */
export function contentSecurityPolicy(
  config: Pick<SiteConfig, 'supabaseUrl'>,
  inline: InlineCode = { scripts: [], styles: [] },
): string {
  const api = new URL(config.supabaseUrl).origin;
  const hashes = (texts: string[]) => [...new Set(texts.map((t) => ` ${cspHash(t)}`))].join('');
  return [
    "default-src 'self'",
    `script-src 'self'${hashes(inline.scripts)}`,
    `style-src 'self' ${EMPTY_STYLE_HASH}${hashes(inline.styles.filter((t) => t !== ''))}`,
    "img-src 'self' data:",
    `connect-src ${api}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

const CHARSET_META = /<meta\s+charset=[^>]*>/i;

/**
 * Puts the policy into every page as `<meta http-equiv="Content-Security-Policy">` right after
 * the charset, before any script or stylesheet, so that it also works on a static host that
 * cannot send headers. It runs last (`post`, after site/build/inline-go.ts) and hashes the inline
 * scripts and styles it finds in the finished page. Only in builds: Vite's dev server injects inline scripts of its own.
 *
 * @throws Error (failing the build) for a page without `<meta charset>`, or one that has a
 *   policy of its own
 */
export function cspMeta(config: Pick<SiteConfig, 'supabaseUrl'>): Plugin {
  const meta = (html: string) => {
    const policy = contentSecurityPolicy(config, inlineCode(html));
    return `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll('"', '&quot;')}" />`;
  };
  return {
    name: 'namecard-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => {
        if (/http-equiv=["']?content-security-policy/i.test(html)) {
          throw new Error(`${ctx.path}: has a Content-Security-Policy of its own`);
        }
        if (!CHARSET_META.test(html)) {
          throw new Error(`${ctx.path}: needs <meta charset> (the policy goes right after it)`);
        }
        return html.replace(CHARSET_META, (charset) => `${charset}\n    ${meta(html)}`);
      },
    },
  };
}
