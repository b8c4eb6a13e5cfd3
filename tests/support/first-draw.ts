// What a built page must load before it can draw anything: the script of a page is an ES
// module, and a module's body runs only after every module it imports statically (`import …
// from`) has been fetched and run. So the page's module scripts, the files it preloads and
// everything they import statically come before the first draw; a chunk that is only ever
// loaded with `import()` (React.lazy, the QR drawing) comes after. The bench (bench/site.ts)
// reports these figures and tests/e2e/static-host.test.ts holds them to the budgets.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** One script a page loads before its first draw. */
export interface FirstDrawScript {
  /** The file under the site's folder (`assets/manage-x.js`), or `inline` for inline code. */
  file: string;
  /** Its size as sent, gzipped at level 9 (bytes). */
  gzipBytes: number;
}

/** The scripts a page loads before its first draw, and their sum. */
export interface FirstDraw {
  scripts: FirstDrawScript[];
  /** The sum of the scripts' gzipped sizes (bytes). */
  gzipBytes: number;
}

const gzipped = (code: string | Uint8Array) => gzipSync(code, { level: 9 }).length;

/**
 * The scripts the built page `html` (a path under `siteDir`, e.g. `manage/index.html`) loads
 * before it first draws, found by esbuild's parser (its metafile tells static imports from
 * dynamic ones), each with its gzipped size.
 *
 * @param siteDir the built site's folder (`dist/site` or a test build's)
 * @param html the page's HTML file, relative to `siteDir`
 * @param basePath the base path the site was built for (`NAMECARD_BASE_PATH`, default `/`)
 */
export async function firstDrawScripts(
  siteDir: string,
  html: string,
  basePath = '/',
): Promise<FirstDraw> {
  siteDir = path.resolve(siteDir);
  const text = await readFile(path.join(siteDir, html), 'utf8');
  const scripts: FirstDrawScript[] = [];
  for (const [, code] of text.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)) {
    scripts.push({ file: 'inline', gzipBytes: gzipped(code ?? '') });
  }
  const urls = [
    ...text.matchAll(/<script type="module"[^>]* src="([^"]+)"/g),
    ...text.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)"/g),
  ].map((match) => match[1] ?? '');
  const entries = urls.map((url) => {
    if (!url.startsWith(basePath)) throw new Error(`${html}: ${url} is not under ${basePath}`);
    return path.join(siteDir, url.slice(basePath.length));
  });
  if (entries.length > 0) {
    const { metafile } = await build({
      entryPoints: entries,
      absWorkingDir: siteDir,
      bundle: true,
      splitting: true,
      format: 'esm',
      write: false,
      metafile: true,
      outdir: path.join(siteDir, '.first-draw'),
      logLevel: 'silent',
    });
    const seen = new Set<string>();
    const visit = (input: string) => {
      if (seen.has(input)) return;
      seen.add(input);
      for (const { path: target, kind } of metafile.inputs[input]?.imports ?? []) {
        if (kind === 'import-statement') visit(target);
      }
    };
    for (const entry of entries) visit(path.relative(siteDir, entry));
    for (const file of [...seen].sort()) {
      scripts.push({ file, gzipBytes: gzipped(await readFile(path.join(siteDir, file))) });
    }
  }
  return { scripts, gzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0) };
}
