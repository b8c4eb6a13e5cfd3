import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// What the documents point to exists, and bench/results/ keeps what bench/README.md says it
// keeps: the latest run of each kind and the runs a document cites, nothing else (no second
// copy of a run under another name).

const ROOT = path.join(import.meta.dirname, '..', '..');
const RESULTS = 'bench/results';

/** The documents a reader follows links from: the README, docs/ and the bench's README. */
const DOCS = [
  'README.md',
  'bench/README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => statSync(path.join(ROOT, file), { throwIfNoEntry: false });

/** A run's file: its UTC start (`2026-11-25T1250`), then its kind unless a full run. */
const RUN_FILE = /^(\d{4}-\d\d-\d\dT\d{4})(?:-([a-z]+(?:-[a-z]+)*))?\.(?:json|md)$/;
/** What a full run writes beside its dated JSON, replacing the previous run's. */
const LATEST_FULL = ['latest.md', 'lookup.svg'];

/** The targets of a document's relative Markdown links, from the repository's root. */
function relativeLinks(doc: string): string[] {
  return [...read(doc).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => path.posix.normalize(path.posix.join(path.posix.dirname(doc), target)));
}

/**
 * The files of bench/results/ a document names: as a path (`bench/results/latest.md`,
 * `results/lookup.svg` from the bench's README) or as a run's own name
 * (`2026-11-25T1243-lookup.md`, in a list after a path).
 */
function citedResults(doc: string): string[] {
  const text = read(doc);
  const paths = [...text.matchAll(/(?<![\w/])(?:\.\.\/)?(?:bench\/)?results\/([\w.-]+\.\w+)/g)];
  const names = [...text.matchAll(/(?<![\w/.-])\d{4}-\d\d-\d\dT\d{4}(?:-[a-z-]+)?\.(?:json|md)/g)];
  return [...paths.map((m) => m[1]!), ...names.map((m) => m[0])];
}

describe('the documents', () => {
  it.each(DOCS)('%s: every relative link and every bench result it names exists', (doc) => {
    const missing = [
      ...relativeLinks(doc).filter((target) => !exists(target)),
      ...citedResults(doc)
        .map((name) => `${RESULTS}/${name}`)
        .filter((file) => !exists(file)),
    ];
    expect(missing, `${doc} points to files that do not exist`).toEqual([]);
  });
});

describe('bench/results/', () => {
  const files = readdirSync(path.join(ROOT, RESULTS), { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
  const cited = new Set(DOCS.flatMap(citedResults));

  it('keeps the latest run of each kind and the runs a document cites, nothing else', () => {
    const latest = new Map<string, string>();
    for (const file of files) {
      const [, stamp, kind = ''] = RUN_FILE.exec(file) ?? [];
      if (stamp && stamp > (latest.get(kind) ?? '')) latest.set(kind, stamp);
    }
    const kept = (file: string) => {
      if (LATEST_FULL.includes(file) || cited.has(file)) return true;
      const [, stamp, kind = ''] = RUN_FILE.exec(file) ?? [];
      return stamp !== undefined && latest.get(kind) === stamp;
    };
    expect(
      files.filter((file) => !kept(file)),
      'neither the latest run of its kind nor cited by a document: delete it (bench/README.md, "What is committed")',
    ).toEqual([]);
  });

  it('holds no file twice under two names', () => {
    const byContent = new Map<string, string[]>();
    for (const file of files) {
      const key = read(`${RESULTS}/${file}`);
      byContent.set(key, [...(byContent.get(key) ?? []), file]);
    }
    expect([...byContent.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it("names the latest full run's figures by the date on latest.md's first line", () => {
    const date = /^Benchmark (\d{4}-\d\d-\d\dT\d\d:\d\d)/.exec(read(`${RESULTS}/latest.md`))?.[1];
    expect(date).toBeDefined();
    expect(files).toContain(`${date!.replace(':', '')}.json`);
  });
});
