// Measurement 6: what the owner's pages load before they first draw. The site is built with the
// project's own build (as `npm run build:site` builds it), then each page's module scripts and
// everything they import statically are gzipped (level 9) and summed
// (tests/support/first-draw.ts: the same figure tests/e2e/static-host.test.ts holds to the
// budgets). Chunks loaded with import() (the QR drawing, the visits chart, the form's planEntry)
// come after the first draw and are reported apart. No database or browser is needed.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSite } from '../scripts/site-build.js';
import { firstDrawScripts, type FirstDrawScript } from '../tests/support/first-draw.js';
import { track } from './cleanup.js';

/** The owner's pages and their budgets of gzipped script before the first draw, in KB (1,024 B). */
export const SITE_BUDGETS = [
  { page: '/manage', html: 'manage/index.html', budgetKB: 110 },
  { page: '/login', html: 'login/index.html', budgetKB: 130 },
] as const;

export interface SitePageFigures {
  page: string;
  budgetKB: number;
  /** Gzipped bytes of the scripts loaded before the first draw. */
  gzipBytes: number;
  scripts: FirstDrawScript[];
}

export interface SiteResult {
  pages: SitePageFigures[];
  /** Gzipped bytes of every script file of the build (what loads later included). */
  allScriptsGzipBytes: number;
}

/** Builds the site into a temporary folder and weighs what /manage and /login load first. */
export async function measureSite(log: (line: string) => void): Promise<SiteResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'namecard-bench-site-'));
  const forget = track(`temp dir ${dir}`, () => rm(dir, { recursive: true, force: true }));
  try {
    // Settings only shape the HTML and the embedded config; the API need not run.
    await buildSite(
      {
        SUPABASE_URL: 'http://127.0.0.1:54321',
        NAMECARD_MAIN_URL: 'https://card.example/',
      },
      dir,
    );
    const pages: SitePageFigures[] = [];
    for (const { page, html, budgetKB } of SITE_BUDGETS) {
      const { scripts, gzipBytes } = await firstDrawScripts(dir, html);
      pages.push({ page, budgetKB, gzipBytes, scripts });
      log(`site ${page}: ${(gzipBytes / 1024).toFixed(1)} KB of script before the first draw`);
    }
    const assets = (await readdir(path.join(dir, 'assets'))).filter((f) => f.endsWith('.js'));
    let allScriptsGzipBytes = 0;
    for (const file of assets) {
      allScriptsGzipBytes += gzipSync(await readFile(path.join(dir, 'assets', file)), {
        level: 9,
      }).length;
    }
    return { pages, allScriptsGzipBytes };
  } finally {
    await forget();
  }
}
