/**
 * `npm start`: the whole product on this machine, in four steps.
 *
 * 1. The backend: the emulator with a demo owner, its data kept in `.namecard/emulator/`
 *    (skipped when `SUPABASE_URL` is set: that backend is used).
 * 2. The card site: two demo pages for the main profile and the photo section
 *    (skipped when `NAMECARD_MAIN_URL` is set).
 * 3. The site, built into `dist/site/` against them, and the CLI into `dist/cli/`.
 * 4. The site served on 127.0.0.1 like a static host. Ctrl+C stops everything.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pc from 'picocolors';
import { readRateLimitEnv } from '../emulator/cli-options.js';
import { startEmulator } from '../emulator/index.js';
import { loadEnvFile } from '../shared/core/env-file.js';
import { NamecardError } from '../shared/core/errors.js';
import { resolveTargets } from '../shared/core/rules.js';
import { cardLinkFrom, siteConfigFrom } from '../site/build/build-config.js';
import { startDemoCards } from './demo-card/server.js';
import { buildSite } from './site-build.js';
import { serveSite } from './site-server.js';

const SITE_PORT = 4173;
const DEMO_CARD_PORT = 4174;
const EMULATOR_PORT = 54321;
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

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    const port = /:(\d+)$/.exec((error as Error).message)?.[1] ?? 'a port';
    return `Port ${port} on 127.0.0.1 is in use: stop what runs there (another \`npm start\`?) and try again.`;
  }
  if (error instanceof NamecardError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
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

async function main(): Promise<void> {
  // The project's `.env`, the environment winning over it.
  const fromFile = loadEnvFile(ENV_FILE);
  if (fromFile.length > 0) console.log(pc.dim(`Settings from .env: ${fromFile.join(', ')}`));
  const env: Record<string, string | undefined> = { ...process.env };
  // Malformed settings fail here, before anything starts.
  siteConfigFrom(env);
  const rateLimits = readRateLimitEnv(env);

  // 1. The backend.
  let emulatorUrl: string | undefined;
  if (!isSet(env.SUPABASE_URL)) {
    console.log(pc.dim('Starting the emulator…'));
    await mkdir(dirname(DATA_DIR), { recursive: true });
    const emulator = await startEmulator({
      port: EMULATOR_PORT,
      dataDir: DATA_DIR,
      owner: DEMO_OWNER,
      rateLimits,
    });
    running.push({ name: 'emulator', stop: () => emulator.stop() });
    env.SUPABASE_URL = emulatorUrl = emulator.url;
    env.SUPABASE_ANON_KEY = emulator.anonKey;
  }

  // 2. The card site.
  let demoCards = false;
  if (!isSet(env.NAMECARD_MAIN_URL)) {
    const cards = await startDemoCards({
      port: DEMO_CARD_PORT,
      photoPath: env.NAMECARD_PHOTO_PATH,
    });
    running.push({ name: 'demo cards', stop: cards.stop });
    env.NAMECARD_MAIN_URL = cards.url;
    demoCards = true;
  }

  // 3. The site, and the CLI for the owner's terminal.
  const config = siteConfigFrom(env);
  console.log(pc.dim('Building the site and the CLI…'));
  await buildSite(env, SITE_DIR);
  await buildCli();

  // 4. Serve it.
  const site = await serveSite(SITE_DIR, { port: SITE_PORT, basePath: config.basePath });
  running.push({ name: 'site', stop: site.stop });

  const siteUrl = new URL(config.basePath, site.url).href;
  const targets = resolveTargets(config);
  const demo = demoCards ? pc.dim(' (demo page)') : '';
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
      ? `${emulatorUrl}  ${pc.dim('(local emulator, data in .namecard/emulator/)')}`
      : config.supabaseUrl,
  );
  line('CLI', `node dist/cli/index.js status  ${pc.dim('(namecard --help lists the commands)')}`);
  line('', pc.dim('or `npm install -g .` once, then `namecard status` from anywhere'));
  if (emulatorUrl) {
    console.log(`\n  Demo owner  ${DEMO_OWNER.email}`);
    console.log(`  Password    ${DEMO_OWNER.password}`);
  }
  console.log(pc.dim('\nPress Ctrl+C to stop.'));
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
  console.error(pc.red(describeError(error)));
  await stopAll();
  process.exit(1);
});
