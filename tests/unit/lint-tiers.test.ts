import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The load-cost rule of shared/ (eslint.config.js): /go and shared/core/ may import only
// shared/core/, and no module anywhere may be part of an import cycle. (The CLI's light path
// is checked from its import graph: tests/unit/light-path.test.ts.) These lint source text
// as if it stood in those files, the way `npm run lint` would see a change that broke the rule.
const eslint = new ESLint({ cwd: process.cwd() });

/** The light-path rules' messages for `code` linted as if it were the file `filePath`. */
async function ruleMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter(
      (message) =>
        message.ruleId === 'no-restricted-imports' ||
        message.ruleId === 'import-x/no-restricted-paths',
    )
    .map((message) => message.message);
}

/** `code` plus a use of the name it imports, so that nothing else complains. */
const used = (code: string) =>
  `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`;

describe('lint: /go loads only shared/core', () => {
  it.each([
    ['site/src/go/main.ts', "import { planEntry } from '../../../shared/calendar/plan.js';"],
    ['site/src/go/main.ts', "import { setEntry } from '../../../shared/supabase/data.js';"],
    ['site/src/go/main.ts', "import { createClient } from '@supabase/supabase-js';"],
    ['shared/core/lookup.ts', "import { Temporal } from 'temporal-polyfill';"],
  ])('fails when %s imports a heavier tier: %s', async (file, code) => {
    const messages = await ruleMessages(file, used(code));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/path of \/go or `namecard status`/);
  });

  it('passes when they import the core tier', async () => {
    const code =
      "import { targetUrl } from '../../../shared/core/rules.js';\nexport const t = targetUrl;\n";
    expect(await ruleMessages('site/src/go/main.ts', code)).toEqual([]);
  });

  it('lets other files (the manage page, `set`) import every tier', async () => {
    const code =
      "import { planEntry } from '../../../shared/calendar/plan.js';\nexport const p = planEntry;\n";
    expect(await ruleMessages('site/src/manage/entries/SetForm.tsx', code)).toEqual([]);
    const set =
      "import { planEntry } from '../../shared/calendar/plan.js';\nimport { Temporal } from 'temporal-polyfill';\nexport const p = [planEntry, Temporal];\n";
    expect(await ruleMessages('cli/commands/set.ts', set)).toEqual([]);
    const session =
      "import { createClient } from '@supabase/supabase-js';\nexport const c = createClient;\n";
    expect(await ruleMessages('cli/session/session.ts', session)).toEqual([]);
  });
});

describe('lint: the zones hold every file /go loads', () => {
  /** The checkout's source files esbuild bundles from `entry` (the program left out). */
  async function loaded(entry: string): Promise<string[]> {
    const { metafile } = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      logLevel: 'silent',
      plugins: [
        {
          name: 'program-external',
          setup(b) {
            b.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: 'main.js', external: true }));
          },
        },
      ],
    });
    return Object.keys(metafile.inputs).filter((file) => !file.startsWith('node_modules/'));
  }

  it.each([['site/src/go/main.ts']])(
    'every file loaded from %s is linted as light',
    async (entry) => {
      const files = await loaded(entry);
      expect(files).toContain(entry);
      const unguarded: string[] = [];
      for (const file of files) {
        const config = (await eslint.calculateConfigForFile(file)) as {
          rules?: Record<string, unknown[]>;
        };
        const guarded = ['no-restricted-imports', 'import-x/no-restricted-paths'].every(
          (rule) => config.rules?.[rule]?.[0] === 2,
        );
        if (!guarded) unguarded.push(file);
      }
      expect(unguarded).toEqual([]);
    },
  );
});

describe('lint: no import cycles', () => {
  // Two real files that import each other, in a folder of the checkout (the rule follows
  // imports on disk), removed afterwards.
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(process.cwd(), 'tests/unit/lint-cycle-'));
    await writeFile(
      path.join(dir, 'a.ts'),
      "import { b } from './b.js';\nexport const a = () => b();\n",
    );
    await writeFile(
      path.join(dir, 'b.ts'),
      "import { a } from './a.js';\nexport const b = () => a;\n",
    );
    await writeFile(path.join(dir, 'c.ts'), "import { a } from './a.js';\nexport const c = a;\n");
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const cycleMessages = async (name: string) => {
    const [result] = await eslint.lintFiles([path.join(dir, name)]);
    return (result?.messages ?? []).filter((message) => message.ruleId === 'import-x/no-cycle');
  };

  it('refuses two modules that import each other', async () => {
    const [inA, inB] = await Promise.all([cycleMessages('a.ts'), cycleMessages('b.ts')]);
    expect(inA).toHaveLength(1);
    expect(inA[0]?.severity).toBe(2);
    expect(inA[0]?.message).toMatch(/Dependency cycle/);
    expect(inB).toHaveLength(1);
  });

  it('lets a module import one of them without a cycle of its own', async () => {
    expect(await cycleMessages('c.ts')).toEqual([]);
  });
});
