import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isTestFile, setUpBodies, type SetUpBody, type SetUpStep } from './setup-bodies.js';
import { filesUnder } from './walk.js';

// A world a test needs (an emulator started, users signed in, rows seeded, a browser opened)
// is built by one shared fixture, not copied from one test file into the next: copies drift
// apart, and a change to how the world is built has to find every one of them. Two set-up
// bodies in different test files that share statements in the same order (at most one apart,
// so that a copy with a line changed is still one), enough of them to build something, are a
// copy.

/**
 * The fewest statements a copy must hold, nested statements counted (`if (x) throw new
 * Error(…)` is two): three are still idioms (start an emulator, make a folder, sign in; or
 * stop two servers and remove a folder), four build something of a file's own.
 */
export const MIN_STATEMENTS = 4;

/** One copy of a set-up run: where it is and in which hook or helper. */
export interface CopyPlace {
  file: string;
  /** The hooks or the helper it is in: `beforeAll, afterAll`, `helper startWorld`. */
  within: string;
  /** 1-based lines of the run's first statement's start and its last statement's end. */
  line: number;
  endLine: number;
}

/** A run of set-up statements found in two or more test files. */
export interface CopiedSetUp {
  /** Every copy, by file and line. */
  places: CopyPlace[];
  /** How many statements the run holds, nested ones counted. */
  statements: number;
}

/**
 * The most steps that may stand between two shared runs, on each side, for them to be one
 * copy: a copied block with one statement changed, added or left out is still a copy.
 */
export const MAX_GAP = 1;

/** A run of equal steps two bodies share: where it starts in each, and its length. */
interface SharedRun {
  i: number;
  j: number;
  length: number;
}

/** The longest runs of equal steps two step lists share (each run as long as it goes). */
function sharedRuns(a: SetUpStep[], b: SetUpStep[]): SharedRun[] {
  const same = (i: number, j: number) => a[i]?.key === b[j]?.key;
  const runs: SharedRun[] = [];
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (!same(i, j) || (i > 0 && j > 0 && same(i - 1, j - 1))) continue;
      let length = 1;
      while (i + length < a.length && j + length < b.length && same(i + length, j + length)) {
        length++;
      }
      runs.push({ i, j, length });
    }
  }
  return runs;
}

/** The pairs of bodies (as indexes) in different files that share at least one step. */
function candidatePairs(bodies: readonly SetUpBody[]): [number, number][] {
  const byKey = new Map<string, Set<number>>();
  bodies.forEach((body, index) => {
    for (const { key } of body.steps) byKey.set(key, (byKey.get(key) ?? new Set()).add(index));
  });
  const pairs = new Map<string, [number, number]>();
  for (const holders of byKey.values()) {
    const list = [...holders];
    for (const [n, a] of list.entries()) {
      for (const b of list.slice(n + 1)) {
        if (bodies[a]!.file !== bodies[b]!.file) pairs.set(`${a},${b}`, [a, b]);
      }
    }
  }
  return [...pairs.values()];
}

/** Shared runs, each following the one before with at most {@link MAX_GAP} steps between. */
interface SharedChain {
  runs: SharedRun[];
  statements: number;
}

/** The chains of shared runs two step lists make, each as long and heavy as it can be. */
function sharedChains(a: SetUpStep[], b: SetUpStep[]): SharedChain[] {
  const runs = sharedRuns(a, b).sort((r, s) => r.i - s.i || r.j - s.j);
  const weight = (r: SharedRun) =>
    a.slice(r.i, r.i + r.length).reduce((sum, step) => sum + step.weight, 0);
  const follows = (p: SharedRun, r: SharedRun) => {
    const [gapA, gapB] = [r.i - (p.i + p.length), r.j - (p.j + p.length)];
    return gapA >= 0 && gapB >= 0 && gapA <= MAX_GAP && gapB <= MAX_GAP;
  };
  const best: { statements: number; previous?: number }[] = [];
  runs.forEach((r, n) => {
    best[n] = { statements: weight(r) };
    runs.slice(0, n).forEach((p, m) => {
      const through = best[m]!.statements + weight(r);
      if (follows(p, r) && through > best[n]!.statements) {
        best[n] = { statements: through, previous: m };
      }
    });
  });
  const extended = new Set(best.map((b) => b.previous));
  return runs.flatMap((_, n) => {
    if (extended.has(n)) return [];
    const chain: SharedRun[] = [];
    for (let m: number | undefined = n; m !== undefined; m = best[m]!.previous) {
      chain.unshift(runs[m]!);
    }
    return [{ runs: chain, statements: best[n]!.statements }];
  });
}

/** Where a chain lies in a body: `side` says which of the two bodies it is (`i` or `j`). */
function placeOf(body: SetUpBody, chain: SharedChain, side: 'i' | 'j'): CopyPlace {
  const first = chain.runs[0]!;
  const last = chain.runs.at(-1)!;
  const line = body.steps[first[side]]!.line;
  const end = last[side] + last.length;
  const within = [...new Set(body.steps.slice(first[side], end).map((s) => s.within))];
  return {
    file: body.file,
    within: within.join(', '),
    line,
    endLine: body.steps[end - 1]!.endLine,
  };
}

/** What a chain's copies have in common, as one text: the shared steps' keys, run by run. */
const chainKey = (steps: SetUpStep[], chain: SharedChain) =>
  chain.runs
    .map((r) =>
      steps
        .slice(r.i, r.i + r.length)
        .map((s) => s.key)
        .join('\n'),
    )
    .join('\n…\n');

/**
 * The set-up that two or more bodies in different files share: runs of equal statements in
 * the same order, at most {@link MAX_GAP} statements apart, together at least
 * {@link MIN_STATEMENTS} statements; the same shared set-up found in several files is one
 * finding with all its places.
 * @param bodies the set-up bodies of the test files
 * @param minStatements the fewest statements of a copy
 * @returns the copies, by their first place
 */
export function copiedSetUps(
  bodies: readonly SetUpBody[],
  minStatements = MIN_STATEMENTS,
): CopiedSetUp[] {
  const byKey = new Map<string, { places: Map<string, CopyPlace>; statements: number }>();
  for (const [a, b] of candidatePairs(bodies)) {
    const [x, y] = [bodies[a]!, bodies[b]!];
    for (const chain of sharedChains(x.steps, y.steps)) {
      if (chain.statements < minStatements) continue;
      const key = chainKey(x.steps, chain);
      const found = byKey.get(key) ?? { places: new Map(), statements: chain.statements };
      for (const place of [placeOf(x, chain, 'i'), placeOf(y, chain, 'j')]) {
        found.places.set(`${place.file}:${place.line}`, place);
      }
      byKey.set(key, found);
    }
  }
  const where = (p: CopyPlace) => `${p.file}:${String(p.line).padStart(6, '0')}`;
  return [...byKey.values()]
    .map(({ places, statements }) => ({
      places: [...places.values()].sort((p, q) => where(p).localeCompare(where(q))),
      statements,
    }))
    .sort((c, d) => where(c.places[0]!).localeCompare(where(d.places[0]!)));
}

/**
 * Every set-up run copied between the test files under `root` (see {@link copiedSetUps}).
 * @param root the checkout's folder
 * @returns the copies, by their first place
 */
export function checkCopiedSetUp(root: string): CopiedSetUp[] {
  const bodies = filesUnder(root, 'tests', isTestFile).flatMap((file) =>
    setUpBodies(file, readFileSync(path.join(root, file), 'utf8')),
  );
  return copiedSetUps(bodies);
}

/** The line printed for a copy: its places, what it is, and where the one fixture goes. */
export function copyMessage(copy: CopiedSetUp): string {
  const places = copy.places.map((p) => `${p.file}:${p.line} (${p.within})`).join(' ~ ');
  const e2e = copy.places.every((p) => p.file.startsWith('tests/e2e/'));
  const fixture = e2e ? 'tests/e2e/fixture.ts' : 'tests/support/';
  return `${places}: ${copy.statements} statements of set-up copied between test files: move them into a shared fixture in ${fixture} and call it from each`;
}
