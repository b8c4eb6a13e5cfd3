import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Folders never read, wherever they are: git's own, installed packages and build output. */
const NEVER_READ = new Set(['.git', 'node_modules', 'dist', '.vite', 'coverage']);

/**
 * The files under `dir` (relative to `root`) that `accept` takes, found by walking the folder
 * (not by asking git, so that a check runs the same on a checkout and on a test's temporary
 * folder). Installed packages and build output are never read.
 * @param root the checkout's folder
 * @param dir a folder relative to `root`; a missing folder has no files
 * @param accept takes a path relative to `root`, with `/` separators
 * @returns the accepted paths, relative to `root` with `/` separators, sorted
 */
export function filesUnder(root: string, dir: string, accept: (file: string) => boolean): string[] {
  const top = path.join(root, dir);
  if (!existsSync(top)) return [];
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!NEVER_READ.has(entry.name)) walk(full);
        continue;
      }
      const file = path.relative(root, full).split(path.sep).join('/');
      if (entry.isFile() && accept(file)) found.push(file);
    }
  };
  walk(top);
  return found.sort();
}
