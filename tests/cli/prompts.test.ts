import { describe, expect, it } from 'vitest';
import { KEY, atTerminal, removeDir, run, summerDate, tempConfigDir } from './helpers.js';
import { emulatorEnv, rows, useCliFixture } from './emulator.js';
import { OWNER } from '../support/accounts.js';

// `set` at a real pseudo-terminal (util-linux `script`), driven by keystrokes.

const cli = useCliFixture({ signIn: true });

const { date, year } = summerDate();

describe('namecard set at a terminal', () => {
  it('asks for profile, date and time, and stores what was chosen', async () => {
    const term = atTerminal(cli.dir, ['set'], emulatorEnv(cli.emulator, { TZ: 'Asia/Tokyo' }));
    try {
      await term.waitFor('Profile');
      await term.waitFor('Photographer');
      term.type(KEY.down);
      term.type(KEY.enter);
      await term.waitFor('Until date (YYYY-MM-DD)');
      term.type(`${date}${KEY.enter}`);
      await term.waitFor('Until time (HH:MM, 24-hour, Asia/Tokyo)');
      term.type(`18:00${KEY.enter}`);
      await term.waitFor('From (YYYY-MM-DD HH:MM, empty = now)');
      term.type(KEY.enter);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(0);
      expect(screen).toContain('The card points to photo (Photographer)');
      expect(await rows(cli.emulator)).toEqual([
        { id: expect.any(Number), stamp_end: Date.UTC(year, 6, 15, 9, 0), type: 'photo' },
      ]);
    } finally {
      term.kill();
    }
  });

  it('checks each answer as it is typed and lets the user correct it', async () => {
    const term = atTerminal(cli.dir, ['set', 'main'], emulatorEnv(cli.emulator));
    try {
      await term.waitFor('Until date (YYYY-MM-DD)');
      term.type(`2030-02-30${KEY.enter}`);
      await term.waitFor('`date` 2030-02-30 does not exist: February 2030 has 28 days');
      term.type(`${KEY.backspace.repeat(10)}${date}${KEY.enter}`);
      await term.waitFor('Until time');
      term.type(`24:00${KEY.enter}`);
      await term.waitFor('`time` must be HH:MM (24-hour), got `24:00`');
      term.type(`${KEY.backspace.repeat(5)}07:30${KEY.enter}`);
      await term.waitFor('From (YYYY-MM-DD HH:MM, empty = now)');
      term.type(`${date} 08:00${KEY.enter}`);
      await term.waitFor('`--from` must be before the end');
      term.type(`${KEY.backspace.repeat(16)}${date} 06:00${KEY.enter}`);
      const { exitCode } = await term.exit();
      expect(exitCode).toBe(0);
      expect(await rows(cli.emulator)).toEqual([
        {
          id: expect.any(Number),
          stamp_end: Date.UTC(year, 6, 15, 7, 30),
          stamp_start: Date.UTC(year, 6, 15, 6, 0),
          type: 'main',
        },
      ]);
    } finally {
      term.kill();
    }
  });

  it('Ctrl+C at a prompt prints "Operation cancelled", exits 130 and inserts nothing', async () => {
    const term = atTerminal(cli.dir, ['set'], emulatorEnv(cli.emulator));
    try {
      await term.waitFor('Profile');
      term.type(KEY.ctrlC);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(130);
      expect(screen).toContain('Operation cancelled');
      expect(screen).not.toMatch(/\n\s+at /);
      expect(await rows(cli.emulator)).toEqual([]);
    } finally {
      term.kill();
    }
  });

  it('signed out at a terminal, `set` offers to sign in first, then stores the entry', async () => {
    const signedOut = await tempConfigDir();
    const term = atTerminal(signedOut, ['set', 'photo', date, '18:00'], emulatorEnv(cli.emulator));
    try {
      await term.waitFor('You are not signed in. Sign in now?');
      term.type(KEY.enter);
      await term.waitFor('Email');
      term.type(`${OWNER.email}${KEY.enter}`);
      await term.waitFor('Password');
      term.type(`${OWNER.password}${KEY.enter}`);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(0);
      expect(screen).toContain('The card points to photo (Photographer)');
      expect(await rows(cli.emulator)).toEqual([
        { id: expect.any(Number), stamp_end: Date.UTC(year, 6, 15, 18, 0), type: 'photo' },
      ]);
      // The session is kept, as `namecard login` keeps it.
      const whoami = await run(signedOut, ['whoami'], { env: emulatorEnv(cli.emulator) });
      expect(whoami.stdout).toBe(`${OWNER.email} at ${cli.emulator.url}`);
    } finally {
      term.kill();
      await removeDir(signedOut);
    }
  });
});
