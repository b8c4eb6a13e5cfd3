import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version from the package's package.json. The built entry is `dist/cli/index.js` (two
 * folders down) and the source `cli/index.ts` (one down), so look upwards for it.
 */
export function readVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'namecard' && pkg.version) return pkg.version;
    } catch {
      // not here: try the parent folder
    }
    dir = path.dirname(dir);
  }
  return '0.0.0';
}
