import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkCopiedSetUp,
  copiedSetUps,
  copyMessage,
  MIN_STATEMENTS,
} from '../../scripts/house/copied-setup.js';
import { setUpBodies } from '../../scripts/house/setup-bodies.js';

// The check that a world a test needs is built by a shared fixture, not copied between test
// files: set-up hooks and set-up helpers read with TypeScript's parser, compared statement by
// statement whatever their comments, layout and quotes.

/** A CLI test file's world: an emulator, a signed-in owner, a second card; and its undoing. */
const WORLD = `import { afterAll, beforeAll, expect, it } from 'vitest';

let emulator;
let dir;

beforeAll(async () => {
  emulator = await startEmulator();
  dir = await tempConfigDir();
  await login(emulator, dir, { email: 'owner@example.com' });
  const added = await run(dir, ['card', 'add', 'studio']);
  if (added.exitCode !== 0) throw new Error(added.stderr);
});

afterAll(async () => {
  await emulator?.stop();
  await removeDir(dir);
});

it('sets the card', () => expect(1).toBe(1));
`;

/** The same world copied into another file: comments, layout and quotes changed, one argument too. */
const WORLD_COPIED = `import { afterAll, beforeAll, it } from 'vitest';

let emulator;
let dir;

// Each test file gets its own emulator.
beforeAll(async () => {
  emulator = await startEmulator();
  dir = await tempConfigDir();
  await login(emulator, dir, { email: "editor@example.com" });
  const added = await run(dir, [
    'card', 'add', "studio",
  ]);
  if (added.exitCode !== 0) throw new Error(added.stderr); // a failed set-up says why
}, 120_000);
afterAll(async () => {
  await emulator?.stop();
  await removeDir(dir);
});

it('lists the cards', () => {});
`;

/** A file that builds its own, different world, and ends it as every file does. */
const OTHER_WORLD = `import { afterAll, beforeAll } from 'vitest';

let database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.query('create table t (id int)');
});
afterAll(async () => {
  await emulator?.stop();
  await removeDir(dir);
});
`;

/** A set-up helper (it signs in and seeds rows) and a helper that sets nothing up. */
const HELPERS = `
/** Signs the owner in and stores two entries. */
async function seedEntries(client) {
  await client.auth.signInWithPassword(OWNER);
  await client.rpc('namecard_set', { type: 'photo' });
  await client.rpc('namecard_set', { type: 'main' });
  const { data } = await client.from('namecard').select('id');
  return data;
}

/** The rows as one line each. */
function lines(rows) {
  const sorted = [...rows].sort();
  const padded = sorted.map((r) => r.padEnd(10));
  const joined = padded.join('\\n');
  return joined.trim();
}
`;

describe('setUpBodies', () => {
  it('reads consecutive hooks as one body, at any depth, and the helpers that set up', () => {
    const text = `describe('x', () => {\n${WORLD.split('\n').slice(3).join('\n')}\n});\n${HELPERS}`;
    const bodies = setUpBodies('tests/a.test.ts', text);
    expect(bodies.map((b) => [...new Set(b.steps.map((s) => s.within))])).toEqual([
      ['beforeAll', 'afterAll'],
      ['helper seedEntries'],
    ]);
    // A hook's first step names it and counts no statement; `if (…) throw …` counts two.
    expect(bodies[0]!.steps.map((s) => s.weight)).toEqual([0, 1, 1, 1, 1, 2, 0, 1, 1]);
  });

  it('reads a statement the same whatever its comments, layout and quotes', () => {
    const keys = (text: string) =>
      setUpBodies('tests/a.test.ts', text).flatMap((b) => b.steps.map((s) => s.key));
    const a = keys(`beforeAll(() => {\n  run(dir, ['card', 'add', "studio"]);\n});`);
    const b = keys(
      `beforeAll(() => {\n  // add it\n  run(dir, [\n    "card", 'add', \`studio\`,\n  ]);\n});`,
    );
    expect(a).toEqual(b);
  });
});

describe('checkCopiedSetUp', () => {
  const roots: string[] = [];
  afterAll(async () => {
    for (const root of roots) await rm(root, { recursive: true, force: true });
  });

  /** A checkout holding these files (paths relative to it). */
  async function checkout(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(path.join(tmpdir(), 'house-setup-'));
    roots.push(root);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    return root;
  }

  it('fails on a set-up copied into another test file, with one statement changed', async () => {
    const root = await checkout({
      'tests/cli/cards.test.ts': WORLD,
      'tests/security/cards.test.ts': WORLD_COPIED,
      'tests/cli/other.test.ts': OTHER_WORLD,
    });
    const copies = checkCopiedSetUp(root);
    expect(copies).toEqual([
      {
        places: [
          { file: 'tests/cli/cards.test.ts', within: 'beforeAll, afterAll', line: 6, endLine: 16 },
          {
            file: 'tests/security/cards.test.ts',
            within: 'beforeAll, afterAll',
            line: 7,
            endLine: 18,
          },
        ],
        // Start, folder, (the sign-in differs), card, its check (2), and the two of afterAll.
        statements: 7,
      },
    ]);
    expect(copyMessage(copies[0]!)).toBe(
      'tests/cli/cards.test.ts:6 (beforeAll, afterAll) ~ tests/security/cards.test.ts:7 (beforeAll, afterAll): 7 statements of set-up copied between test files: move them into a shared fixture in tests/support/ and call it from each',
    );
  });

  it('names every file a copy is in, and the browser fixture when all are browser tests', async () => {
    const root = await checkout({
      'tests/e2e/a.test.ts': WORLD,
      'tests/e2e/b.test.ts': WORLD,
      'tests/e2e/c.test.ts': WORLD_COPIED,
    });
    const messages = checkCopiedSetUp(root).map(copyMessage);
    expect(messages).toHaveLength(2);
    // a and b are equal throughout; c shares all of it but the sign-in with both.
    expect(messages[0]).toMatch(
      /^tests\/e2e\/a\.test\.ts:6 .* ~ tests\/e2e\/b\.test\.ts:6 .*: 8 statements/,
    );
    expect(messages[1]).toMatch(
      /a\.test\.ts:6 .* ~ .*b\.test\.ts:6 .* ~ .*c\.test\.ts:7 .*: 7 statements/,
    );
    for (const message of messages) expect(message).toContain('tests/e2e/fixture.ts');
  });

  it('fails on a set-up helper copied into another test file, not on other helpers', async () => {
    const root = await checkout({
      'tests/conformance/a.test.ts': HELPERS,
      'tests/security/b.test.ts': HELPERS,
    });
    expect(checkCopiedSetUp(root).map(copyMessage)).toEqual([
      'tests/conformance/a.test.ts:4 (helper seedEntries) ~ tests/security/b.test.ts:4 (helper seedEntries): 5 statements of set-up copied between test files: move them into a shared fixture in tests/support/ and call it from each',
    ]);
  });

  it('passes idioms, copies within one file, and a fixture holding the world once', async () => {
    const root = await checkout({
      // Three statements shared (the same tear-down in every file, one query) are an idiom.
      'tests/cli/a.test.ts': OTHER_WORLD,
      'tests/cli/b.test.ts': OTHER_WORLD.replace('createTestDatabase', 'startThrowawayPostgres'),
      // The same block twice in one file is that file's business.
      'tests/cli/c.test.ts': `${WORLD}\ndescribe('again', () => {\n${WORLD.split('\n').slice(5).join('\n')}});\n`,
      // A shared fixture holds the world once; a test file may build it as the fixture does.
      'tests/support/world.ts': WORLD,
    });
    expect(MIN_STATEMENTS).toBe(4);
    expect(checkCopiedSetUp(root)).toEqual([]);
  });

  it('passes when each test file builds its own world', () => {
    const bodies = [
      ...setUpBodies('tests/cli/a.test.ts', WORLD),
      ...setUpBodies('tests/cli/b.test.ts', OTHER_WORLD),
      ...setUpBodies('tests/cli/c.test.ts', HELPERS),
    ];
    expect(copiedSetUps(bodies)).toEqual([]);
  });
});
