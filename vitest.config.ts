import { defineConfig } from 'vitest/config';

// One run covers unit, conformance (emulator over PGlite and PostgreSQL), CLI and browser tests.
// The global setup starts a throwaway PostgreSQL server on loopback (or uses
// NAMECARD_TEST_DATABASE_URL) and stops it at the end.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    // Generous: CLI tests spawn many processes, and CI machines are shared and slow at times.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
