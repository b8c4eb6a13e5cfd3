import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startTestEmulator } from '../support/emulator.js';
import { removeDir, run, tempConfigDir, type RunOptions } from './helpers.js';
import { OWNER } from '../support/accounts.js';

export type Emulator = Awaited<ReturnType<typeof startTestEmulator>>;

/** The main card site the tests configure, so targets are easy to recognise. */
export const MAIN_URL = 'https://card.example/';
export const PHOTO_URL = 'https://card.example/photo';

/** An emulator on embedded PGlite with the owner, rotating refresh tokens with no reuse interval. */
export function startEmulator(): Promise<Emulator> {
  return startTestEmulator('pglite', { refreshTokenReuseInterval: 0, owner: OWNER });
}

/** The settings that point the CLI at `emulator`. */
export function emulatorEnv(emulator: Emulator, env: RunOptions['env'] = {}): RunOptions['env'] {
  return {
    SUPABASE_URL: emulator.url,
    SUPABASE_ANON_KEY: emulator.anonKey,
    NAMECARD_MAIN_URL: MAIN_URL,
    ...env,
  };
}

export interface Row {
  id: number;
  stamp_end: number;
  stamp_start?: number;
  type: string;
}

/** Every namecard row, oldest first, read straight from the database. */
export async function rows(emulator: Emulator): Promise<Row[]> {
  const result = (await emulator.query(
    'select id, stamp_end, stamp_start, type from public.namecard order by id',
  )) as (Row & { stamp_start: unknown })[];
  // `stamp_start` only when set: a row without a start has no such key.
  return result.map(({ stamp_start, ...row }) => ({
    ...row,
    id: Number(row.id),
    stamp_end: Number(row.stamp_end),
    ...(stamp_start == null ? {} : { stamp_start: Number(stamp_start) }),
  }));
}

export async function clearRows(emulator: Emulator): Promise<void> {
  await emulator.query('delete from public.namecard');
}

/** `namecard login` as the owner with --password-stdin; throws unless it succeeds. */
export async function login(emulator: Emulator, dir: string, env: RunOptions['env'] = {}) {
  const result = await run(dir, ['login', '--email', OWNER.email, '--password-stdin'], {
    env: emulatorEnv(emulator, env),
    input: `${OWNER.password}\n`,
  });
  if (result.exitCode !== 0) throw new Error(`login failed: ${result.stderr}`);
  return result;
}

/** What {@link useCliFixture} hands to a test file; its hooks fill it in before each test. */
export interface CliFixture {
  /** One emulator for the whole file. */
  emulator: Emulator;
  /** A fresh, empty NAMECARD_CONFIG_DIR for each test. */
  dir: string;
}

/**
 * Registers the hooks that CLI test files share: one emulator for the file (stopped after
 * it), and for each test an empty table and a fresh config folder (deleted after it), with
 * the owner signed in there when `signIn` is set.
 */
export function useCliFixture(options: { signIn?: boolean } = {}): CliFixture {
  const fixture = {} as CliFixture;
  beforeAll(async () => {
    fixture.emulator = await startEmulator();
  });
  afterAll(async () => {
    await fixture.emulator?.stop();
  });
  beforeEach(async () => {
    fixture.dir = await tempConfigDir();
    await clearRows(fixture.emulator);
    if (options.signIn) await login(fixture.emulator, fixture.dir);
  });
  afterEach(async () => {
    await removeDir(fixture.dir);
  });
  return fixture;
}

/**
 * Registers the hooks of a file whose tests run in order on what the earlier ones left: one
 * emulator and one config folder for the whole file, the owner signed in there once (stopped and
 * deleted after it).
 */
export function useSignedInFile(): CliFixture {
  const fixture = {} as CliFixture;
  beforeAll(async () => {
    fixture.emulator = await startEmulator();
    fixture.dir = await tempConfigDir();
    await login(fixture.emulator, fixture.dir);
  });
  afterAll(async () => {
    await fixture.emulator?.stop();
    await removeDir(fixture.dir);
  });
  return fixture;
}

/**
 * Changes the session stored in `dir`'s config file, e.g. `{ expires_at: 0 }` to make its
 * access token count as expired: what a run a day after `namecard login` finds.
 */
export async function patchStoredSession(dir: string, patch: Record<string, unknown>) {
  const file = path.join(dir, 'config.json');
  const state = JSON.parse(await readFile(file, 'utf8')) as { session: Record<string, unknown> };
  state.session = { ...state.session, ...patch };
  await writeFile(file, JSON.stringify(state));
}
