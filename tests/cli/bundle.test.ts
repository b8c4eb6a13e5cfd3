import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

// What `npm run build:cli` bundled (esbuild's metafiles in dist/cli.meta.json): the files a
// run of `namecard status` loads must hold none of what the other commands need, so the
// most-run command keeps starting fast.

const meta = JSON.parse(readFileSync(path.join(ROOT, 'dist/cli.meta.json'), 'utf8')) as {
  entry: Metafile;
  program: Metafile;
};
const outputs: Metafile['outputs'] = { ...meta.entry.outputs, ...meta.program.outputs };

/**
 * The output files loaded from `start` (statically or by dynamic import), and the packages
 * they import. `./main.js` from the entry point is the commander route, which a plain
 * `namecard status` does not take; `skipProgram` leaves it out.
 */
function graph(start: string, skipProgram: boolean) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    const output = outputs[file];
    expect(output, `${file} is in the build`).toBeDefined();
    files.add(file);
    for (const { path: target, external } of output?.imports ?? []) {
      if (!external) visit(target);
      else if (target.startsWith('.')) {
        if (!(skipProgram && target === './main.js')) {
          visit(path.posix.join(path.posix.dirname(file), target));
        }
      } else packages.add(target);
    }
  };
  visit(start);
  const inputs = [...files].flatMap((file) => Object.keys(outputs[file]?.inputs ?? {}));
  return { files, packages, inputs };
}

describe('the bundled CLI', () => {
  const status = graph('dist/cli/index.js', true);

  it('runs `namecard status` without commander, prompts, supabase-js, conf or Temporal', () => {
    // Its packages are bundled: only Node's own modules stay imports, and picocolors is the
    // one package inside besides the two small parsers of `set`'s rules on the light path
    // (a duration, and the nearest profile name for a suggestion).
    expect([...status.packages].filter((name) => !name.startsWith('node:'))).toEqual([]);
    const bundled = new Set(
      status.inputs.flatMap((input) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? []),
    );
    expect([...bundled].sort()).toEqual(['fastest-levenshtein', 'parse-duration', 'picocolors']);
    expect(status.inputs).toContain('cli/light/status-run.ts');
    // No module of the program: its entry and commands, shared/'s heavy tiers, and every
    // module of the program's build that imports commander, prompts, supabase-js or conf.
    const heavyImporters = Object.entries(meta.program.inputs)
      .filter(([, input]) =>
        input.imports.some(
          (i) => i.external && /^(commander|@inquirer\/|@supabase\/|conf$)/.test(i.path),
        ),
      )
      .map(([file]) => file);
    expect(heavyImporters).toEqual(expect.arrayContaining(['cli/grammar/commander.ts']));
    expect(
      status.inputs.filter(
        (input) =>
          /^(cli\/main\.ts|cli\/commands\/|shared\/(calendar|supabase)\/)/.test(input) ||
          heavyImporters.includes(input),
      ),
    ).toEqual([]);
  });

  it('runs `end`, `cancel`, `profile list` and `set` as a card token or with a valid stored token on the same light graph', () => {
    // The graph checked above (no package but picocolors, no program file) holds these paths.
    for (const file of [
      'cli/grammar/read-line.ts',
      'cli/grammar/table.ts',
      'cli/light/light-lines.ts',
      'cli/light/caller-light.ts',
      'cli/light/light-caller.ts',
      'cli/session/run-card.ts',
      'cli/transport/light-rest.ts',
      'cli/session/access-token.ts',
      'cli/terminal/end-show.ts',
      'cli/terminal/cancel-show.ts',
      'cli/terminal/profile-show.ts',
      'cli/terminal/set-show.ts',
      'shared/core/member-answers.ts',
      'shared/core/entry-rules.ts',
      'shared/core/wall-time.ts',
    ]) {
      expect(status.inputs).toContain(file);
    }
    const light = graph('dist/cli/index.js', true);
    expect(
      light.inputs.filter((input) =>
        /node_modules\/(commander|conf|@supabase|temporal-polyfill)\//.test(input),
      ),
    ).toEqual([]);
  });

  it('shares no file between `namecard status` and `login` or `set`', () => {
    for (const command of ['login', 'set']) {
      const other = graph(`dist/cli/commands/${command}.js`, false);
      expect(other.packages.has('commander')).toBe(true);
      expect([...other.files].filter((file) => status.files.has(file))).toEqual([]);
    }
  });
});
