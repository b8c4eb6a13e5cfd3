// `npm run build:site`: the static site into dist/site/, with the settings of the environment
// and the project's `.env` (the environment wins). A bad setting ends the build with one
// `error:` line naming it (exit 1), not with Vite's report of a config file that failed to load
// and the stack trace under it.
import { fileURLToPath } from 'node:url';
import pc from 'picocolors';
import { loadEnvFile } from '../shared/core/env-file.js';
import { ConfigError } from '../shared/core/errors.js';
import { buildSite } from './site-build.js';

try {
  loadEnvFile(fileURLToPath(new URL('../.env', import.meta.url)));
  await buildSite(process.env, undefined, 'info');
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(pc.red(`error: ${error.message}`));
  process.exitCode = 1;
}
