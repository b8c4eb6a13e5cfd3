import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run lint`'s house check as a process, as lint runs it: exit 1 and one line per
// finding (file:line, what to do) on a checkout with a line citing a ticket and a set-up
// copied between test files; exit 0 on a clean one. The check reads this file too, so the
// citation it is fed is written with `§` for the number.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `tsx scripts/check-house.ts <root>`, as `npm run lint` runs it (from the checkout). */
const checkHouse = (root: string) =>
  execa(process.execPath, ['--import', 'tsx', 'scripts/check-house.ts', root], {
    cwd: ROOT,
    reject: false,
  });

/** A test file's world: an emulator and a signed-in owner with a second card. */
const WORLD = `import { afterAll, beforeAll, it } from 'vitest';

beforeAll(async () => {
  emulator = await startEmulator();
  dir = await tempConfigDir();
  await login(emulator, dir);
  const added = await run(dir, ['card', 'add', 'studio']);
  if (added.exitCode !== 0) throw new Error(added.stderr);
});
afterAll(() => emulator?.stop());

it('works', () => {});
`;

describe('scripts/check-house.ts', () => {
  const roots: string[] = [];
  afterAll(async () => {
    for (const root of roots) await rm(root, { recursive: true, force: true });
  });

  /** A checkout holding these files (paths relative to it). */
  async function checkout(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(path.join(tmpdir(), 'check-house-'));
    roots.push(root);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    return root;
  }

  it('exits 1 with a line per finding on an added citation and a copied set-up', async () => {
    const root = await checkout({
      'shared/core/timeline.ts': '// The entry in force at t.\n// issue §\nexport {};\n'.replace(
        '§',
        '12',
      ),
      'tests/cli/a.test.ts': WORLD,
      'tests/security/b.test.ts': WORLD,
    });
    const run = await checkHouse(root);
    expect(run.exitCode).toBe(1);
    expect(run.stdout.split('\n')).toEqual([
      expect.stringMatching(
        /^shared\/core\/timeline\.ts:2: cites a ticket .*: write the rule itself/,
      ),
      expect.stringMatching(
        /^tests\/cli\/a\.test\.ts:3 \(beforeAll, afterAll\) ~ tests\/security\/b\.test\.ts:3 \(beforeAll, afterAll\): 7 statements of set-up copied between test files: move them into a shared fixture in tests\/support\//,
      ),
    ]);
    expect(run.stderr).toBe('check-house: 2 finding(s)');
  });

  it('exits 0 on a clean checkout', async () => {
    const root = await checkout({
      'shared/core/timeline.ts': '// The entry in force at t is the latest that started.\n',
      'tests/cli/a.test.ts': WORLD,
      'tests/security/b.test.ts': "import { it } from 'vitest';\nit('works', () => {});\n",
    });
    const run = await checkHouse(root);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('is part of npm run lint', async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.lint).toContain('tsx scripts/check-house.ts');
  });
});
