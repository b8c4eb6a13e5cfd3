// Measurement 3: wall time of the `namecard` CLI next to bare Node (`node -e 0`) and next to
// the FLOOR (bench/floor.mjs: a bare Node script sending the GET of main's namecard_status), in
// the same run; and `set` with a card token (NAMECARD_TOKEN) next to its own floor
// (bench/floor-token-set.mjs: one POST of namecard_set with the token in its header, the card
// known), its requests counted.
// Each round spawns every command once (in rotated order); figures are medians over rounds.
// The children get only the variables listed below: NODE_OPTIONS (a preloaded module or a
// flag) and NODE_EXTRA_CA_CERTS (a certificate file read at start-up) would slow every
// start-up; the caller's values are recorded in the results next to the fact they were cleared.
import { execFile, spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MAIN_CARD } from '../shared/core/cards.js';
import { STATUS_FUNCTION, lookupUrl } from '../shared/core/lookup.js';
import { track } from './cleanup.js';
import type { DbKind } from './emulator.js';
import type { Fleet, FilledTable } from './fleet.js';
import { median, msSince } from './stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'dist/cli/index.js');
const FLOOR = path.join(ROOT, 'bench/floor.mjs');
const TOKEN_FLOOR = path.join(ROOT, 'bench/floor-token-set.mjs');

export interface CliSettings {
  rounds: number;
  warmup: number;
}

export interface CliCommandFigures {
  name:
    | 'node -e 0'
    | 'floor'
    | '--version'
    | 'status'
    | 'profile list'
    | 'set'
    | 'end'
    | 'cancel'
    | 'token floor'
    | 'token set';
  args: string[];
  /** Median wall time, ms. */
  ms: number;
  samples: number[];
  /** Median ÷ bare Node's median. */
  ratio: number;
  /** Median ÷ the floor script's median (`token …`: ÷ the token floor's, bench/floor-token-set.mjs). */
  floorRatio: number;
  failures: number;
  /** The API requests one run sent, counted once untimed (`token set` and its floor only). */
  requests?: number;
}

export interface CliResult {
  db: DbKind;
  commands: CliCommandFigures[];
  /** The caller's NODE_OPTIONS and NODE_EXTRA_CA_CERTS (null: unset); the children ran without. */
  clearedEnv: { NODE_OPTIONS: string | null; NODE_EXTRA_CA_CERTS: string | null };
}

/** `npm run build:cli` (esbuild, scripts/build-cli.ts), so the measured dist/cli matches the sources. */
export async function buildCli(): Promise<void> {
  await promisify(execFile)('npm', ['run', '--silent', 'build:cli'], { cwd: ROOT });
}

/** Spawns `node …args` and returns its wall time in ms, or throws on a non-zero exit. */
function timedRun(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return run(args, env).then((r) => r.ms);
}

/**
 * Spawns `node …args` (with `input` on stdin, if given) and returns its wall time in ms and its
 * stdout, or throws on a non-zero exit.
 */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin?.end(input);
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = msSince(start);
      if (code === 0) resolve({ ms, stdout });
      else
        reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}

/** Tomorrow in the local time zone as YYYY-MM-DD. */
function tomorrow(): string {
  const d = new Date(Date.now() + 24 * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A command the measurement spawns, with its environment. */
interface CliCommand {
  name: CliCommandFigures['name'];
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Untimed set-up before each timed run: the arguments to add. */
  prepare?: () => Promise<string[]>;
}

/**
 * The children's environment, signed in as an owner the benchmark creates: only what the CLI
 * reads, plus PATH and HOME (no stray settings from the caller's shell), with a config folder
 * of its own that holds the session `namecard login` stored.
 */
async function signedInEnv(table: FilledTable): Promise<NodeJS.ProcessEnv> {
  const email = 'bench-owner@example.com';
  const password = 'bench-password-1234';
  await table.emulator.createUser(email, password, true);
  const configDir = await mkdtemp(path.join(tmpdir(), 'namecard-bench-cli-'));
  track(`temp dir ${configDir}`, () => rm(configDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TZ: process.env.TZ,
    NO_COLOR: '1',
    SUPABASE_URL: table.emulator.url,
    SUPABASE_ANON_KEY: table.emulator.anonKey,
    NAMECARD_CONFIG_DIR: configDir,
  };
  await run([CLI, 'login', '--email', email, '--password-stdin'], env, `${password}\n`);
  return env;
}

/**
 * The environment of a CI script holding a card token: an editor token of the card main (the
 * owner's only card), made by the signed-in owner (`token create --json`, untimed), and a config
 * folder that does not exist, so no session can be used.
 */
async function tokenEnv(env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  const { stdout } = await run(
    [CLI, 'token', 'create', 'bench-ci', '--expires', 'never', '--json'],
    env,
  );
  const { token } = JSON.parse(stdout) as { token: string };
  return {
    ...env,
    NAMECARD_CONFIG_DIR: path.join(env.NAMECARD_CONFIG_DIR ?? tmpdir(), 'never-made'),
    NAMECARD_TOKEN: token,
  };
}

/**
 * Runs `node …args` once with SUPABASE_URL (and the floor's base URL argument) pointed at a
 * counting HTTP relay in front of the emulator, and answers how many requests it sent.
 */
async function countRequests(
  apiUrl: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const target = new URL(apiUrl);
  let count = 0;
  const relay = createServer((req, res) => {
    count++;
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  try {
    await run(
      args.map((a) => (a === apiUrl ? url : a)),
      { ...env, SUPABASE_URL: url },
    );
  } finally {
    await new Promise<void>((resolve) => relay.close(() => resolve()));
  }
  return count;
}

/**
 * What is timed. The writes run as an owner would: signed in once, then with the stored
 * session, whose access token is still valid (no sign-in, no refresh); with no card named, each
 * reads the caller's cards (one GET, to choose the card) and then writes with one request;
 * `status` reads the cards and main's status at once. `set` makes an entry active until
 * tomorrow 18:00; `end` ends the active one (there is one from the previous `set`); `cancel`
 * drops an entry scheduled for tomorrow, made by an untimed `set --from` just before it.
 * `token set` is `set` with NAMECARD_TOKEN only (the GET of the token's card, then one POST of
 * namecard_set with the token in its header), `token floor` that POST from a bare script that
 * knows the card.
 */
function cliCommands(
  table: FilledTable,
  env: NodeJS.ProcessEnv,
  token: NodeJS.ProcessEnv,
  day: string,
): CliCommand[] {
  const scheduled = async () => {
    const { stdout } = await run(
      [CLI, 'set', 'photo', '--from', `${day} 08:00`, day, '09:00', '--json'],
      env,
    );
    return String((JSON.parse(stdout) as { row: { id: number } }).row.id);
  };
  return [
    { name: 'node -e 0', args: ['-e', '0'], env },
    {
      name: 'floor',
      args: [
        FLOOR,
        lookupUrl(table.emulator.url, table.emulator.anonKey, STATUS_FUNCTION, MAIN_CARD),
      ],
      env,
    },
    { name: '--version', args: [CLI, '--version'], env },
    { name: 'status', args: [CLI, 'status'], env },
    // The owner's profiles: signed in, one read of the profile table and one of the status.
    { name: 'profile list', args: [CLI, 'profile', 'list'], env },
    { name: 'set', args: [CLI, 'set', 'photo', day, '18:00'], env },
    { name: 'end', args: [CLI, 'end'], env },
    { name: 'cancel', args: [CLI, 'cancel'], env, prepare: async () => [await scheduled()] },
    {
      name: 'token floor',
      // `set photo <day> 18:00`'s end, in the children's zone (TZ), as the CLI reads it.
      args: [
        TOKEN_FLOOR,
        table.emulator.url,
        'photo',
        String(Date.parse(`${day}T18:00:00`)),
        MAIN_CARD,
      ],
      env: token,
    },
    { name: 'token set', args: [CLI, 'set', 'photo', day, '18:00'], env: token },
  ];
}

/**
 * The warm-up, then the rounds: each spawns every command once, in rotated order. Returns
 * each command's wall times (warm-up left out) and its failed runs; the first failure of
 * each is logged.
 */
async function timeRounds(
  commands: CliCommand[],
  settings: CliSettings,
  log: (line: string) => void,
) {
  const samples = new Map(commands.map((c) => [c.name, [] as number[]]));
  const failures = new Map(commands.map((c) => [c.name, 0]));
  for (let round = -settings.warmup; round < settings.rounds; round++) {
    for (let i = 0; i < commands.length; i++) {
      const command = commands[(i + Math.max(0, round)) % commands.length];
      if (!command) continue;
      try {
        const extra = command.prepare ? await command.prepare() : [];
        const ms = await timedRun([...command.args, ...extra], command.env);
        if (round >= 0) samples.get(command.name)?.push(ms);
      } catch (error) {
        failures.set(command.name, (failures.get(command.name) ?? 0) + 1);
        if (failures.get(command.name) === 1) log(String(error));
      }
    }
  }
  return { samples, failures };
}

export async function measureCli(
  fleet: Fleet,
  settings: CliSettings,
  log: (line: string) => void,
): Promise<CliResult> {
  // Its own emulator: `set` inserts a row per run, which the lookup tables must not get.
  const table = await fleet.table(1000, '-cli');
  const env = await signedInEnv(table);
  const day = tomorrow();
  const token = await tokenEnv(env);
  const commands = cliCommands(table, env, token, day);
  const requests = new Map<string, number>();
  for (const c of commands.filter((k) => k.name.startsWith('token '))) {
    requests.set(c.name, await countRequests(table.emulator.url, c.args, c.env));
  }
  const { samples, failures } = await timeRounds(commands, settings, (line) =>
    log(`${fleet.db} cli: ${line}`),
  );
  const bare = median(samples.get('node -e 0') ?? []);
  const floor = median(samples.get('floor') ?? []);
  const tokenFloor = median(samples.get('token floor') ?? []);
  const figures = commands.map((c): CliCommandFigures => {
    const s = samples.get(c.name) ?? [];
    const ms = median(s);
    return {
      name: c.name,
      args: c.args.map((a) =>
        a === CLI
          ? 'dist/cli/index.js'
          : a === FLOOR || a === TOKEN_FLOOR
            ? path.relative(ROOT, a)
            : a,
      ),
      ms,
      samples: s,
      ratio: ms / bare,
      floorRatio: ms / (c.name.startsWith('token ') ? tokenFloor : floor),
      failures: failures.get(c.name) ?? 0,
      ...(requests.has(c.name) ? { requests: requests.get(c.name) } : {}),
    };
  });
  for (const f of figures) {
    log(
      `${fleet.db} cli ${f.name.padEnd(10)} ${f.ms.toFixed(1)} ms (${f.ratio.toFixed(2)}× node, ${f.floorRatio.toFixed(2)}× floor)`,
    );
  }
  const clearedEnv = {
    NODE_OPTIONS: process.env.NODE_OPTIONS ?? null,
    NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? null,
  };
  return { db: fleet.db, commands: figures, clearedEnv };
}
