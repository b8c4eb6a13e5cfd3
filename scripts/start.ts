/**
 * `npm start`: the whole product on this machine, in four steps. `npm start -- --help` lists
 * its options: the ports of the site, the emulator's API and the demo card pages (also
 * NAMECARD_PORT, NAMECARD_API_PORT, NAMECARD_DEMO_PORT, from the environment or `.env`).
 *
 * 1. The backend: the emulator with a demo owner, its data kept in `.namecard/emulator/`, or
 *    over the PostgreSQL server `--database-url` names with the real PostgREST answering
 *    /rest/v1 (skipped when `SUPABASE_URL` is set: that backend is used).
 * 2. The card site: two demo pages for the main profile and the photo section
 *    (skipped when `NAMECARD_MAIN_URL` is set).
 * 3. The site, built into `dist/site/` against them, and the CLI into `dist/cli/`.
 * 4. The site served like a static host. Ctrl+C stops everything.
 *
 * Everything listens on 127.0.0.1 unless `--host` (NAMECARD_HOST) names another address:
 * `0.0.0.0` serves a phone on the same network, and the site is then built to call the API at
 * the machine's LAN address, with the card link and its QR code printed for the phone.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer, isIPv4 } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pc from 'picocolors';
import qrcode from 'qrcode';
import { readRateLimitEnv, UsageError as EmulatorUsageError } from '../emulator/cli-options.js';
import { startEmulator } from '../emulator/index.js';
import { loadEnvFile } from '../shared/core/env-file.js';
import { channelLink, QR_CODE_OPTIONS } from '../shared/core/card-link.js';
import { DEFAULT_MAIN_URL, DEFAULT_SUPABASE_URL } from '../shared/core/config.js';
import { NamecardError } from '../shared/core/errors.js';
import { resolveTargets } from '../shared/core/rules.js';
import { cardLinkFrom, siteConfigFrom } from '../site/build/build-config.js';
import { startDemoCards } from './demo-card/server.js';
import { EVERY_INTERFACE, isLoopbackAddress, reachableAddress } from './lan-address.js';
import { buildSite } from './site-build.js';
import { serveSite } from './site-server.js';

/**
 * The ports `npm start` listens on (127.0.0.1): each has an option and an environment name
 * (the environment and `.env` are read when the option is not given).
 */
const PORTS = {
  site: { option: '--port', env: 'NAMECARD_PORT', default: 4173, what: 'the site' },
  api: { option: '--api-port', env: 'NAMECARD_API_PORT', default: 54321, what: 'the emulator API' },
  demo: {
    option: '--demo-port',
    env: 'NAMECARD_DEMO_PORT',
    default: 4174,
    what: 'the demo card pages',
  },
} as const;
type PortName = keyof typeof PORTS;
const DATA_DIR = fileURLToPath(new URL('../.namecard/emulator', import.meta.url));
const SITE_DIR = fileURLToPath(new URL('../dist/site', import.meta.url));
const ROOT_DIR = fileURLToPath(new URL('..', import.meta.url));
const ENV_FILE = fileURLToPath(new URL('../.env', import.meta.url));

/** The demo owner of the local emulator; a demo account, printed on purpose. */
const DEMO_OWNER = { email: 'owner@namecard.local', password: 'namecard-demo' };

const run = promisify(execFile);

type Stop = () => Promise<void>;
const running: { name: string; stop: Stop }[] = [];

async function stopAll(): Promise<void> {
  for (const { stop } of running.splice(0).reverse()) {
    await stop().catch((error: unknown) => console.error(pc.red(String(error))));
  }
}

const isSet = (value: string | undefined) => Boolean(value?.trim());

const HELP = `Usage: npm start -- [options]

Runs the emulator, builds and serves the site, serves the demo card pages and builds the CLI.

Options:
${Object.values(PORTS)
  .map((p) => `  ${`${p.option} <port>`.padEnd(20)}${p.what} (${p.env}, default ${p.default})`)
  .join('\n')}
  --host <address>    the IPv4 address to listen on (NAMECARD_HOST, default 127.0.0.1);
                      0.0.0.0 for a phone on the same network to open the card
  --database-url <url>
                      run the emulator over that PostgreSQL server (postgres://user:pass@host/db)
                      with the real PostgREST answering /rest/v1, instead of PGlite in
                      .namecard/emulator/
  -h, --help          show this help

Each port may also be set in the environment or in .env by the name in parentheses; the option
wins. --api-port is not used when SUPABASE_URL is set, --demo-port not when NAMECARD_MAIN_URL is.`;

/** The address everything listens on unless `--host` or NAMECARD_HOST says otherwise. */
const DEFAULT_HOST = '127.0.0.1';

/** A mistake on the command line or in the settings: one `error:` line, exit 2. */
class StartUsageError extends Error {}

/** A port that is taken: one `error:` line naming the option to change, exit 1. */
class PortInUseError extends Error {
  constructor(name: PortName, port: number, host: string) {
    const { option, env, what } = PORTS[name];
    super(
      `port ${port} on ${host} (${what}) is in use: stop what runs there, or choose another with ${option} (or ${env})`,
    );
  }
}

/** `SUPABASE_URL` names an API that does not answer: one `error:` line, exit 1. */
class ApiDownError extends Error {}

/**
 * The address to listen on: `--host`, else NAMECARD_HOST, else 127.0.0.1.
 *
 * @throws StartUsageError naming the option or variable when it is not an IPv4 address
 */
function readHost(option: string | undefined, env: Record<string, string | undefined>): string {
  const [source, raw] =
    option !== undefined
      ? ['--host', option]
      : isSet(env.NAMECARD_HOST)
        ? ['NAMECARD_HOST', env.NAMECARD_HOST!.trim()]
        : [undefined, DEFAULT_HOST];
  if (source !== undefined && !isIPv4(raw)) {
    throw new StartUsageError(
      `\`${source}\` must be an IPv4 address such as 0.0.0.0 (every interface) or 192.168.1.20, got \`${raw}\``,
    );
  }
  return raw;
}

/**
 * Fails before anything is built when the API that `SUPABASE_URL` names does not answer at all
 * (nothing listens, the name does not resolve, no answer within 5 s); any HTTP answer will do.
 *
 * @throws ApiDownError naming SUPABASE_URL
 */
async function checkApiAnswers(url: string): Promise<void> {
  // A timer of our own rather than AbortSignal.timeout(), whose timer does not keep the process
  // alive: with a connection closed before any answer, Node 20's fetch could then stay pending
  // with nothing left to run, and the process ended with exit 0 and no word.
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('no answer', 'TimeoutError')),
    5000,
  );
  try {
    await fetch(new URL('auth/v1/health', url.endsWith('/') ? url : `${url}/`), {
      signal: controller.signal,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const why =
      (error as Error).name === 'TimeoutError'
        ? 'no answer within 5 s'
        : cause
          ? `it does not answer (${cause})`
          : 'it does not answer';
    throw new ApiDownError(
      `\`SUPABASE_URL\` is ${url}, but ${why}: start that API, or unset SUPABASE_URL to run the local emulator`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The three ports from the options, else the environment (which `.env` has filled in), else
 * the defaults.
 *
 * @throws StartUsageError naming the option or variable when a value is not a port number
 */
function readPorts(
  options: Partial<Record<PortName, string>>,
  env: Record<string, string | undefined>,
): Record<PortName, number> {
  const ports = {} as Record<PortName, number>;
  for (const name of Object.keys(PORTS) as PortName[]) {
    const spec = PORTS[name];
    const [source, raw] =
      options[name] !== undefined
        ? [spec.option, options[name]]
        : isSet(env[spec.env])
          ? [spec.env, env[spec.env]!.trim()]
          : [undefined, undefined];
    if (source === undefined) {
      ports[name] = spec.default;
      continue;
    }
    const port = /^\d{1,5}$/.test(raw ?? '') ? Number(raw) : NaN;
    if (!(port >= 1 && port <= 65535)) {
      throw new StartUsageError(
        `\`${source}\` must be a port number from 1 to 65535, got \`${raw ?? ''}\``,
      );
    }
    ports[name] = port;
  }
  const seen = new Map<number, PortName>();
  for (const name of Object.keys(PORTS) as PortName[]) {
    const other = seen.get(ports[name]);
    if (other) {
      throw new StartUsageError(
        `${PORTS[other].option} and ${PORTS[name].option} are both ${ports[name]}: give each its own port`,
      );
    }
    seen.set(ports[name], name);
  }
  return ports;
}

/** True when the error (or the error it wraps) is a listen on a port that is taken. */
function isAddressInUse(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') return true;
  }
  return false;
}

/**
 * Fails before anything starts when a port is taken, naming its option; the start of each
 * server checks again (something may take the port in between).
 *
 * @throws PortInUseError
 */
async function checkPortFree(name: PortName, port: number, host: string): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(isAddressInUse(error) ? new PortInUseError(name, port, host) : error),
    );
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

/** Runs `start`, turning a taken port into a PortInUseError naming its option. */
async function onPort<T>(
  name: PortName,
  port: number,
  host: string,
  start: () => Promise<T>,
): Promise<T> {
  try {
    return await start();
  } catch (error) {
    throw isAddressInUse(error) ? new PortInUseError(name, port, host) : error;
  }
}

function describeError(error: unknown): string {
  if (
    error instanceof NamecardError ||
    error instanceof PortInUseError ||
    error instanceof ApiDownError ||
    error instanceof StartUsageError ||
    error instanceof EmulatorUsageError
  ) {
    return error.message;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * `--database-url`: a PostgreSQL connection string, or undefined when not given.
 * @throws StartUsageError when it is not a `postgres://` or `postgresql://` URL
 */
function readDatabaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new StartUsageError(
      '`--database-url` must be a PostgreSQL URL (postgres://user:password@host:port/database)',
    );
  }
  return value;
}

/** The command line, parsed with Node's own parser. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'api-port': { type: 'string' },
        'demo-port': { type: 'string' },
        host: { type: 'string' },
        'database-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new StartUsageError(
      `${(error as Error).message} (npm start -- --help lists the options)`,
    );
  }
}

/** `npm run build:cli` into dist/cli/; its output is shown only when it fails. */
async function buildCli(): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  try {
    await run(npm, ['run', '--silent', 'build:cli'], { cwd: ROOT_DIR, shell: npm === 'npm.cmd' });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`Building the CLI failed (npm run build:cli):\n${stdout}${stderr}`);
  }
}

/** What `npm start` was asked for, once checked: nothing has started yet. */
interface StartPlan {
  env: Record<string, string | undefined>;
  ports: ReturnType<typeof readPorts>;
  host: string;
  /** The address the site's pages call the API at and the card link names. */
  reachable: string;
  rateLimits: ReturnType<typeof readRateLimitEnv>;
  /** `--database-url`: the emulator over PostgreSQL with PostgREST; undefined: PGlite. */
  databaseUrl: string | undefined;
  useEmulator: boolean;
  useDemoCards: boolean;
}

/**
 * Reads the command line, `.env` and the environment into a plan, and checks everything that
 * can fail before anything starts: malformed settings, taken ports, an owner's API that does
 * not answer.
 *
 * @throws StartUsageError naming the option or setting to change
 */
async function planStart(args: ReturnType<typeof parseCommandLine>): Promise<StartPlan> {
  // The project's `.env`, the environment winning over it.
  const fromFile = loadEnvFile(ENV_FILE);
  if (fromFile.length > 0) console.log(pc.dim(`Settings from .env: ${fromFile.join(', ')}`));
  const env: Record<string, string | undefined> = { ...process.env };
  const ports = readPorts({ site: args.port, api: args['api-port'], demo: args['demo-port'] }, env);
  const host = readHost(args.host, env);
  // Where this machine is reached: the address the site's pages call the API at and the card
  // link names, so that a phone on the network can follow them.
  const reachable = reachableAddress(host);
  if (reachable === undefined) {
    throw new StartUsageError(
      `\`--host ${EVERY_INTERFACE}\` needs a network: this machine has no IPv4 address other than 127.0.0.1`,
    );
  }
  // The card link /manage shows is this site's /go unless NAMECARD_SITE_URL says otherwise.
  if (
    !isSet(env.NAMECARD_SITE_URL) &&
    (ports.site !== PORTS.site.default || host !== DEFAULT_HOST)
  ) {
    env.NAMECARD_SITE_URL = `http://${reachable}:${ports.site}/`;
  }
  // Malformed settings fail here, before anything starts.
  siteConfigFrom(env);
  const rateLimits = readRateLimitEnv(env);
  const databaseUrl = readDatabaseUrl(args['database-url']);
  const useEmulator = !isSet(env.SUPABASE_URL);
  if (!useEmulator && databaseUrl !== undefined) {
    console.log(pc.yellow('--database-url is not used: SUPABASE_URL is set, so that API is used'));
  }
  const useDemoCards = !isSet(env.NAMECARD_MAIN_URL);
  if (!useEmulator && args['api-port'] !== undefined) {
    console.log(pc.yellow('--api-port is not used: SUPABASE_URL is set, so that API is used'));
  }
  if (!useDemoCards && args['demo-port'] !== undefined) {
    console.log(
      pc.yellow('--demo-port is not used: NAMECARD_MAIN_URL is set, so that site is used'),
    );
  }
  // A taken port fails here too, naming the option to change.
  await checkPortFree('site', ports.site, host);
  if (useEmulator) await checkPortFree('api', ports.api, host);
  if (useDemoCards) await checkPortFree('demo', ports.demo, host);
  // An API of the owner's that does not answer fails here, not later as a site that cannot sign in.
  if (!useEmulator) await checkApiAnswers(env.SUPABASE_URL!.trim());
  return { env, ports, host, reachable, rateLimits, databaseUrl, useEmulator, useDemoCards };
}

/**
 * Starts what the plan needs, in order: the emulator (unless SUPABASE_URL is set), the demo
 * card pages (unless NAMECARD_MAIN_URL is set), then builds and serves the site and builds the
 * CLI. Each started server is added to `running`, so Ctrl+C or a failure stops it.
 *
 * @returns the emulator's own URL (undefined when another API is used), whether the demo
 *   pages run, and the site's URL as visitors reach it
 */
async function startAll(plan: StartPlan) {
  const { env, ports, host, reachable } = plan;
  let emulatorUrl: string | undefined;
  if (plan.useEmulator) {
    console.log(pc.dim('Starting the emulator…'));
    const database = plan.databaseUrl
      ? { databaseUrl: plan.databaseUrl, rest: 'postgrest' as const }
      : { dataDir: DATA_DIR };
    if (database.dataDir) await mkdir(dirname(DATA_DIR), { recursive: true });
    const emulator = await onPort('api', ports.api, host, () =>
      startEmulator({
        host,
        port: ports.api,
        ...database,
        owner: DEMO_OWNER,
        rateLimits: plan.rateLimits,
      }),
    );
    running.push({ name: 'emulator', stop: () => emulator.stop() });
    emulatorUrl = emulator.url;
    env.SUPABASE_URL = `http://${reachable}:${ports.api}`;
    env.SUPABASE_ANON_KEY = emulator.anonKey;
  }
  if (plan.useDemoCards) {
    const cards = await onPort('demo', ports.demo, host, () =>
      startDemoCards({ host, port: ports.demo, photoPath: env.NAMECARD_PHOTO_PATH }),
    );
    running.push({ name: 'demo cards', stop: cards.stop });
    env.NAMECARD_MAIN_URL = `http://${reachable}:${cards.port}/`;
  }
  const config = siteConfigFrom(env);
  console.log(pc.dim('Building the site and the CLI…'));
  await buildSite(env, SITE_DIR);
  await buildCli();
  const site = await onPort('site', ports.site, host, () =>
    serveSite(SITE_DIR, { host, port: ports.site, basePath: config.basePath }),
  );
  running.push({ name: 'site', stop: site.stop });
  const siteUrl = new URL(config.basePath, `http://${reachable}:${site.port}/`).href;
  return { config, emulatorUrl, siteUrl };
}

/** Prints where everything is, as the README's table says, and how the CLI logs in. */
async function printRunning(plan: StartPlan, started: Awaited<ReturnType<typeof startAll>>) {
  const { env, reachable } = plan;
  const { config, emulatorUrl, siteUrl } = started;
  const targets = resolveTargets(config);
  const demo = plan.useDemoCards ? pc.dim(' (demo page)') : '';
  const line = (label: string, value: string) => console.log(`  ${label.padEnd(12)}${value}`);
  console.log(`\n${pc.bold(pc.green('Namecard is running.'))}\n`);
  line('Site', siteUrl);
  line('Login', `${siteUrl}login/`);
  line('Manage', `${siteUrl}manage/`);
  // The link /manage shows: this site's /go, unless NAMECARD_SITE_URL names where it is hosted.
  const cardLink = cardLinkFrom(env);
  line('Card link', `${cardLink}  ${pc.dim('(the Redirecting.. page visitors open)')}`);
  if (cardLink !== `${siteUrl}go/`) line('Local /go', `${siteUrl}go/`);
  line('Main card', `${targets.main}${demo}`);
  line('Photo card', `${targets.photo}${demo}`);
  line(
    'API',
    emulatorUrl
      ? `${env.SUPABASE_URL}  ${pc.dim(
          plan.databaseUrl
            ? '(local emulator over PostgreSQL, /rest/v1 by PostgREST)'
            : '(local emulator, data in .namecard/emulator/)',
        )}`
      : config.supabaseUrl,
  );
  line('CLI', `node dist/cli/index.js status  ${pc.dim('(namecard --help lists the commands)')}`);
  line('', pc.dim('or `npm install -g .` once, then `namecard status` from anywhere'));
  // The CLI's defaults are the default ports: on others, the CLI is told once, at login, which
  // keeps the API URL, the site URL and the main URL (the demo pages, which it names as what
  // visitors get) with the session for the commands that follow.
  // Listening on one LAN address only, the CLI reaches the emulator there, over plain http:
  // to an address that is not loopback, which it refuses unless told it is a test on a LAN.
  const apiMoved = emulatorUrl !== undefined && emulatorUrl !== DEFAULT_SUPABASE_URL;
  const siteMoved = env.NAMECARD_SITE_URL !== process.env.NAMECARD_SITE_URL;
  const mainMoved =
    env.NAMECARD_MAIN_URL !== process.env.NAMECARD_MAIN_URL &&
    env.NAMECARD_MAIN_URL !== DEFAULT_MAIN_URL;
  if (apiMoved || siteMoved || mainMoved) {
    const lan = emulatorUrl !== undefined && !isLoopbackAddress(new URL(emulatorUrl).hostname);
    // The emulator's demo key is the CLI's default for an API on this machine only: on a LAN
    // address, the CLI is given it (the emulator's key, public by design).
    const prefix = [
      siteMoved && `NAMECARD_SITE_URL=${env.NAMECARD_SITE_URL} `,
      mainMoved && `NAMECARD_MAIN_URL=${env.NAMECARD_MAIN_URL} `,
      lan && `SUPABASE_ANON_KEY=${env.SUPABASE_ANON_KEY} `,
    ]
      .filter(Boolean)
      .join('');
    const flag = apiMoved ? ` --api-url ${emulatorUrl}${lan ? ' --allow-insecure-http' : ''}` : '';
    line(
      'CLI login',
      `${prefix}node dist/cli/index.js login${flag}  ${pc.dim('(once: later commands use these ports)')}`,
    );
  }
  if (emulatorUrl) {
    console.log(`\n  Demo owner  ${DEMO_OWNER.email}`);
    console.log(`  Password    ${DEMO_OWNER.password}`);
  }
  if (!isLoopbackAddress(reachable)) await printPhoneCode(cardLink);
  console.log(pc.dim('\nPress Ctrl+C to stop.'));
}

async function main(): Promise<void> {
  const args = parseCommandLine(process.argv.slice(2));
  if (args.help) {
    console.log(HELP);
    return;
  }
  const plan = await planStart(args);
  await printRunning(plan, await startAll(plan));
}

/**
 * The card link's QR code (`?via=qr`, as printed cards carry it) in the terminal, for a phone
 * on the same network to scan: half blocks set black on bright white, as `namecard qr` draws.
 */
async function printPhoneCode(cardLink: string): Promise<void> {
  const link = channelLink(cardLink, 'qr');
  const code = await qrcode.toString(link, { ...QR_CODE_OPTIONS, type: 'utf8' });
  console.log(`\n  ${pc.bold('On a phone on the same network')}, scan this or open ${link}`);
  console.log(
    pc.yellow(
      "  Anyone on this network can reach these servers (and the demo owner's account, if used).\n",
    ),
  );
  console.log(
    code
      .split('\n')
      .filter((row) => row.length > 0)
      .map((row) => pc.black(pc.bgWhiteBright(row)))
      .join('\n'),
  );
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(pc.dim(`\n${signal}: stopping…`));
  await stopAll();
  process.exit(0);
}
// `on`, not `once`: in a terminal Ctrl+C reaches this process both directly and relayed by
// tsx; a repeated signal must not kill it while the database is being closed.
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

main().catch(async (error: unknown) => {
  console.error(pc.red(`error: ${describeError(error)}`));
  await stopAll();
  process.exit(error instanceof StartUsageError || error instanceof EmulatorUsageError ? 2 : 1);
});
