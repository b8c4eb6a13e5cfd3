import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's postgresql packages put the server binaries. */
const DEBIAN_PG_ROOT = '/usr/lib/postgresql';

export const MISSING_POSTGRES_MESSAGE =
  'PostgreSQL server binaries (initdb, pg_ctl) were not found under /usr/lib/postgresql/*/bin: ' +
  "install Debian's postgresql: apt-get install -y postgresql, or set NAMECARD_TEST_DATABASE_URL";

export interface ThrowawayPostgres {
  /** postgres://<superuser>@127.0.0.1:<port>/postgres (trust auth, loopback only). */
  url: string;
  /** Stops the server and deletes its directory. Idempotent. */
  stop(): Promise<void>;
}

/** The newest /usr/lib/postgresql/<major>/bin holding initdb and pg_ctl. */
export function findPostgresBinDir(): string | undefined {
  if (!existsSync(DEBIAN_PG_ROOT)) return undefined;
  const majors = readdirSync(DEBIAN_PG_ROOT)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = path.join(DEBIAN_PG_ROOT, major, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts a private PostgreSQL server for tests and benchmarks: initdb into a new
 * temporary directory, listening on 127.0.0.1 only (its unix socket inside that
 * directory), trust authentication, durability switched off for speed. As root it
 * runs as the `postgres` OS user, since PostgreSQL refuses to run as root.
 * @param options.superuser the bootstrap superuser's name (default `postgres`; Supabase's
 *   images name it `supabase_admin`)
 * @throws Error with MISSING_POSTGRES_MESSAGE when the server binaries are missing;
 * the initdb/pg_ctl error (with the server log) when the server does not start.
 */
export async function startThrowawayPostgres(
  options: { superuser?: string } = {},
): Promise<ThrowawayPostgres> {
  const superuser = options.superuser ?? 'postgres';
  const bin = findPostgresBinDir();
  if (!bin) throw new Error(MISSING_POSTGRES_MESSAGE);
  const dir = await mkdtemp(path.join(tmpdir(), 'namecard-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
  }
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);

  try {
    await pg('initdb', [
      '-D',
      dataDir,
      '-U',
      superuser,
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const port = await freePort();
    const settings = [
      `-c listen_addresses=127.0.0.1`,
      `-p ${port}`,
      `-k ${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    await pg('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', settings, 'start']);
    let stopped: Promise<void> | undefined;
    return {
      url: `postgres://${superuser}@127.0.0.1:${port}/postgres`,
      stop() {
        stopped ??= (async () => {
          await pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => {});
          await rm(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (e) {
    const log = await import('node:fs/promises')
      .then((fs) => fs.readFile(logFile, 'utf8'))
      .catch(() => '');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL: ${(e as Error).message}\n${log}`, {
      cause: e,
    });
  }
}
