import { readdirSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCommand, commandOf, programOf } from '../../cli/grammar/commander.js';
import { readLine } from '../../cli/grammar/read-line.js';
import {
  COMMANDS,
  GLOBAL_OPTIONS,
  optionShape,
  type AnyLine,
  type CommandSpec,
} from '../../cli/grammar/table.js';
import { QR_PNG_MAX_SIZE, QR_PNG_MIN_SIZE } from '../../shared/core/card-link.js';
import { cliLinesOf, docLinesOf } from '../support/cli-lines.js';

// The command line has one grammar (cli/grammar/table.ts), read by two readers: commander's
// program built from it (what `cli/main.ts` runs), and the entry point's recogniser, which runs
// a line without commander. They must never read a line differently: for every line the tests
// run (and for lines drawn at random from the grammar's own words), the recogniser's reading
// is commander's (the same command, arguments and options), or it leaves the line to commander.

const ROOT = new URL('../..', import.meta.url).pathname;

/** How commander's program, as cli/main.ts builds it, reads `args`; undefined when it refuses. */
async function commanderReads(args: readonly string[]): Promise<AnyLine | undefined> {
  let read: AnyLine | undefined;
  const capture = (line: AnyLine) => {
    read = line;
  };
  const program = programOf('0.0.0').configureOutput({
    writeOut: () => undefined,
    writeErr: () => undefined,
  });
  for (const [name, spec] of Object.entries(COMMANDS) as [keyof typeof COMMANDS, CommandSpec][]) {
    const actions = spec.commands
      ? Object.fromEntries(Object.keys(spec.commands).map((sub) => [sub, capture]))
      : capture;
    addCommand(program, commandOf(name, actions as never));
  }
  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch {
    return undefined;
  }
  if (read === undefined) return undefined;
  // commander names every argument, given or not; a reading names the ones given.
  const given = Object.entries(read.args).filter(([, value]) => value !== undefined);
  return { ...read, args: Object.fromEntries(given) };
}

/** A line's first word: a command's name, an option, or `help`. */
const startsALine = (word: string) =>
  Object.hasOwn(COMMANDS, word) || word.startsWith('-') || word === 'help';

const TEST_LINES = [
  ...cliLinesOf(
    ROOT,
    ['tests/cli', 'tests/e2e', 'tests/security', 'tests/unit/light-lines.test.ts'],
    startsALine,
  ),
  ...docLinesOf(ROOT, [
    'README.md',
    ...readdirSync(`${ROOT}docs`)
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ]),
];

describe('the grammar table', () => {
  it('is read alike by commander and by the entry point, on every line the tests run', async () => {
    expect(TEST_LINES.length).toBeGreaterThan(300);
    const differ: string[] = [];
    let read = 0;
    for (const { args, at } of TEST_LINES) {
      const line = readLine(args);
      if (line === undefined) continue;
      read += 1;
      const commander = await commanderReads(args);
      if (!isDeepStrictEqual(line, commander)) {
        differ.push(
          `${at} ${JSON.stringify(args)}: ${JSON.stringify(line)} ≠ ${JSON.stringify(commander)}`,
        );
      }
    }
    expect(differ).toEqual([]);
    // The recogniser reads most of them itself: status, set, end… as people type them.
    expect(read).toBeGreaterThan(TEST_LINES.length / 2);
  });

  it('is read alike by both on lines drawn from its own words', async () => {
    // Lines near the grammar: a command's words, then its arguments and options (its own and
    // the program's, as `--name value` or `--name=value`) in any order, with values that look
    // like options or words now and then, and a stray token.
    const leaves = Object.entries(COMMANDS).flatMap(([name, spec]: [string, CommandSpec]) =>
      spec.commands
        ? Object.entries(spec.commands).map(([sub, leaf]) => ({ words: [name, sub], leaf }))
        : [{ words: [name], leaf: spec }],
    );
    const globals = GLOBAL_OPTIONS.map((option) => optionShape(option.flags));
    const values = ['photo', '2030-06-01', '18:00', '1h', 'UTC', '', '-1', '-', 'set', 'x=y'];
    const strays = ['--', '-h', '--help', '-V', '--version', '--nope', 'help', 'nope'];
    const line = fc.constantFrom(...leaves).chain(({ words, leaf }) => {
      const options = [...globals, ...(leaf.options ?? []).map((o) => optionShape(o.flags))];
      const value = fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...values) },
        { weight: 1, arbitrary: fc.constantFrom(...options.map((o) => o.long)) },
      );
      const part = fc.oneof(
        { weight: 3, arbitrary: value.map((v) => [v]) },
        {
          weight: 4,
          arbitrary: fc
            .tuple(fc.constantFrom(...options), value, fc.boolean())
            .map(([option, v, joined]) =>
              !option.takesValue
                ? [option.long]
                : joined
                  ? [`${option.long}=${v}`]
                  : [option.long, v],
            ),
        },
        { weight: 1, arbitrary: fc.constantFrom(...strays, ...words).map((v) => [v]) },
      );
      return fc
        .tuple(fc.array(part, { maxLength: 3 }), fc.array(part, { maxLength: 5 }))
        .map(([before, after]) => [...before.flat(), ...words, ...after.flat()]);
    });
    let read = 0;
    await fc.assert(
      fc.asyncProperty(line, async (args) => {
        const reading = readLine(args);
        if (reading === undefined) return;
        read += 1;
        expect(reading).toEqual(await commanderReads(args));
      }),
      { numRuns: 1500 },
    );
    expect(read).toBeGreaterThan(100);
  });

  it("states the sizes `qr --size` takes, as shared/core/card-link.ts's", () => {
    const size = COMMANDS.qr.options.find((option) => option.flags.startsWith('--size'));
    expect(size?.help).toContain(
      `${QR_PNG_MIN_SIZE} to ${QR_PNG_MAX_SIZE}; default ${QR_PNG_MIN_SIZE}`,
    );
  });

  it('gives no command an option of the program, nor a name twice', () => {
    const globals = GLOBAL_OPTIONS.map((option) => optionShape(option.flags).long);
    const leaves = Object.values(COMMANDS).flatMap((spec: CommandSpec) =>
      spec.commands ? Object.values(spec.commands) : [spec],
    );
    for (const leaf of leaves) {
      const own = (leaf.options ?? []).map((option) => optionShape(option.flags).long);
      expect(own.filter((long) => globals.includes(long))).toEqual([]);
      expect(new Set(own).size).toBe(own.length);
    }
    expect(Object.hasOwn(COMMANDS, 'help')).toBe(false);
  });
});
