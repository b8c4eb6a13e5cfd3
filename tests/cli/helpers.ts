import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { execa, type ResultPromise } from 'execa';

// Runs the BUILT command (`npm run build:cli` first) the way a user does, with a clean
// environment: nothing from the developer's shell (NAMECARD_EMAIL, SUPABASE_URL, …) leaks in.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'dist/cli/index.js');

/** A fresh config folder for one test; remove it with `rm` in afterEach. */
export async function tempConfigDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'namecard-cli-'));
}

export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** The working folder (default: the system's temporary folder, so no checkout's `.env` is read; the config folder may not exist yet). */
  cwd?: string;
}

/** The base environment of a run: the config folder, UTC unless told, no colour settings. */
export function baseEnv(configDir: string, env: RunOptions['env'] = {}): Record<string, string> {
  const all: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: configDir,
    TZ: 'UTC',
    NAMECARD_CONFIG_DIR: configDir,
    ...env,
  };
  return Object.fromEntries(
    Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Runs `namecard <args>` without a terminal; never rejects, so tests assert on exitCode. */
export async function run(configDir: string, args: string[], options: RunOptions = {}) {
  const result = await execa('node', [BIN, ...args], {
    env: baseEnv(configDir, options.env),
    extendEnv: false,
    cwd: options.cwd ?? tmpdir(),
    reject: false,
    input: options.input ?? '',
    timeout: 30_000,
  });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

/** A port on loopback with nothing listening: the backend is down. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Keys as a terminal sends them. */
export const KEY = { down: '\x1b[B', enter: '\r', backspace: '\x7f', ctrlC: '\x03' } as const;

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * `namecard <args>` at a real pseudo-terminal: util-linux `script` gives the command a pty
 * and passes our writes on as keystrokes.
 */
export function atTerminal(configDir: string, args: string[], env: RunOptions['env'] = {}) {
  const command = ['node', BIN, ...args].map(quote).join(' ');
  const child: ResultPromise = execa('script', ['-qfec', command, '/dev/null'], {
    env: { ...baseEnv(configDir, env), TERM: 'xterm', COLUMNS: '100', LINES: '30' },
    extendEnv: false,
    cwd: configDir,
    reject: false,
    stdin: 'pipe',
    timeout: 30_000,
  });
  let screen = '';
  let raw = '';
  let seen = 0;
  // Decoded as a stream: a character's bytes may arrive in two chunks.
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    raw += chunk;
    screen = stripVTControlCharacters(raw);
  });
  return {
    /** Everything the terminal was sent so far, escape sequences included. */
    get raw() {
      return raw;
    },
    /** Everything the terminal showed so far, without escape sequences. */
    get screen() {
      return screen;
    },
    /** Waits until `text` appears in output after what earlier waits consumed. */
    async waitFor(text: string | RegExp, timeoutMs = 15_000): Promise<void> {
      const started = Date.now();
      for (;;) {
        const rest = screen.slice(seen);
        const match = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
        if (match >= 0) {
          seen += match + 1;
          return;
        }
        if (Date.now() - started > timeoutMs) {
          throw new Error(`timed out waiting for ${String(text)}; the terminal showed:\n${screen}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    /** Types keys into the terminal. */
    type(keys: string): void {
      child.stdin?.write(keys);
    },
    /** Waits for the command to end; its exit code as `script -e` passes it on. */
    async exit() {
      const result = await child;
      return { exitCode: result.exitCode, screen };
    },
    kill(): void {
      child.kill();
    },
  };
}

/** The next `year`-July-15, a summer date: New York is UTC-4, Tokyo UTC+9 on that day. */
export function summerDate(): { date: string; year: number } {
  const year = new Date().getUTCFullYear() + 1;
  return { date: `${year}-07-15`, year };
}

/** Next year's second Sunday of March: clocks in New York jump from 02:00 to 03:00. */
export function springForwardDate(): string {
  const year = new Date().getUTCFullYear() + 1;
  for (let day = 8; day <= 14; day++) {
    if (new Date(Date.UTC(year, 2, day)).getUTCDay() === 0) {
      return `${year}-03-${String(day).padStart(2, '0')}`;
    }
  }
  throw new Error('unreachable');
}
