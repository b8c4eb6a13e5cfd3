import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEY, OWNER, atTerminal, removeDir, run, summerDate, tempConfigDir } from './helpers.js';
import { clearRows, emulatorEnv, login, rows, startEmulator, type Emulator } from './emulator.js';

let emulator: Emulator;
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator?.stop();
});
beforeEach(async () => {
  dir = await tempConfigDir();
  await clearRows(emulator);
});
afterEach(async () => {
  await removeDir(dir);
});

const storedFile = () => path.join(dir, 'config.json');

describe('namecard login', () => {
  it('signs in with --email and --password-stdin and says who is signed in', async () => {
    const result = await login(emulator, dir);
    expect(result.stdout).toBe(`Signed in as ${OWNER.email} at ${emulator.url}`);
    const whoami = await run(dir, ['whoami'], { env: emulatorEnv(emulator) });
    expect(whoami.exitCode).toBe(0);
    expect(whoami.stdout).toBe(`${OWNER.email} at ${emulator.url}`);
  });

  it('never prints the password or the refresh token', async () => {
    const result = await login(emulator, dir);
    const stored = JSON.parse(await readFile(storedFile(), 'utf8')) as {
      session: { refresh_token: string };
    };
    expect(stored.session.refresh_token).toBeTruthy();
    for (const text of [result.stdout, result.stderr]) {
      expect(text).not.toContain(OWNER.password);
      expect(text).not.toContain(stored.session.refresh_token);
    }
  });

  it('keeps the session in a file only the user can read (0600, folder 0700)', async () => {
    const nested = path.join(dir, 'new', 'namecard');
    await login(emulator, nested);
    expect((await stat(nested)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(nested, 'config.json'))).mode & 0o777).toBe(0o600);
  });

  it('tightens an existing config folder to 0700', async () => {
    const loose = path.join(dir, 'loose');
    await mkdir(loose);
    await chmod(loose, 0o755);
    await login(emulator, loose);
    expect((await stat(loose)).mode & 0o777).toBe(0o700);
  });

  it("prints the server's message for a wrong password, exits 1 and stores nothing", async () => {
    const result = await run(dir, ['login', '--email', OWNER.email, '--password-stdin'], {
      env: emulatorEnv(emulator),
      input: 'wrong password\n',
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Invalid login credentials');
    expect(result.stderr).not.toContain('wrong password');
    expect(result.stdout).toBe('');
    expect(existsSync(storedFile())).toBe(false);
  });

  it('without a terminal, a missing --email is a usage error (exit 2)', async () => {
    const result = await run(dir, ['login', '--password-stdin'], {
      env: emulatorEnv(emulator),
      input: `${OWNER.password}\n`,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('missing option `--email <email>`');
  });

  it('asks for the email and a masked password at a terminal', async () => {
    const term = atTerminal(dir, ['login'], emulatorEnv(emulator));
    try {
      await term.waitFor('Email');
      term.type(`${OWNER.email}${KEY.enter}`);
      await term.waitFor('Password');
      term.type(`${OWNER.password}${KEY.enter}`);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(0);
      expect(screen).toContain(`Signed in as ${OWNER.email}`);
      expect(screen).not.toContain(OWNER.password);
    } finally {
      term.kill();
    }
  });
});

describe('CI mode (NAMECARD_EMAIL and NAMECARD_PASSWORD)', () => {
  const ci = { NAMECARD_EMAIL: OWNER.email, NAMECARD_PASSWORD: OWNER.password };

  it('signs in for the run without a stored session and stores nothing', async () => {
    const { date } = summerDate();
    const result = await run(dir, ['set', 'photo', date, '18:00'], {
      env: emulatorEnv(emulator, ci),
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(emulator)).toHaveLength(1);
    expect(existsSync(storedFile())).toBe(false);
  });

  it('leaves a stored session alone', async () => {
    await login(emulator, dir);
    const before = await readFile(storedFile(), 'utf8');
    const { date } = summerDate();
    const result = await run(dir, ['set', 'main', date, '18:00'], {
      env: emulatorEnv(emulator, ci),
    });
    expect(result.exitCode).toBe(0);
    expect(await readFile(storedFile(), 'utf8')).toBe(before);
  });

  it("prints the server's message for wrong CI credentials and inserts nothing", async () => {
    const { date } = summerDate();
    const result = await run(dir, ['set', 'photo', date, '18:00'], {
      env: emulatorEnv(emulator, { ...ci, NAMECARD_PASSWORD: 'nope' }),
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Invalid login credentials');
    expect(await rows(emulator)).toHaveLength(0);
  });
});
