// The parent side of bench/emulator-host.ts: starts an emulator process over PGlite or a
// PostgreSQL database and offers the programmatic API's superuser `query` and `createUser`.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { track } from './cleanup.js';

/** The two databases the emulator runs on. */
export type DbKind = 'postgres' | 'pglite';

export type HostRequest =
  | { id: number; op: 'query'; sql: string; params?: unknown[] }
  | { id: number; op: 'createUser'; email: string; password: string; owner: boolean }
  | { id: number; op: 'stop' };

export type HostReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A running emulator process. */
export interface BenchEmulator {
  db: DbKind;
  /** API URL on 127.0.0.1. */
  url: string;
  anonKey: string;
  /** The emulator process id (for profiling and for the report). */
  pid: number;
  /** Runs SQL as the database superuser. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  createUser(email: string, password: string, owner: boolean): Promise<{ id: string }>;
  stop(): Promise<void>;
}

const HOST = fileURLToPath(new URL('./emulator-host.ts', import.meta.url));
const START_TIMEOUT_MS = 120_000;

/**
 * Starts an emulator on a free port of 127.0.0.1, over PGlite (in memory) or over the
 * PostgreSQL database at `databaseUrl`.
 * @throws when the emulator does not start (its error message) or takes over 2 minutes.
 */
export async function spawnEmulator(db: DbKind, databaseUrl?: string): Promise<BenchEmulator> {
  const child = fork(HOST, [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_EMULATOR_DATABASE_URL: db === 'postgres' ? databaseUrl : '' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const untrack = track(`emulator (${db}, pid ${child.pid})`, () => stopChild(child, exited));

  const pending = new Map<number, (reply: HostReply) => void>();
  let nextId = 1;
  const ready = new Promise<HostReply>((resolve, reject) => {
    pending.set(0, resolve);
    child.once('exit', (code) => reject(new Error(`emulator process exited with code ${code}`)));
    setTimeout(
      () => reject(new Error('emulator did not start within 2 minutes')),
      START_TIMEOUT_MS,
    ).unref();
  });
  child.on('message', (reply: HostReply) => {
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });

  const call = (request: DistributiveOmit<HostRequest, 'id'>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) =>
        reply.ok ? resolve(reply.value) : reject(new Error(reply.error)),
      );
      child.send({ ...request, id } as HostRequest);
    });

  let first: HostReply;
  try {
    first = await ready;
  } catch (error) {
    await untrack();
    throw error;
  }
  if (!first.ok) {
    await untrack();
    throw new Error(`emulator (${db}) failed to start: ${first.error}`);
  }
  const { url, anonKey } = first.value as { url: string; anonKey: string };
  return {
    db,
    url,
    anonKey,
    pid: child.pid ?? -1,
    query: (sql, params) => call({ op: 'query', sql, params }) as Promise<never[]>,
    createUser: (email, password, owner) =>
      call({ op: 'createUser', email, password, owner }) as Promise<{ id: string }>,
    stop: untrack,
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  if (child.connected) child.send({ id: -1, op: 'stop' } satisfies HostRequest);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
