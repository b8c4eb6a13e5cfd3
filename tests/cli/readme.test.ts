import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers.js';
import { emulatorEnv, login, useCliFixture } from './emulator.js';

// The README's timeline example, run as a newcomer would type it (every result the
// README shows is reached by following it). Each `$ namecard …` line of the example runs in
// order against a fresh emulator; what it prints must read as the README says, apart from what
// depends on the day it runs (today's times, how far off a date is, the zone's offset).

const cli = useCliFixture();

/** The ```console block under "### The timeline". */
async function timelineExample(): Promise<string> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### The timeline'));
  const match = /```console\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('README: no console example under "### The timeline"');
  return match[1]!;
}

/** A command line's arguments, honouring double quotes; the `# comment` left out. */
function argsOf(line: string): string[] {
  const command = line.replace(/\s+#.*$/, '');
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
}

/**
 * What changes with the day (and hour) the example runs on; `list` pads its columns to the
 * longest time shown, so "tomorrow 00:13" lines up wider than "today 20:33": runs of spaces
 * between columns count as one gap.
 */
const normalise = (text: string) =>
  text
    .replace(/\b(today|tomorrow) \d\d:\d\d\b/g, 'TODAY')
    .replace(/\(in [^)]*\)/g, '(in …)')
    .replace(/\b\d{4}-\d\d-\d\d \d\d:\d\d\b(?= Europe)/g, 'STAMP')
    .replace(/UTC[+-]\d\d:\d\d/g, 'UTC±hh:mm')
    .replace(/ +$/gm, '')
    .replace(/(\S) {2,}/g, '$1  ');

describe("the README's timeline example", () => {
  it('prints what the README shows, command by command', async () => {
    const env = emulatorEnv(cli.emulator, {
      TZ: 'Europe/Berlin',
      NAMECARD_MAIN_URL: 'https://me.example/',
    });
    await login(cli.emulator, cli.dir, env);
    const blocks = (await timelineExample()).split(/^\$ /m).filter(Boolean);
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    for (const block of blocks) {
      const [line, ...shown] = block.replace(/\n$/, '').split('\n');
      expect(line).toMatch(/^namecard /);
      const result = await run(cli.dir, argsOf(line!), { env });
      expect(result.stderr, line).toBe('');
      expect(result.exitCode, line).toBe(0);
      if (shown.length > 0) {
        expect(normalise(result.stdout), line).toBe(normalise(shown.join('\n')));
      }
    }
  });
});
