import type { Probe, ProbeOptions } from '../transport/probe.js';

// `namecard doctor`'s `pages` check: each page loaded as a browser loads it, the page and then
// every script and style its HTML names. A page whose script is missing is a white page (the
// React pages draw nothing without it) while the page itself answers 200, so only loading the
// files says whether the site works.

/** One check's outcome (the doctor's line): `fail` makes the command exit 1. */
export interface PageCheckResult {
  check: 'pages';
  status: 'ok' | 'fail';
  detail: string;
}

/** The pages a visitor or the owner opens, by their path under the site's URL. */
export const SITE_PAGES: readonly string[] = ['', 'login/', 'manage/', 'go/'];

/** A file a page loads: a script (module or preloaded module) or a style sheet. */
interface PageFile {
  url: string;
  kind: 'script' | 'style';
  /** The page that names it first, e.g. `/login/`. */
  page: string;
}

/** The attributes of one tag, by lower-case name (values of double or single quotes). */
function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    found[match[1]!.toLowerCase()] = (match[2] ?? match[3] ?? '').replace(/&amp;/g, '&');
  }
  return found;
}

/**
 * The scripts and style sheets a page's HTML loads: `<script src>`, `<link rel="stylesheet">`
 * and `<link rel="modulepreload">` (a module the browser fetches with the page), each resolved
 * against the page's URL. Read with patterns, not an HTML parser: the pages are the build's own,
 * whose tags Vite writes in one form; what a host puts in their place is judged by its files.
 *
 * @param html the page's HTML
 * @param pageUrl the URL that answered with it (references are resolved against it)
 * @param page the page's path under the site, e.g. `login/`, to name it in messages
 */
export function pageFiles(html: string, pageUrl: string, page: string): PageFile[] {
  const files: PageFile[] = [];
  for (const [tag, name] of html.matchAll(/<(script|link)\b[^>]*>/gi)) {
    const attrs = attributes(tag);
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
    const ref =
      name!.toLowerCase() === 'script'
        ? attrs.src && { href: attrs.src, kind: 'script' as const }
        : rel.includes('stylesheet')
          ? attrs.href && { href: attrs.href, kind: 'style' as const }
          : rel.includes('modulepreload')
            ? attrs.href && { href: attrs.href, kind: 'script' as const }
            : undefined;
    // A reference no URL can be made of is one the browser cannot load either: left out.
    if (ref && URL.canParse(ref.href, pageUrl)) {
      files.push({ url: new URL(ref.href, pageUrl).href, kind: ref.kind, page });
    }
  }
  return files;
}

const JAVASCRIPT = /^(text|application)\/(x-)?(javascript|ecmascript)$/;

/** The base path a file under `…/assets/` was built for: `/x/assets/a.js` → `/x/`. */
const builtFor = (url: URL) => /^(.*\/)assets\/[^/]*$/.exec(url.pathname)?.[1];

/**
 * Why a file of the site failed, in the user's words, with what to do: the likely cause read
 * from where the file is asked for and what answered.
 */
function fileProblem(file: PageFile, answer: Probe, siteUrl: string): string | undefined {
  const what = `${file.url} (a ${file.kind} of /${file.page})`;
  if (!answer.answered) return `${what} does not load (${answer.reason})`;
  const site = new URL(siteUrl);
  const url = new URL(file.url);
  if (answer.status !== 200) {
    const base = builtFor(url);
    if (
      url.origin === site.origin &&
      base !== undefined &&
      !url.pathname.startsWith(site.pathname)
    ) {
      return `${what} answers HTTP ${answer.status}: the site was built for the base path ${base}, but it is hosted at ${siteUrl}. Rebuild with NAMECARD_SITE_URL=${siteUrl} (and NAMECARD_BASE_PATH unset, or ${site.pathname}), then upload dist/site`;
    }
    return `${what} answers HTTP ${answer.status}: upload all of dist/site from one build (its assets/ folder too)`;
  }
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const wanted = file.kind === 'script' ? JAVASCRIPT.test(type) : type === 'text/css';
  if (wanted) return undefined;
  if (type === 'text/html') {
    return `${what} answers with a page (text/html), not the ${file.kind}: the host serves a page for files it does not have; upload all of dist/site from one build`;
  }
  const expected = file.kind === 'script' ? 'text/javascript' : 'text/css';
  return `${what} is sent as ${type || 'no content type'}; browsers use it only as ${expected}: have the host send ${expected} for .${file.kind === 'script' ? 'js' : 'css'} files`;
}

/**
 * The `pages` check: each of {@link SITE_PAGES} answers, and every script and style its HTML
 * loads answers 200 with the content type a browser needs.
 *
 * @param siteUrl where the site is hosted (ending in its base path)
 * @param pages the probes of the pages, in the order of {@link SITE_PAGES}
 * @param probe how to load one file
 */
export async function pagesCheck(
  siteUrl: string,
  pages: readonly Probe[],
  probe: (url: string, options: ProbeOptions) => Promise<Probe>,
): Promise<PageCheckResult> {
  const problems: string[] = [];
  const files = new Map<string, PageFile>();
  SITE_PAGES.forEach((path, i) => {
    const answer = pages[i]!;
    const url = new URL(path, siteUrl).href;
    if (!answer.answered || answer.status !== 200) {
      const how = answer.answered
        ? `answers HTTP ${answer.status}`
        : `does not load (${answer.reason})`;
      problems.push(`${url} ${how}: upload all of dist/site`);
      return;
    }
    for (const file of pageFiles(answer.text, answer.url, path)) {
      if (!files.has(file.url)) files.set(file.url, file);
    }
  });
  const answers = await Promise.all([...files.values()].map((f) => probe(f.url, { read: false })));
  [...files.values()].forEach((file, i) => {
    const problem = fileProblem(file, answers[i]!, siteUrl);
    if (problem) problems.push(problem);
  });
  if (problems.length > 0) {
    const more =
      problems.length > 1 ? ` (and ${problems.length - 1} more of the site's files)` : '';
    return { check: 'pages', status: 'fail', detail: `${problems[0]}${more}` };
  }
  return {
    check: 'pages',
    status: 'ok',
    detail: `${SITE_PAGES.map((p) => `/${p}`).join(', ')} load their ${files.size} scripts and styles`,
  };
}
