import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, run, summerDate, tempConfigDir } from '../cli/helpers.js';
import { emulatorEnv, startEmulator, type Emulator } from '../cli/emulator.js';
import { answer, gatewayPage, startFaultServer, type FaultServer } from './fault-server.js';
import { OWNER } from '../support/accounts.js';

// No password, token or key is ever printed: every command, on its success and failure paths,
// with and without NAMECARD_DEBUG=1. All traffic goes through a recording proxy, so every
// access token and refresh token the server handed out is known and searched for.

let emulator: Emulator;
let proxy: FaultServer;
let dir: string;
type Mode = 'pass' | '502' | 'insert502' | 'garbage' | 'hang';
let mode: Mode = 'pass';
const secrets = new Set<string>();

/** Every token in a JSON answer of GoTrue. */
function collectTokens(body: string): void {
  try {
    const value = JSON.parse(body) as Record<string, unknown>;
    for (const key of ['access_token', 'refresh_token']) {
      if (typeof value[key] === 'string') secrets.add(value[key]);
    }
  } catch {
    // not JSON: nothing to collect
  }
}

beforeAll(async () => {
  emulator = await startEmulator();
  dir = await tempConfigDir();
  secrets.add(OWNER.password);
  secrets.add(emulator.anonKey);
  proxy = await startFaultServer(async (ex) => {
    const bearer = ex.req.headers.authorization?.replace(/^Bearer /, '');
    if (bearer) secrets.add(bearer);
    if (mode === 'hang') return;
    if (mode === '502') return answer(ex.res, 502, gatewayPage(502));
    if (mode === 'insert502' && ex.req.method === 'POST' && ex.req.url?.startsWith('/rest/v1/')) {
      return answer(ex.res, 502, gatewayPage(502));
    }
    if (mode === 'garbage') return answer(ex.res, 200, '<html>not the API</html>');
    const upstream = await ex.forward();
    collectTokens(upstream.body);
    ex.res.writeHead(upstream.status, upstream.headers);
    ex.res.end(upstream.body);
  }, emulator.url);
});
afterAll(async () => {
  await proxy?.stop();
  await emulator?.stop();
  await removeDir(dir);
});

const { date } = summerDate();
const file = () => path.join(dir, 'config.json');

/** The stored refresh token, when there is one, joins the secrets. */
async function collectStored(): Promise<void> {
  try {
    const state = JSON.parse(await readFile(file(), 'utf8')) as {
      session?: { refresh_token?: string };
    };
    if (state.session?.refresh_token) secrets.add(state.session.refresh_token);
  } catch {
    // no file
  }
}

interface Step {
  args: string[];
  env?: Record<string, string>;
  input?: string;
  mode?: Mode;
  /** Runs before the step (e.g. to prepare the config file). */
  before?: () => Promise<void>;
}

const loginArgs = ['login', '--email', OWNER.email, '--password-stdin'];
const wrongKey = () => `${emulator.anonKey.slice(0, -8)}AAAAAAAA`;
const saved = () => `${file()}.saved`;

/** Success and failure paths of every command, in an order that keeps the session meaningful. */
const steps = (): Record<string, Step> => ({
  login: { args: loginArgs, input: `${OWNER.password}\n` },
  'login with a wrong password': { args: loginArgs, input: 'wrong password\n' },
  'login again': { args: loginArgs, input: `${OWNER.password}\n` },
  whoami: { args: ['whoami'] },
  set: { args: ['set', 'photo', date, '18:00'] },
  'set --json': { args: ['set', 'main', date, '19:00', '--json'] },
  'set with bad input': { args: ['set', 'photo', '2030-02-30', '18:00'] },
  'set with a wrong anon key': {
    args: ['set', 'photo', date, '18:00'],
    env: { SUPABASE_ANON_KEY: wrongKey() },
  },
  status: { args: ['status'] },
  'status --json': { args: ['status', '--json'] },
  'list --json': { args: ['list', '--json'] },
  'status with a wrong anon key': { args: ['status'], env: { SUPABASE_ANON_KEY: wrongKey() } },
  'set against a 502 gateway': { args: ['set', 'photo', date, '18:00'], mode: '502' },
  'set whose insert gets a 502': { args: ['set', 'photo', date, '18:00'], mode: 'insert502' },
  'list against garbage': { args: ['list'], mode: 'garbage' },
  'set against a silent backend': {
    args: ['set', 'photo', date, '18:00', '--timeout', '300'],
    mode: 'hang',
  },
  logout: { args: ['logout'], before: () => copyFile(file(), saved()) },
  'set signed out': { args: ['set', 'photo', date, '18:00'] },
  'set with a revoked session': {
    args: ['set', 'photo', date, '18:00'],
    before: () => copyFile(saved(), file()),
  },
  'set in CI mode': {
    args: ['set', 'photo', date, '20:00'],
    env: { NAMECARD_EMAIL: OWNER.email, NAMECARD_PASSWORD: OWNER.password },
  },
  'set in CI mode with a wrong password': {
    args: ['set', 'photo', date, '20:00'],
    env: { NAMECARD_EMAIL: OWNER.email, NAMECARD_PASSWORD: 'wrong password' },
  },
  'whoami in CI mode': {
    args: ['whoami'],
    env: { NAMECARD_EMAIL: OWNER.email, NAMECARD_PASSWORD: OWNER.password },
  },
});

describe.each([
  ['without NAMECARD_DEBUG', {}],
  ['with NAMECARD_DEBUG=1', { NAMECARD_DEBUG: '1' }],
])('no secret in the output, %s', (_name, debug) => {
  it('of any command, on success and failure paths', async () => {
    const outputs: { step: string; text: string }[] = [];
    for (const [step, { args, env = {}, input, mode: stepMode = 'pass', before }] of Object.entries(
      steps(),
    )) {
      await before?.();
      mode = stepMode;
      const result = await run(dir, args, {
        env: emulatorEnv(emulator, { SUPABASE_URL: proxy.url, ...debug, ...env }),
        input,
      });
      mode = 'pass';
      await collectStored();
      outputs.push({ step, text: `${result.stdout}\n${result.stderr}` });
    }
    // The steps did what they say (so the search below covers real success and failure paths).
    expect(outputs.find((o) => o.step === 'set')?.text).toContain('The card points to photo');
    expect(outputs.find((o) => o.step === 'set with a revoked session')?.text).toContain(
      'Your session has expired',
    );
    expect(outputs.find((o) => o.step === 'set whose insert gets a 502')?.text).toContain(
      'may or may not have been saved',
    );
    if ('NAMECARD_DEBUG' in debug) {
      expect(outputs.find((o) => o.step === 'list against garbage')?.text).toMatch(/\n\s+at /);
    }

    // Tokens seen: at least the login's access and refresh tokens and each rotation's.
    expect(secrets.size).toBeGreaterThan(6);
    for (const { step, text } of outputs) {
      for (const secret of secrets) {
        expect(text.includes(secret), `${step} printed a secret`).toBe(false);
      }
    }
  }, 120_000);
});
