// The PostgreSQL server for the `postgres` half of the benchmark: the one named by
// BENCH_DATABASE_URL (or DATABASE_URL), else a throwaway Debian PostgreSQL on loopback
// started by the tests' helper. Each table size gets a database of its own on it.
import pg from 'pg';
import { startThrowawayPostgres } from '../tests/support/postgres.js';
import { track } from './cleanup.js';

/** A PostgreSQL server the benchmark may create and drop databases on. */
export interface PgServer {
  /** Connection string of a database used only for creating and dropping others. */
  adminUrl: string;
  /** Whether the benchmark started it. */
  started: boolean;
  /** Stops it when the benchmark started it; otherwise does nothing. */
  stop(): Promise<void>;
}

/**
 * The server from BENCH_DATABASE_URL / DATABASE_URL, or a fresh one on 127.0.0.1.
 * @throws when PostgreSQL is not installed (`apt-get install -y postgresql`) or fails to start.
 */
export async function pgServer(env: NodeJS.ProcessEnv = process.env): Promise<PgServer> {
  const given = env.BENCH_DATABASE_URL || env.DATABASE_URL;
  if (given) return { adminUrl: given, started: false, stop: async () => {} };
  // The tests' helper: initdb into a temp dir, 127.0.0.1 only, as the postgres user.
  const server = await startThrowawayPostgres();
  const stop = track('PostgreSQL server', () => server.stop());
  return { adminUrl: server.url, started: true, stop };
}

/** `adminUrl` with its database name replaced by `database`. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.href;
}

/**
 * Creates an empty database `name` (dropping a leftover of an earlier run) and registers
 * its removal at the end.
 * @returns its connection string, and a function that drops it now
 */
export async function freshDatabase(
  server: PgServer,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const ident = `"${name.replaceAll('"', '""')}"`;
  await adminQuery(server, `drop database if exists ${ident} with (force)`);
  await adminQuery(server, `create database ${ident}`);
  const drop = track(`database ${name}`, () =>
    adminQuery(server, `drop database if exists ${ident} with (force)`).catch(() => {}),
  );
  return { url: databaseUrl(server.adminUrl, name), drop };
}

async function adminQuery(server: PgServer, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
