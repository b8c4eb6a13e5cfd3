import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkCitations,
  citationMessage,
  citationsIn,
  isCitationChecked,
} from '../../scripts/house/citations.js';

// The check that code, tests and schema files say the rule itself, never a ticket number.
// This file is read by the same check, so the citations it feeds it are written with `§` for
// the number and made real only when the test runs.

/** A text with its `§` made a ticket number. */
const cite = (text: string) => text.replaceAll('§', '12');

describe('citationsIn', () => {
  it('finds every way a line can cite a ticket, one finding a line', () => {
    const lines = [
      '// issue §',
      '// the lookup stays fast (issue §)',
      '/** Issue §: every anon call is bounded. */',
      '// issues § and 40 asked for it',
      '  // see issue #§ for why',
      '-- the card comes first (issue no. §)',
      " * a ticket: ticket §'s limit",
      '// fixed in PR #§',
      '// GH-§ again',
      '// the grammar is strict (#§)',
      '// see #§',
      '// #§: the owner may end it',
      "it('answers another card (issue §) after the worst values', async () => {",
      'const ok = true; // issue #§, issue #§',
    ].map(cite);
    const found = citationsIn('x.ts', lines.join('\n'));
    expect(found.map((c) => c.line)).toEqual(lines.map((_, i) => i + 1));
    expect(found[1]).toEqual({ file: 'x.ts', line: 2, cited: cite('issue §') });
    expect(found[9]?.cited).toBe(cite('(#§'));
  });

  it('finds the word on one line and its number opening the next', () => {
    const text = cite('// the walk takes its card first since the\n// issue\n// § said so\n');
    expect(citationsIn('x.ts', text)).toEqual([{ file: 'x.ts', line: 2, cited: cite('issue §') }]);
  });

  it('leaves other numbers, hashes and the word issue without a number alone', () => {
    const text = [
      '// Security round 5, findings 1 to 5: each as the attacker tried it.',
      "// Measurement 7: visitors isolated from anon's load.",
      "const BRAND = '#17704a'; // white on it: 6.1:1",
      "const ENTITIES = { quot: '\"', '#39': \"'\" }; // &#39;",
      ' * An entry in a few words, with its id: `#12 Photographer from Wed 09:00`',
      ' * this time of weekly series #4',
      '// Works around https://github.com/vitest-dev/vitest/issues/1234 until it is fixed.',
      '// Every use of a token revokes it and issues a child in the same session.',
      "// The issue's bound is PostgreSQL's.",
    ].join('\n');
    expect(citationsIn('x.ts', text)).toEqual([]);
  });

  it('says where the citation is and what to write instead', () => {
    const [found] = citationsIn('cli/set.ts', cite('\n// issue §'));
    expect(citationMessage(found!)).toBe(
      cite(
        `cli/set.ts:2: cites a ticket ("issue §"): write the rule itself instead of its ticket's number`,
      ),
    );
  });
});

describe('isCitationChecked', () => {
  it('reads code, tests, schema files and config files, and not migrations, docs or results', () => {
    for (const file of [
      'cli/commands/set.ts',
      'shared/core/timeline.ts',
      'site/src/manage/CardForm.tsx',
      'site/build/csp.ts',
      'emulator/rest/routes.ts',
      'scripts/check-house.ts',
      'bench/run.ts',
      'bench/baseline/main.js',
      'tests/cli/set.test.ts',
      'tests/support/emulator.ts',
      'supabase/schemas/cards.sql',
      'vitest.config.ts',
      'eslint.config.js',
      'tsconfig.json',
      'site/vite.config.ts',
      'site/tsconfig.json',
      'supabase/config.toml',
    ]) {
      expect(isCitationChecked(file), file).toBe(true);
    }
    for (const file of [
      'supabase/migrations/20261127125758_invitation_maker_right.sql',
      'docs/architecture.md',
      'README.md',
      'bench/README.md',
      'bench/results/2030-01-01.json',
      'tests/e2e/screenshots/manage.png',
      'package.json',
      'site/index.html.md',
    ]) {
      expect(isCitationChecked(file), file).toBe(false);
    }
  });
});

describe('checkCitations', () => {
  let root: string | undefined;
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('fails on an added ticket citation in every kind of file it reads, and passes clean ones', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'house-citations-'));
    const files: Record<string, string> = {
      // Read, citing.
      'cli/commands/set.ts': cite('export const x = 1;\n// issue §\n'),
      'tests/cli/set.test.ts': cite("it('ends the entry (issue §)', () => {});\n"),
      'supabase/schemas/cards.sql': cite('-- one card per slug (issue §)\ncreate table t ();\n'),
      'vitest.config.ts': cite('/** Timed files (issue §) run alone. */\n'),
      // Read, clean.
      'shared/core/timeline.ts': '// The entry in force at t is the latest that started.\n',
      'site/src/Page.tsx': "// Security round 5's finding: the page never frames.\n",
      // Not read.
      'supabase/migrations/20300101000000_cards.sql': cite('-- issue §\n'),
      'docs/architecture.md': cite('Cards came with issue §.\n'),
      'bench/results/run.ts': cite('// issue §\n'),
      'node_modules/x/index.js': cite('// issue §\n'),
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    const found = checkCitations(root).map((c) => `${c.file}:${c.line}`);
    expect(found).toEqual([
      'cli/commands/set.ts:2',
      'supabase/schemas/cards.sql:1',
      'tests/cli/set.test.ts:1',
      'vitest.config.ts:1',
    ]);
  });
});
