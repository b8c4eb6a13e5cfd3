import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * PGlite has one in-process connection and no guard against a second process
 * opening the same data directory, which would corrupt it. A lock file holding the
 * owner's pid makes the second opener fail with a clear message instead; a lock left
 * by a process that no longer runs is taken over. It lives in the OS temp directory
 * (named after the directory's absolute path), so nothing is added to the repo.
 */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `the data directory \`${dataDir}\` is in use by process ${pid} (stop the emulator first)`,
    );
    this.name = 'DataDirInUseError';
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the lock for `dataDir`.
 * @returns a function that releases it
 * @throws DataDirInUseError when a running process holds it.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const key = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  const file = path.join(tmpdir(), `namecard-pglite-${key}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rm(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new DataDirInUseError(dataDir, pid);
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock \`${dataDir}\``);
}
