import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The load-cost rule of shared/ (eslint.config.js): /go and `namecard status` may import only
// shared/core/, and no module anywhere may be part of an import cycle. These lint source text
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

/** The import specifier of the checkout's file `to` from the file `from`: `../shared/x.js`. */
const specifier = (from: string, to: string) => {
  const relative = path.posix.relative(path.posix.dirname(from), to);
  return relative.startsWith('.') ? relative : `./${relative}`;
};

/** `code` plus a use of the name it imports, so that nothing else complains. */
const used = (code: string) =>
  `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`;

describe('lint: /go and `namecard status` load only shared/core', () => {
  it.each([
    ['site/src/go/main.ts', "import { planEntry } from '../../../shared/calendar/plan.js';"],
    ['site/src/go/main.ts', "import { insertEntry } from '../../../shared/supabase/data.js';"],
    ['site/src/go/main.ts', "import { createClient } from '@supabase/supabase-js';"],
    ['cli/commands/status.ts', "import { toStampEnd } from '../../shared/calendar/time.js';"],
    ['cli/commands/status.ts', "import { listEntries } from '../../shared/supabase/data.js';"],
    ['shared/core/lookup.ts', "import { Temporal } from 'temporal-polyfill';"],
  ])('fails when %s imports a heavier tier: %s', async (file, code) => {
    const messages = await ruleMessages(file, used(code));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/path of \/go or `namecard status`/);
  });

  // Every file of the status path, and a file that does not exist yet: the rule is a folder and
  // glob zone (cli/'s top level), not a list of today's files.
  const STATUS_PATH = [
    'cli/index.ts',
    'cli/status-run.ts',
    'cli/status-main.ts',
    'cli/status-args.ts',
    'cli/project-env.ts',
    'cli/light-fetch.ts',
    'cli/transport.ts',
    'cli/settings.ts',
    'cli/output.ts',
    'cli/owner-args.ts',
    'cli/owner-light.ts',
    'cli/light-rest.ts',
    'cli/access-token.ts',
    'cli/end-show.ts',
    'cli/cancel-show.ts',
    'cli/profile-show.ts',
    'cli/status-format.ts',
    'cli/status/run.ts',
  ];
  describe.each(STATUS_PATH)('on the status path, %s', (file) => {
    it.each([
      ["import { Temporal } from 'temporal-polyfill';", /must not load supabase-js, Temporal/],
      ["import { createClient } from '@supabase/supabase-js';", /must not load supabase-js/],
      [
        `import { planEntry } from '${specifier(file, 'shared/calendar/plan.js')}';`,
        /import only shared\/core\//,
      ],
      [
        `import { listEntries } from '${specifier(file, 'shared/supabase/data.js')}';`,
        /import only shared\/core\//,
      ],
      [
        `import { openStore } from '${specifier(file, 'cli/session.js')}';`,
        /must not load the other commands' modules/,
      ],
    ])('fails on %s', async (code, says) => {
      const messages = await ruleMessages(file, used(code));
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(/path of \/go or `namecard status`/);
      expect(messages[0]).toMatch(says);
    });
  });

  it('passes when they import the core tier', async () => {
    const code =
      "import { targetUrl } from '../../../shared/core/rules.js';\nexport const t = targetUrl;\n";
    expect(await ruleMessages('site/src/go/main.ts', code)).toEqual([]);
    const cli =
      "import { targetUrl } from '../shared/core/rules.js';\nexport const t = targetUrl;\n";
    expect(await ruleMessages('cli/status-run.ts', cli)).toEqual([]);
  });

  it('lets other files (the manage page, `set`) import every tier', async () => {
    const code =
      "import { planEntry } from '../../../shared/calendar/plan.js';\nexport const p = planEntry;\n";
    expect(await ruleMessages('site/src/manage/CardForm.tsx', code)).toEqual([]);
    const set =
      "import { planEntry } from '../../shared/calendar/plan.js';\nimport { Temporal } from 'temporal-polyfill';\nexport const p = [planEntry, Temporal];\n";
    expect(await ruleMessages('cli/commands/set.ts', set)).toEqual([]);
    const session =
      "import { createClient } from '@supabase/supabase-js';\nexport const c = createClient;\n";
    expect(await ruleMessages('cli/session.ts', session)).toEqual([]);
  });
});

describe('lint: the zones hold every file /go and `namecard status` load', () => {
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

  it.each([['cli/index.ts'], ['site/src/go/main.ts']])(
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
