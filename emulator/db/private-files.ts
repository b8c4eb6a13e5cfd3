import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Mode of the emulator's data folders: the owner only (rwx------). */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of the emulator's data files: the owner only (rw-------). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` and any missing parents with mode 0700, then sets `dir` itself to 0700
 * (it may exist from an earlier run with a wider mode). Parents that already exist
 * are left as they are.
 * @throws the file system error (e.g. EACCES, ENOTDIR).
 */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
}

/**
 * Sets every folder under `dir` (itself included) to 0700 and every file to 0600;
 * symbolic links are not followed.
 *
 * Needed because PGlite's file system layer gives the files it writes mode 0666
 * whatever the process umask (measured: 968 of 1,005 files of a new data directory),
 * so a umask alone cannot keep them private. Files PGlite adds while it runs are
 * covered by the 0700 folder around them until the next pass.
 * @throws the file system error of the first entry that cannot be changed.
 */
export async function restrictTree(dir: string): Promise<void> {
  const walk = async (at: string): Promise<void> => {
    const info = await lstat(at);
    if (info.isSymbolicLink()) return;
    if (info.isDirectory()) {
      if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) await chmod(at, PRIVATE_DIR_MODE);
      const entries = await readdir(at);
      await Promise.all(entries.map((name) => walk(path.join(at, name))));
    } else if ((info.mode & 0o777) !== PRIVATE_FILE_MODE) {
      await chmod(at, PRIVATE_FILE_MODE);
    }
  };
  await walk(dir);
}
