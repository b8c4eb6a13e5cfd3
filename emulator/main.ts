/**
 * `npm run emulator -- [--port N] [--memory | --data-dir <dir>] [--rest postgrest]`: the local
 * Supabase-compatible backend.
 * Environment: DATABASE_URL (use that PostgreSQL server instead of PGlite), NAMECARD_REST
 * (`postgrest`: the real PostgREST answers /rest/v1; needs DATABASE_URL),
 * NAMECARD_OWNER_EMAIL + NAMECARD_OWNER_PASSWORD (ensure that owner before ready),
 * NAMECARD_REFRESH_REUSE_INTERVAL (seconds, default 10), NAMECARD_RATE_LIMIT_SIGN_IN,
 * NAMECARD_RATE_LIMIT_TOKEN_REFRESH, NAMECARD_RATE_LIMIT_VISITS, NAMECARD_RATE_LIMIT_INVITATIONS,
 * NAMECARD_RATE_LIMIT_WINDOW,
 * NAMECARD_RATE_LIMIT_HEADER, NAMECARD_SIGN_UPS (on/off, default off).
 * Exit codes: 0 stopped by SIGINT/SIGTERM, 1 failure, 2 usage.
 */
import { parseArgs } from 'node:util';
import { startEmulator, type EmulatorOptions } from './index.js';
import { PERSISTED_DATA_DIR, readEnvOptions, readRest, UsageError } from './cli-options.js';

const USAGE = `Usage: npm run emulator -- [--port N] [--memory | --data-dir <dir>] [--rest <who>] [--quiet]

  --port N           port on 127.0.0.1 (default 54321; 0 = any free port)
  --data-dir <dir>   PGlite data directory, created owner-only when missing
                     (default ${PERSISTED_DATA_DIR})
  --memory           keep data in memory instead
  --rest <who>       who answers /rest/v1: emulator (default) or postgrest, the real
                     PostgREST started by the emulator (needs DATABASE_URL; also NAMECARD_REST)
  --quiet            do not log requests

Environment: DATABASE_URL, NAMECARD_REST, NAMECARD_OWNER_EMAIL, NAMECARD_OWNER_PASSWORD,
NAMECARD_REFRESH_REUSE_INTERVAL (seconds), NAMECARD_RATE_LIMIT_SIGN_IN (default 30),
NAMECARD_RATE_LIMIT_TOKEN_REFRESH (default 150), NAMECARD_RATE_LIMIT_VISITS (default 600),
NAMECARD_RATE_LIMIT_INVITATIONS (default 30), NAMECARD_RATE_LIMIT_WINDOW (seconds, default 300), NAMECARD_RATE_LIMIT_HEADER (client
address header, default none), NAMECARD_SIGN_UPS (on lets anyone sign up, as a new
hosted project does; default off).`;

function parseOptions(argv: string[]): EmulatorOptions & { help: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        memory: { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        rest: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const options: EmulatorOptions & { help: boolean } = {
    help: values.help,
    ...readEnvOptions(process.env),
  };
  if (values.port !== undefined) {
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) {
      throw new UsageError(`\`--port\` must be an integer from 0 to 65535, got \`${values.port}\``);
    }
    options.port = Number(values.port);
  }
  const dataDir = values['data-dir'];
  if (dataDir !== undefined) {
    if (dataDir === '') throw new UsageError('`--data-dir` must name a directory');
    if (values.memory) throw new UsageError('use either `--memory` or `--data-dir`, not both');
    if (options.databaseUrl) {
      throw new UsageError('`--data-dir` is for PGlite; unset DATABASE_URL to use it');
    }
  }
  if (values.rest !== undefined) options.rest = readRest('--rest', values.rest);
  if (options.rest === 'postgrest' && !options.databaseUrl) {
    throw new UsageError(
      '`--rest postgrest` (or NAMECARD_REST=postgrest) needs DATABASE_URL: PostgREST runs over PostgreSQL',
    );
  }
  if (!options.databaseUrl && !values.memory) options.dataDir = dataDir ?? PERSISTED_DATA_DIR;
  if (!values.quiet) options.log = (line) => console.log(line);
  return options;
}

async function main(): Promise<number> {
  // Whatever this process creates (data files, folders) is for its owner only.
  process.umask(0o077);
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`emulator: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const { help: _help, ...emulatorOptions } = options;
  // Listen for the stop signal before anything is reported: a supervisor may send
  // it the moment it reads the ready lines (or while we are still starting).
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const emulator = await startEmulator(emulatorOptions);
  const where = emulatorOptions.databaseUrl
    ? emulator.rest === 'postgrest'
      ? 'PostgreSQL (DATABASE_URL), /rest/v1 by PostgREST'
      : 'PostgreSQL (DATABASE_URL)'
    : emulatorOptions.dataDir
      ? `PGlite in ${emulatorOptions.dataDir}/`
      : 'PGlite in memory';
  console.log(`namecard emulator ready (${where})`);
  console.log(`API URL: ${emulator.url}`);
  if (emulator.postgrest) console.log(`/rest/v1: PostgREST, process ${emulator.postgrest.pid}`);
  console.log(`anon key: ${emulator.anonKey}`);
  if (emulatorOptions.owner) console.log(`owner: ${emulatorOptions.owner.email}`);

  await stopRequested;
  await emulator.stop();
  console.log('namecard emulator stopped');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`emulator: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
