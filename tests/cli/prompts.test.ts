import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEY, atTerminal, removeDir, summerDate, tempConfigDir } from './helpers.js';
import { clearRows, emulatorEnv, login, rows, startEmulator, type Emulator } from './emulator.js';

// `set` at a real pseudo-terminal (util-linux `script`), driven by keystrokes.

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
  await login(emulator, dir);
});
afterEach(async () => {
  await removeDir(dir);
});

const { date, year } = summerDate();

describe('namecard set at a terminal', () => {
  it('asks for profile, date and time, and stores what was chosen', async () => {
    const term = atTerminal(dir, ['set'], emulatorEnv(emulator, { TZ: 'Asia/Tokyo' }));
    try {
      await term.waitFor('Profile');
      await term.waitFor('Photographer');
      term.type(KEY.down);
      term.type(KEY.enter);
      await term.waitFor('Date (YYYY-MM-DD)');
      term.type(`${date}${KEY.enter}`);
      await term.waitFor('Time (HH:MM, 24-hour, Asia/Tokyo)');
      term.type(`18:00${KEY.enter}`);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(0);
      expect(screen).toContain('The card points to photo (Photographer)');
      expect(await rows(emulator)).toEqual([
        { id: expect.any(Number), stamp_end: Date.UTC(year, 6, 15, 9, 0), type: 'photo' },
      ]);
    } finally {
      term.kill();
    }
  });

  it('checks each answer as it is typed and lets the user correct it', async () => {
    const term = atTerminal(dir, ['set', 'main'], emulatorEnv(emulator));
    try {
      await term.waitFor('Date (YYYY-MM-DD)');
      term.type(`2030-02-30${KEY.enter}`);
      await term.waitFor('`date` must be YYYY-MM-DD, got `2030-02-30`');
      term.type(`${KEY.backspace.repeat(10)}${date}${KEY.enter}`);
      await term.waitFor('Time');
      term.type(`24:00${KEY.enter}`);
      await term.waitFor('`time` must be HH:MM (24-hour), got `24:00`');
      term.type(`${KEY.backspace.repeat(5)}07:30${KEY.enter}`);
      const { exitCode } = await term.exit();
      expect(exitCode).toBe(0);
      expect(await rows(emulator)).toEqual([
        { id: expect.any(Number), stamp_end: Date.UTC(year, 6, 15, 7, 30), type: 'main' },
      ]);
    } finally {
      term.kill();
    }
  });

  it('Ctrl+C at a prompt prints "Operation cancelled", exits 130 and inserts nothing', async () => {
    const term = atTerminal(dir, ['set'], emulatorEnv(emulator));
    try {
      await term.waitFor('Profile');
      term.type(KEY.ctrlC);
      const { exitCode, screen } = await term.exit();
      expect(exitCode).toBe(130);
      expect(screen).toContain('Operation cancelled');
      expect(screen).not.toMatch(/\n\s+at /);
      expect(await rows(emulator)).toEqual([]);
    } finally {
      term.kill();
    }
  });
});
