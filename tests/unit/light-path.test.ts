import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  describeFinding,
  LIGHT_ROOTS,
  lightFiles,
  lightPathFindings,
} from '../../scripts/check-light-path.js';

// The CLI's light path is what cli/index.ts loads before the program's door (`--version`,
// `namecard status`, the owner's light commands): scripts/check-light-path.ts (run by
// `npm run lint`) walks its import graph and refuses commander, supabase-js, Temporal, prompts,
// conf, shared/calendar/, shared/supabase/ and the program. These change one file's text as an
// edit would and run the same check on the real graph.
const ROOT = process.cwd();
/** The entry point's root alone (the `status` command's root has its own test). */
const ENTRY = LIGHT_ROOTS.filter((root) => root.entry === 'cli/index.ts');
/** The cli/ files on the real graph, read when the tests are collected (one case each below). */
const PATH_FILES = (await lightFiles(ROOT)).filter((file) => file.startsWith('cli/'));

/** The import specifier of the checkout's file `to` from the file `from`: `../shared/x.js`. */
const specifier = (from: string, to: string) => {
  const relative = path.posix.relative(path.posix.dirname(from), to);
  return relative.startsWith('.') ? relative : `./${relative}`;
};

/** `file`'s text on disk with `code` added at its top (after a `#!` line). */
const withImport = (file: string, code: string) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const at = text.startsWith('#!') ? text.indexOf('\n') + 1 : 0;
  return { [file]: `${text.slice(0, at)}${code}\n${text.slice(at)}` };
};

describe("the CLI's light path, by its import graph", () => {
  it('holds nothing heavy in the checkout, the door to the program left closed', async () => {
    expect(await lightPathFindings(ROOT)).toEqual([]);
    // The graph is the real one: the status path and the owner's light commands are on it,
    // the program is not.
    expect(PATH_FILES).toContain('cli/index.ts');
    expect(PATH_FILES.length).toBeGreaterThan(10);
    expect(PATH_FILES.some((file) => file.startsWith('cli/commands/'))).toBe(false);
    expect(PATH_FILES).not.toContain('cli/main.ts');
  });

  const HEAVY_IMPORTS: [string, (file: string) => string, RegExp][] = [
    ['temporal-polyfill', () => "import 'temporal-polyfill';", /Temporal/],
    ['@supabase/supabase-js', () => "import '@supabase/supabase-js';", /supabase-js/],
    ['commander', () => "import 'commander';", /program/],
    ['conf', () => "import 'conf';", /session/],
    ['@inquirer/prompts', () => "import '@inquirer/prompts';", /prompts/],
    [
      'shared/calendar/time.ts',
      (file) => `import '${specifier(file, 'shared/calendar/time.js')}';`,
      /Temporal tier/,
    ],
    [
      'shared/supabase/data.ts',
      (file) => `import '${specifier(file, 'shared/supabase/data.js')}';`,
      /supabase-js tier/,
    ],
    [
      'cli/main.ts',
      (file) => `await import('${specifier(file, 'cli/main.js')}');`,
      /through its door/,
    ],
  ];

  // One case per file on the real graph and heavy import: a failure names both.
  describe.each(PATH_FILES)('%s', (file) => {
    it.each(
      HEAVY_IMPORTS.filter(([reached]) => !(file === 'cli/index.ts' && reached === 'cli/main.ts')),
    )(
      'fails when it imports %s, naming the chain from cli/index.ts',
      async (reached, code, why) => {
        const findings = await lightPathFindings(ROOT, withImport(file, code(file)), ENTRY);
        const found = findings.find((f) => f.root.startsWith("the CLI's light path"));
        expect(found, `${file} importing ${reached}`).toBeDefined();
        expect(found!.reached).toBe(reached);
        const chain = found!.chain.map((step) => step.module);
        expect(chain[0]).toBe('cli/index.ts');
        expect(chain.slice(-2)).toEqual([file, reached]);
        const message = describeFinding(found!);
        expect(message).toMatch(why);
        for (const module of chain) expect(message).toContain(module);
      },
    );
  });

  it('fails when a new file, named by no list, brings a heavy module onto the path', async () => {
    // A real new file beside the others, imported by status-run.ts: on the path by that import.
    const probe = `cli/light-probe-${process.pid}.ts`;
    await writeFile(path.join(ROOT, probe), "export { Temporal } from 'temporal-polyfill';\n");
    try {
      const findings = await lightPathFindings(
        ROOT,
        withImport(
          'cli/light/status-run.ts',
          `import '${specifier('cli/light/status-run.ts', probe.replace(/\.ts$/, '.js'))}';`,
        ),
      );
      expect(findings.map((f) => f.chain.map((s) => s.module))).toContainEqual([
        'cli/index.ts',
        'cli/light/status-main.ts',
        'cli/light/status-run.ts',
        probe,
        'temporal-polyfill',
      ]);
    } finally {
      await rm(path.join(ROOT, probe), { force: true });
    }
  });

  it.each([
    ['shared/supabase/data.ts', 'supabase-js tier'],
    ['shared/calendar/time.ts', 'Temporal tier'],
  ])('lets `namecard status` under commander load commander, not %s', async (reached, why) => {
    const findings = await lightPathFindings(
      ROOT,
      withImport('cli/commands/status.ts', `import '../../${reached.replace(/\.ts$/, '.js')}';`),
      LIGHT_ROOTS.filter((root) => root.entry === 'cli/commands/status.ts'),
    );
    expect(findings.map((f) => [f.reached, f.chain.map((s) => s.module)])).toEqual([
      [reached, ['cli/commands/status.ts', reached]],
    ]);
    expect(describeFinding(findings[0]!)).toContain(why);
  });
});
