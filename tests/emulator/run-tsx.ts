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

/**
 * Starts `emulator/main.ts` in its own process (DATABASE_URL unset unless given in
 * `env`); resolves with the process and the API URL once it reports ready.
 * @throws when the process exits before it is ready.
 */
export async function startMain(args: string[], env: Record<string, string | undefined> = {}) {
  const child = runTsx('emulator/main.ts', args, { env: { DATABASE_URL: undefined, ...env } });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /API URL: (http:\/\/127\.0\.0\.1:\d+)\n[\s\S]*anon key: /.exec(output);
      if (m && output.includes('anon key: ey')) resolve(m[1]!);
    });
    void child.then((r) => reject(new Error(`emulator exited early (${r.exitCode}): ${r.stderr}`)));
  });
  return { child, url, output: () => output };
}
