import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that flood the emulator ("lookups answer within 300 ms during a sign-in flood";
 * every visitor answered what the card's lookup answers while 20 clients send the costliest
 * bounded call). They run last and alone, so that the other test files (browsers, many CLI
 * processes) do not load the 2-core machine meanwhile, and their floods load no other test.
 */
const TIMED = ['tests/security/sign-in-limits.test.ts', 'tests/security/visitor-load.test.ts'];

// One run covers unit, conformance (emulator over PGlite and PostgreSQL), CLI and browser tests.
// The global setup starts a throwaway PostgreSQL server on loopback (or uses
// NAMECARD_TEST_DATABASE_URL) and stops it at the end.
export default defineConfig({
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    // Generous: CLI tests spawn many processes, and CI machines are shared and slow at times.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...TIMED],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // One file at a time: each measures, and must not load the machine for the other.
        test: {
          name: 'timed',
          include: TIMED,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
