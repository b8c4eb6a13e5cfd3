import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY, atTerminal, run, summerDate } from './helpers.js';
import { emulatorEnv, login, rows, useCliFixture } from './emulator.js';
import { OWNER } from '../support/accounts.js';

const cli = useCliFixture();

const storedFile = () => path.join(cli.dir, 'config.json');

describe('namecard login', () => {
  it('signs in with --email and --password-stdin and says who is signed in', async () => {
    const result = await login(cli.emulator, cli.dir);
    expect(result.stdout).toBe(`Signed in as ${OWNER.email} at ${cli.emulator.url}`);
    const whoami = await run(cli.dir, ['whoami'], { env: emulatorEnv(cli.emulator) });
    expect(whoami.exitCode).toBe(0);
    expect(whoami.stdout).toBe(`${OWNER.email} at ${cli.emulator.url}`);
  });

  it('never prints the password or the refresh token', async () => {
    const result = await login(cli.emulator, cli.dir);
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
    const nested = path.join(cli.dir, 'new', 'namecard');
    await login(cli.emulator, nested);
    expect((await stat(nested)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(nested, 'config.json'))).mode & 0o777).toBe(0o600);
  });

  it('tightens an existing config folder to 0700', async () => {
    const loose = path.join(cli.dir, 'loose');
    await mkdir(loose);
    await chmod(loose, 0o755);
    await login(cli.emulator, loose);
    expect((await stat(loose)).mode & 0o777).toBe(0o700);
  });

  it("prints the server's message for a wrong password, exits 1 and stores nothing", async () => {
    const result = await run(cli.dir, ['login', '--email', OWNER.email, '--password-stdin'], {
      env: emulatorEnv(cli.emulator),
      input: 'wrong password\n',
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Invalid login credentials');
    expect(result.stderr).not.toContain('wrong password');
    expect(result.stdout).toBe('');
    expect(existsSync(storedFile())).toBe(false);
  });

  it('without a terminal, a missing --email is a usage error (exit 2)', async () => {
    const result = await run(cli.dir, ['login', '--password-stdin'], {
      env: emulatorEnv(cli.emulator),
      input: `${OWNER.password}\n`,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('missing option `--email <email>`');
  });

  it('asks for the email and a masked password at a terminal', async () => {
    const term = atTerminal(cli.dir, ['login'], emulatorEnv(cli.emulator));
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

describe('namecard login at a terminal, wrong passwords', () => {
  it('asks for the email and password again after a wrong one and signs in on the next try', async () => {
    const term = atTerminal(cli.dir, ['login'], emulatorEnv(cli.emulator));
    try {
      await term.waitFor('Email');
      term.type(`${OWNER.email}${KEY.enter}`);
      await term.waitFor('Password');
      term.type(`wrong password${KEY.enter}`);
      await term.waitFor('error: Invalid login credentials: try again (2 tries left)');
      // The email typed first is offered again: Enter keeps it.
      await term.waitFor(`Email (${OWNER.email})`);
      term.type(KEY.enter);
      await term.waitFor('Password');
      term.type(`${OWNER.password}${KEY.enter}`);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(0);
      expect(screen).toContain(`Signed in as ${OWNER.email} at ${cli.emulator.url}`);
      expect(screen).not.toContain(OWNER.password);
      expect(screen).not.toContain('wrong password');
      expect(existsSync(storedFile())).toBe(true);
    } finally {
      term.kill();
    }
  });

  it('a mistyped email typed at the prompt can be corrected after "Invalid login credentials"', async () => {
    const term = atTerminal(cli.dir, ['login'], emulatorEnv(cli.emulator));
    try {
      await term.waitFor('Email');
      term.type(`typo-${OWNER.email}${KEY.enter}`);
      await term.waitFor('Password');
      term.type(`${OWNER.password}${KEY.enter}`);
      await term.waitFor('error: Invalid login credentials: try again (2 tries left)');
      await term.waitFor('Email');
      // Tab takes the offered email to edit; each backspace removes one character.
      term.type(
        `\t${KEY.backspace.repeat(`typo-${OWNER.email}`.length)}${OWNER.email}${KEY.enter}`,
      );
      await term.waitFor('Password');
      term.type(`${OWNER.password}${KEY.enter}`);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(0);
      expect(screen).toContain(`Signed in as ${OWNER.email} at ${cli.emulator.url}`);
      expect(existsSync(storedFile())).toBe(true);
    } finally {
      term.kill();
    }
  });

  it("gives up after three wrong passwords with the server's message, exit 1, nothing stored", async () => {
    const term = atTerminal(cli.dir, ['login', '--email', OWNER.email], emulatorEnv(cli.emulator));
    try {
      for (const left of ['2 tries left', '1 try left']) {
        await term.waitFor('Password');
        term.type(`wrong password${KEY.enter}`);
        await term.waitFor(`error: Invalid login credentials: try again (${left})`);
      }
      await term.waitFor('Password');
      term.type(`still wrong${KEY.enter}`);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(1);
      expect(screen.trimEnd()).toMatch(/\nerror: Invalid login credentials$/);
      // Each answered prompt ends as `✔ Password ***`: three of them, no fourth question.
      expect(screen.match(/✔ Password/g)).toHaveLength(3);
      expect(existsSync(storedFile())).toBe(false);
    } finally {
      term.kill();
    }
  });
});

describe('CI mode (NAMECARD_EMAIL and NAMECARD_PASSWORD)', () => {
  const ci = { NAMECARD_EMAIL: OWNER.email, NAMECARD_PASSWORD: OWNER.password };

  it.each([['set', 'photo', summerDate().date, '18:00'], ['end'], ['stats'], ['list'], ['whoami']])(
    'NAMECARD_EMAIL without NAMECARD_PASSWORD and no session: `%s` is a usage error naming both ways',
    async (...args) => {
      const result = await run(cli.dir, args, {
        env: emulatorEnv(cli.emulator, { NAMECARD_EMAIL: OWNER.email }),
      });
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('`NAMECARD_EMAIL` is set but `NAMECARD_PASSWORD` is not');
      expect(result.stderr).toContain('--password-stdin');
      expect(await rows(cli.emulator)).toHaveLength(0);
    },
  );

  it('NAMECARD_EMAIL without NAMECARD_PASSWORD is fine with a stored session: it is used', async () => {
    await login(cli.emulator, cli.dir);
    const result = await run(cli.dir, ['set', 'photo', summerDate().date, '18:00'], {
      env: emulatorEnv(cli.emulator, { NAMECARD_EMAIL: OWNER.email }),
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(cli.emulator)).toHaveLength(1);
  });

  it('signs in for the run without a stored session and stores nothing', async () => {
    const { date } = summerDate();
    const result = await run(cli.dir, ['set', 'photo', date, '18:00'], {
      env: emulatorEnv(cli.emulator, ci),
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await rows(cli.emulator)).toHaveLength(1);
    expect(existsSync(storedFile())).toBe(false);
  });

  it('leaves a stored session alone', async () => {
    await login(cli.emulator, cli.dir);
    const before = await readFile(storedFile(), 'utf8');
    const { date } = summerDate();
    const result = await run(cli.dir, ['set', 'main', date, '18:00'], {
      env: emulatorEnv(cli.emulator, ci),
    });
    expect(result.exitCode).toBe(0);
    expect(await readFile(storedFile(), 'utf8')).toBe(before);
  });

  it("prints the server's message for wrong CI credentials and inserts nothing", async () => {
    const { date } = summerDate();
    const result = await run(cli.dir, ['set', 'photo', date, '18:00'], {
      env: emulatorEnv(cli.emulator, { ...ci, NAMECARD_PASSWORD: 'nope' }),
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Invalid login credentials');
    expect(await rows(cli.emulator)).toHaveLength(0);
  });
});
