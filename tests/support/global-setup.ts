import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server (superuser) the conformance suite may create databases in. */
    databaseUrl: string;
  }
}

/**
 * Provides `databaseUrl` to every test: NAMECARD_TEST_DATABASE_URL when set,
 * otherwise a throwaway PostgreSQL server started here and stopped at the end.
 * Fails the run (never skips) when neither is available.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const given = process.env.NAMECARD_TEST_DATABASE_URL;
  if (given) {
    project.provide('databaseUrl', given);
    return;
  }
  const server = await startThrowawayPostgres();
  project.provide('databaseUrl', server.url);
  return () => server.stop();
}
