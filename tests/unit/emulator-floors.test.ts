import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// emulator/'s floors (eslint.config.js): the database, the catalog, the keys, the limits and
// the handlers' context are below GoTrue (auth/) and PostgREST (rest/), which are below the app.
// These lint source text as if it stood in those files, as `npm run lint` would see it.
const eslint = new ESLint({ cwd: process.cwd() });

async function floorMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

describe('lint: no import climbs to a floor above in emulator/', () => {
  it.each([
    ['emulator/context.ts', "import type { RequestRole } from './rest/request-role.js';"],
    ['emulator/context.ts', "import type { RateLimits } from './auth/rate-limit.js';"],
    ['emulator/catalog/schema-cache.ts', "import { EXPOSED_SCHEMA } from '../rest/routes.js';"],
    ['emulator/db/types.ts', "import { authRoutes } from '../auth/routes.js';"],
    ['emulator/rest/run.ts', "import { createApp } from '../server.js';"],
    ['emulator/auth/token-routes.ts', "import { startEmulator } from '../index.js';"],
  ])('fails when %s imports from above: %s', async (file, code) => {
    const name = code.match(/\{ (?:type )?(\w+) \}/)?.[1];
    const messages = await floorMessages(file, `${code}\nexport const used = [${name}];\n`);
    expect(messages).toHaveLength(1);
  });

  it.each([
    ['emulator/rest/run.ts', "import { isDbError } from '../db/index.js';"],
    ['emulator/auth/token-routes.ts', "import type { ServerContext } from '../context.js';"],
    ['emulator/server.ts', "import { restRoutes } from './rest/routes.js';"],
  ])('passes when %s imports from below: %s', async (file, code) => {
    const name = code.match(/\{ (?:type )?(\w+) \}/)?.[1];
    expect(await floorMessages(file, `${code}\nexport const used = [${name}];\n`)).toEqual([]);
  });
});
