import { build } from 'vite';
import { siteViteConfig } from '../site/vite.config.js';

/**
 * Builds the static site with the given settings, as `npm run build:site` does with
 * `process.env`.
 *
 * @param env settings by their environment names (only the public ones are read)
 * @param outDir where the files go (default `dist/site/`)
 * @throws ConfigError naming a bad setting; Vite's error when the build fails
 */
export async function buildSite(
  env: Record<string, string | undefined>,
  outDir?: string,
): Promise<void> {
  await build({ ...siteViteConfig(env, outDir), configFile: false, logLevel: 'warn' });
}
