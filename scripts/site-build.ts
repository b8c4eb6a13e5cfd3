import { build } from 'vite';
import { siteViteConfig } from '../site/vite.config.js';

/**
 * Builds the static site with the given settings, as `npm run build:site` does with
 * `process.env`.
 *
 * @param env settings by their environment names (only the public ones are read)
 * @param outDir where the files go (default `dist/site/`)
 * @param logLevel what Vite prints: `warn` (default) only problems, `info` the files it wrote
 * @throws ConfigError naming a bad setting; Vite's error when the build fails
 */
export async function buildSite(
  env: Record<string, string | undefined>,
  outDir?: string,
  logLevel: 'info' | 'warn' = 'warn',
): Promise<void> {
  // Vite makes a production build only when NODE_ENV is unset or `production`; test runners
  // set it to `test`, which would bundle React's development build. Always build the product.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ ...siteViteConfig(env, outDir), configFile: false, logLevel });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
