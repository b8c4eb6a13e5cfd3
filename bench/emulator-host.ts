// Runs one emulator in its own process, so that the benchmark's client (fetch loops,
// autocannon, the browser driver) never shares a thread with the server it measures.
// The parent (bench/emulator.ts) talks to it over the IPC channel: `query` (superuser SQL),
// `createUser`, `stop`. Started with `node --import tsx bench/emulator-host.ts`.
import { startEmulator } from '../emulator/index.js';
import type { HostReply, HostRequest } from './emulator.js';

const send = (reply: HostReply) => process.send?.(reply);

// Ctrl+C reaches the whole process group; the parent decides when this process stops.
process.on('SIGINT', () => {});

const databaseUrl = process.env.BENCH_EMULATOR_DATABASE_URL || undefined;

try {
  // Over PostgreSQL the real PostgREST answers /rest/v1, as on every PostgreSQL run.
  const emulator = await startEmulator({
    port: 0,
    ...(databaseUrl ? { databaseUrl, rest: 'postgrest' as const } : {}),
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await emulator.stop().catch(() => {});
    process.exit(0);
  };
  // The parent went away (crash or kill): do not outlive it.
  process.on('disconnect', () => void stop());
  process.on('message', (message: HostRequest) => {
    void (async () => {
      try {
        if (message.op === 'query') {
          send({
            id: message.id,
            ok: true,
            value: await emulator.query(message.sql, message.params),
          });
        } else if (message.op === 'createUser') {
          const user = await emulator.createUser(message.email, message.password, {
            owner: message.owner,
          });
          send({ id: message.id, ok: true, value: user });
        } else {
          send({ id: message.id, ok: true, value: null });
          await stop();
        }
      } catch (error) {
        send({
          id: message.id,
          ok: false,
          error: String(error instanceof Error ? error.message : error),
        });
      }
    })();
  });
  send({ id: 0, ok: true, value: { url: emulator.url, anonKey: emulator.anonKey } });
} catch (error) {
  send({ id: 0, ok: false, error: String(error instanceof Error ? error.stack : error) });
  process.exit(1);
}
