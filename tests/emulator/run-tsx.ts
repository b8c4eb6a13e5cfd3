import { execa, type ResultPromise } from 'execa';
import { fileURLToPath } from 'node:url';

/** The repository root, where `npm run emulator` runs. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs a TypeScript entry point of the emulator the way its npm script does
 * (tsx), without npm in between so signals reach the process under test.
 */
export function runTsx(
  entry: string,
  args: string[],
  opts: { env?: Record<string, string | undefined>; input?: string } = {},
): ResultPromise<{
  reject: false;
  cwd: string;
  env: Record<string, string | undefined>;
  extendEnv: true;
  input?: string;
}> {
  return execa(process.execPath, ['--import', 'tsx', entry, ...args], {
    reject: false,
    cwd: ROOT,
    env: opts.env ?? {},
    extendEnv: true,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
  }) as never;
}
