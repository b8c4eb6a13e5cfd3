import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkStructure,
  FOLDERS,
  isEnforced,
  measureFunctions,
  undocumentedExports,
} from '../../scripts/check-structure.js';

// The structure check that `npm run lint` runs: function lengths and docstrings measured with
// TypeScript's parser, failing only in the enforced paths.

/** A function of `n` lines in all (declaration line, n - 2 body lines, closing brace). */
const functionOf = (name: string, n: number, exported = false) =>
  `${exported ? 'export ' : ''}function ${name}() {\n${'  void 0;\n'.repeat(n - 2)}}\n`;

describe('measureFunctions', () => {
  it('measures declarations, arrows, methods and JSX components by their lines', () => {
    const text = [
      functionOf('plain', 5),
      'const arrow = () => {\n  return 1;\n};\n',
      'class K {\n  method() {\n    return 2;\n  }\n}\n',
    ].join('');
    const found = measureFunctions('x.ts', text).map((f) => [f.name, f.lines, f.line]);
    expect(found).toEqual([
      ['plain', 5, 1],
      ['arrow', 3, 6],
      ['method', 3, 10],
    ]);
    const tsx = 'export function Card() {\n  return <div>\n    hi\n  </div>;\n}\n';
    expect(measureFunctions('Card.tsx', tsx)).toMatchObject([{ name: 'Card', lines: 5 }]);
  });
});

describe('undocumentedExports', () => {
  it('lists exports without a /** docstring, and not those with one or with a line comment', () => {
    const text = [
      '/** Documented. */\nexport const a = 1;\n',
      '// A line comment is not a docstring.\nexport function b() {}\n',
      'export interface C { x: number }\n',
      "export { d } from './d.js';\n",
      'function notExported() {}\n',
    ].join('');
    expect(undocumentedExports('m.ts', text).map((m) => m.name)).toEqual(['b', 'C']);
  });
});

describe('checkStructure', () => {
  let root: string | undefined;
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('fails on a long function or a bare export in an enforced path, and only reports elsewhere', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'check-structure-'));
    for (const dir of ['emulator/rest', 'cli', 'shared', 'scripts', 'site/src', 'bench']) {
      await mkdir(path.join(root, dir), { recursive: true });
    }
    await writeFile(path.join(root, 'emulator/rest/long.ts'), functionOf('tooLong', 81));
    await writeFile(path.join(root, 'emulator/bare.ts'), functionOf('bare', 3, true));
    await writeFile(path.join(root, 'site/src/Long.tsx'), functionOf('LongPage', 130));
    await writeFile(path.join(root, 'site/src/Page.tsx'), functionOf('Page', 120));
    // In site/src a hook or a helper has the limit of any function (80), a component 120.
    await writeFile(path.join(root, 'site/src/useThing.ts'), functionOf('useThing', 81));
    await writeFile(path.join(root, 'site/src/helper.ts'), functionOf('helper', 80));
    // The benchmark has the same limit as the product's code.
    await writeFile(path.join(root, 'bench/report.ts'), functionOf('markdown', 81));

    const report = checkStructure(root);
    expect(report.failures).toBe(5);
    expect(report.lines).toContain('  error emulator/rest/long.ts:1 tooLong: 81 lines, over 80');
    expect(report.lines).toContain('  error emulator/bare.ts:1 export bare has no docstring');
    expect(report.lines).toContain('  error site/src/Long.tsx:1 LongPage: 130 lines, over 120');
    expect(report.lines).toContain('  error site/src/useThing.ts:1 useThing: 81 lines, over 80');
    expect(report.lines).toContain('  error bench/report.ts:1 markdown: 81 lines, over 80');
    expect(report.lines).toContain(
      'site/src/: longest component 130 lines (site/src/Long.tsx:1 LongPage), limit 120',
    );
    expect(report.lines).toContain(
      'site/src/: longest other function 81 lines (site/src/useThing.ts:1 useThing), limit 80',
    );
    // A path left out of the enforced list is only reported.
    const narrower = checkStructure(root, ['emulator/', 'cli/', 'shared/', 'scripts/']);
    expect(narrower.failures).toBe(2);
    expect(narrower.lines).toContain('  note  site/src/Long.tsx:1 LongPage: 130 lines, over 120');
  });

  it('enforces emulator/, cli/, shared/, scripts/, site/src and bench/', () => {
    expect(isEnforced('emulator/rest/routes.ts')).toBe(true);
    expect(isEnforced('cli/transport/transport.ts')).toBe(true);
    expect(isEnforced('cli/commands/set.ts')).toBe(true);
    expect(isEnforced('shared/core/timeline.ts')).toBe(true);
    expect(isEnforced('scripts/start.ts')).toBe(true);
    expect(isEnforced('site/src/manage/entries/SetForm.tsx')).toBe(true);
    expect(isEnforced('bench/run.ts')).toBe(true);
    expect(isEnforced('bench/report.ts')).toBe(true);
    // Every folder measured is enforced: no room is only reported any more.
    for (const { dir } of FOLDERS) expect(isEnforced(`${dir}/any.ts`)).toBe(true);
  });
});
