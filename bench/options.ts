// Command-line options of `npm run bench`.
import type { DbKind } from './emulator.js';

export const SECTIONS = [
  'lookup',
  'cards',
  'page',
  'site',
  'cli',
  'load',
  'flood',
  'anon',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface BenchOptions {
  quick: boolean;
  only: Section[];
  dbs: DbKind[];
}

export const USAGE = `Usage: npm run bench -- [--quick] [--only lookup|cards|page|site|cli|load|flood|anon[,…]] [--db postgres|pglite]

  --quick        smoke run: smaller tables (10^3, 10^4; 10^3 cards × 10), fewer rounds, 3 s of load
  --only LIST    run only these measurements (comma-separated or repeated)
  --db KIND      run on one database only (default: both)

Environment: BENCH_DATABASE_URL or DATABASE_URL names a PostgreSQL server to use instead
of starting one; BENCH_CHROMIUM another Chromium binary (default /usr/bin/chromium).
A full run (no --quick, --only or --db) writes bench/results/<date>.json (every figure),
latest.md (the tables) and lookup.svg; any other run writes <date>-<kind>.json and .md
under bench/results/partial/ (kind: the measurements, the database, quick; e.g. site-cli).`;

export class UsageError extends Error {}

/**
 * Parses the arguments after `npm run bench --`.
 * @throws UsageError naming the bad argument
 */
export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const options: BenchOptions = { quick: false, only: [], dbs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split('=', 2) : [arg];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`\`${flag}\` needs a value`);
      return v;
    };
    if (flag === '--help' || flag === '-h') return 'help';
    else if (flag === '--quick') options.quick = true;
    else if (flag === '--only') {
      for (const name of value().split(',')) {
        if (!(SECTIONS as readonly string[]).includes(name)) {
          throw new UsageError(`\`--only\` must be one of ${SECTIONS.join(', ')}, got \`${name}\``);
        }
        options.only.push(name as Section);
      }
    } else if (flag === '--db') {
      const db = value();
      if (db !== 'postgres' && db !== 'pglite') {
        throw new UsageError(`\`--db\` must be postgres or pglite, got \`${db}\``);
      }
      options.dbs.push(db);
    } else throw new UsageError(`unknown argument \`${arg}\``);
  }
  if (options.only.length === 0) options.only = [...SECTIONS];
  if (options.dbs.length === 0) options.dbs = ['postgres', 'pglite'];
  return options;
}

/** Whether this run is the full benchmark (its tables replace bench/results/latest.md). */
export function isFullRun(options: BenchOptions): boolean {
  return !options.quick && options.only.length === SECTIONS.length && options.dbs.length === 2;
}

/** The names a run's results are written under, and the folder below bench/results/. */
export interface ResultFiles {
  /** `''` (bench/results/ itself) for a full run, `partial` for any other. */
  dir: '' | 'partial';
  /** Every figure, the goals and the settings. */
  json: string;
  /** The goals and detail tables, as printed. */
  markdown: string;
  /** The lookup chart (written when the run measured the lookup). */
  chart: string;
}

/**
 * Where a run's results go. A full run that finished: `<date>.json`, `latest.md` and
 * `lookup.svg` in bench/results/ (latest.md's first line gives the date that names its JSON;
 * no second copy of the JSON is written). Any other run: `<date>-<kind>.json` and `.md` in
 * bench/results/partial/, its kind being the measurements (when not all), the database (when
 * one) and `quick`, e.g. `2026-11-25T1250-site-cli`; a full run that failed is `incomplete`.
 *
 * @param date the run's start, ISO 8601 in UTC; its minute names the files (`2026-11-25T1250`)
 * @param finished false when a measurement failed
 */
export function resultFiles(options: BenchOptions, date: string, finished: boolean): ResultFiles {
  const stamp = date.slice(0, 16).replace(/:/g, '');
  if (isFullRun(options) && finished) {
    return { dir: '', json: `${stamp}.json`, markdown: 'latest.md', chart: 'lookup.svg' };
  }
  const kind = [
    ...(options.only.length < SECTIONS.length
      ? SECTIONS.filter((s) => options.only.includes(s))
      : []),
    ...(options.dbs.length === 1 ? options.dbs : []),
    ...(options.quick ? ['quick'] : []),
  ].join('-');
  const name = `${stamp}-${kind || 'incomplete'}`;
  return { dir: 'partial', json: `${name}.json`, markdown: `${name}.md`, chart: 'lookup.svg' };
}

/** Sizes, rounds and durations of each measurement. */
export function settingsFor(quick: boolean) {
  return quick
    ? {
        lookup: { sizes: [1e3, 1e4], series: 1e2, rounds: 3, requestsPerRound: 100, warmup: 50 },
        cards: {
          cards: 1e3,
          perCard: 10,
          series: 1e2,
          rounds: 3,
          requestsPerRound: 100,
          warmup: 50,
        },
        page: { goSizes: [1e3, 1e4], baselineSize: 1e4, rounds: 3, warmup: 1 },
        cli: { rounds: 5, warmup: 1 },
        load: { rows: 1e4, connections: 50, seconds: 3, runs: 1 },
        flood: { rows: 1e3, clients: 16, bodyBytes: 1024 * 1024 - 1024, seconds: 3 },
        anon: {
          entries: 1e4,
          futureEntries: 1e3,
          series: 1e2,
          clients: 20,
          visitors: 50,
          seconds: 3,
        },
      }
    : {
        lookup: {
          sizes: [1e3, 1e5, 1e6],
          series: 1e3,
          rounds: 7,
          requestsPerRound: 300,
          warmup: 200,
        },
        cards: {
          cards: 1e4,
          perCard: 1e2,
          series: 1e3,
          rounds: 7,
          requestsPerRound: 300,
          warmup: 200,
        },
        page: { goSizes: [1e3, 1e6], baselineSize: 1e4, rounds: 15, warmup: 1 },
        cli: { rounds: 21, warmup: 2 },
        load: { rows: 1e6, connections: 50, seconds: 10, runs: 3 },
        flood: { rows: 1e3, clients: 16, bodyBytes: 1024 * 1024 - 1024, seconds: 10 },
        anon: {
          entries: 1e6,
          futureEntries: 1e5,
          series: 1e3,
          clients: 20,
          visitors: 50,
          seconds: 10,
        },
      };
}

export type BenchSettings = ReturnType<typeof settingsFor>;
