import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';

// The CLI's light path, read from the import graph: everything `cli/index.ts` loads, through
// static and dynamic imports alike, except the one door to the program (`import('./main.js')`
// from the entry point), runs before commander does: `--version`, a plain `namecard status`,
// and the owner's light commands (`end`, `cancel <id>`, `profile list`, ...). None of those
// modules may reach the heavy packages or shared/'s heavier tiers, which together cost more
// to load than Node's own start-up (measured by `npm run bench`). esbuild bundles the entry as
// `npm run build:cli` does and its metafile gives every module and what it imports, so a new
// file is checked the moment something on the path imports it, with no list to keep.
//
// `namecard status` under commander (a global option first, `status --help`) runs
// cli/commands/status.ts: the same status code plus commander, and nothing heavier.

/** Where a walk of the graph starts, and what it may load that the light path may not. */
export interface LightRoot {
  /** The entry, relative to the checkout: `cli/index.ts`. */
  entry: string;
  /** What this root is, for messages. */
  what: string;
  /** Packages this root may import although the light path may not (commander). */
  allows: readonly string[];
}

/** The roots walked: the entry point, and the `status` command under commander. */
export const LIGHT_ROOTS: readonly LightRoot[] = [
  {
    entry: 'cli/index.ts',
    what: "the CLI's light path (all cli/index.ts loads but the program, `import('./main.js')`)",
    allows: [],
  },
  {
    entry: 'cli/commands/status.ts',
    what: '`namecard status` under commander (cli/commands/status.ts)',
    allows: ['commander'],
  },
];

/** The door: the program, which the entry point loads only for the other commands. */
export const PROGRAM_DOOR = { from: 'cli/index.ts', to: 'cli/main.ts' };

/**
 * What the light path may not reach, each with why: a package name (`conf`, or a scope
 * `@supabase/*`), or a folder of the checkout ending in `/`.
 */
export const HEAVY: readonly { match: string; why: string }[] = [
  { match: 'commander', why: 'the program parses commands' },
  { match: '@supabase/*', why: 'supabase-js' },
  { match: 'temporal-polyfill', why: 'Temporal' },
  { match: '@inquirer/*', why: 'prompts' },
  { match: 'conf', why: 'the stored session' },
  { match: 'shared/calendar/', why: "shared/'s Temporal tier" },
  { match: 'shared/supabase/', why: "shared/'s supabase-js tier" },
  { match: 'cli/main.ts', why: 'the program, loaded only through its door' },
  { match: 'cli/commands/', why: "the program's commands" },
];

/** The package a bundled input belongs to (`node_modules/@a/b/x.js` → `@a/b`), if any. */
export function packageOf(input: string): string | undefined {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
}

/** The package a bare specifier names: `@a/b/c` → `@a/b`, `conf/x` → `conf`. */
export const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The {@link HEAVY} entry that a module is, if any.
 * @param module a package name, or a file of the checkout (relative to it)
 * @param allows packages the root may load
 */
export function heavyMatch(
  module: { package: string } | { file: string },
  allows: readonly string[] = [],
) {
  return HEAVY.find(({ match }) => {
    if ('file' in module) return /\/$|\.ts$/.test(match) && module.file.startsWith(match);
    if (/\/$|\.ts$/.test(match) || allows.includes(module.package)) return false;
    return match.endsWith('/*')
      ? module.package.startsWith(match.slice(0, -1))
      : module.package === match;
  });
}

/** One heavy module reached, and the imports that led there from the root. */
export interface LightFinding {
  root: string;
  /** The heavy module: an input path or a package name. */
  reached: string;
  why: string;
  /** From the root to the heavy module: each step the module and the specifier it was imported by. */
  chain: { module: string; specifier?: string; dynamic?: boolean }[];
}

/** Replaces the text of checkout files for one check: `{ 'cli/x.ts': 'source' }`. */
export type Overrides = Readonly<Record<string, string>>;

function overridePlugin(root: string, overrides: Overrides): Plugin {
  const byPath = new Map(Object.entries(overrides).map(([f, t]) => [path.join(root, f), t]));
  return {
    name: 'overrides',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, (args) => {
        const contents = byPath.get(args.path);
        return contents === undefined ? undefined : { contents, loader: 'ts' };
      });
    },
  };
}

/** The door left closed: the program is not bundled from the entry point. */
function doorPlugin(root: string): Plugin {
  const from = path.join(root, PROGRAM_DOOR.from);
  const to = path.join(root, PROGRAM_DOOR.to);
  return {
    name: 'program-door',
    setup(b) {
      b.onResolve({ filter: /\.js$/ }, (args) => {
        if (args.importer !== from || args.kind !== 'dynamic-import') return undefined;
        const target = path.resolve(path.dirname(from), args.path).replace(/\.js$/, '.ts');
        return target === to ? { path: args.path, external: true, namespace: 'door' } : undefined;
      });
    },
  };
}

/** Heavy packages stay imports, not bundled: the walk stops at them, and the check stays fast. */
function heavyExternalPlugin(): Plugin {
  return {
    name: 'heavy-external',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) =>
        !args.path.startsWith('node:') && heavyMatch({ package: packageName(args.path) })
          ? { path: args.path, external: true }
          : undefined,
      );
    },
  };
}

/** esbuild's metafile for `entry` bundled as the CLI build bundles it (light packages inside). */
async function graphOf(root: string, entry: string, overrides: Overrides): Promise<Metafile> {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    plugins: [doorPlugin(root), heavyExternalPlugin(), overridePlugin(root, overrides)],
  });
  return metafile;
}

/**
 * The checkout's files on a root's graph (packages left out), as esbuild bundles them.
 * @param root the checkout
 */
export async function lightFiles(root: string, entry = LIGHT_ROOTS[0]!.entry): Promise<string[]> {
  const { inputs } = await graphOf(root, entry, {});
  return Object.keys(inputs).filter((input) => !packageOf(input));
}

/**
 * Walks the import graph from each of {@link LIGHT_ROOTS} (breadth first, so each chain is a
 * shortest one) and returns every heavy module reached, with the chain of imports that led
 * there. The walk does not go on through a heavy module: what it loads is its own business.
 * @param root the checkout
 * @param overrides file texts to use instead of those on disk (to show the check failing)
 */
export async function lightPathFindings(
  root: string,
  overrides: Overrides = {},
  roots: readonly LightRoot[] = LIGHT_ROOTS,
): Promise<LightFinding[]> {
  const findings: LightFinding[] = [];
  for (const light of roots) {
    const { inputs } = await graphOf(root, light.entry, overrides);
    type Step = LightFinding['chain'][number];
    const via = new Map<string, { parent?: string; step: Step }>([
      [light.entry, { step: { module: light.entry } }],
    ]);
    const chainTo = (module: string): Step[] => {
      const steps: Step[] = [];
      for (let at: string | undefined = module; at; at = via.get(at)?.parent) {
        steps.unshift(via.get(at)!.step);
      }
      return steps;
    };
    // A package's files are one step of a chain, named by the package.
    const idOf = (file: string) => packageOf(file) ?? file;
    const seen = new Set([light.entry]);
    const reported = new Set<string>();
    const queue = [light.entry];
    while (queue.length > 0) {
      const module = queue.shift()!;
      for (const imported of inputs[module]?.imports ?? []) {
        const { path: target, external } = imported;
        // Node's own modules, and the program behind its door.
        if (external && (target.startsWith('node:') || target.startsWith('.'))) continue;
        const pkg = external ? packageName(target) : packageOf(target);
        const id = pkg ?? target;
        if (!via.has(id)) {
          const step: Step = { module: id, specifier: imported.original ?? target };
          if (imported.kind === 'dynamic-import') step.dynamic = true;
          via.set(id, { parent: idOf(module), step });
        }
        const heavy = heavyMatch(pkg ? { package: pkg } : { file: target }, light.allows);
        if (heavy && !reported.has(id)) {
          reported.add(id);
          findings.push({ root: light.what, reached: id, why: heavy.why, chain: chainTo(id) });
        } else if (!heavy && !external && !seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
  }
  return findings;
}

/** A finding as the lines a person reads: what was reached, from where, by which imports. */
export function describeFinding(finding: LightFinding): string {
  const [first, ...rest] = finding.chain;
  const lines = [
    `${finding.root} reaches ${finding.reached} (${finding.why}):`,
    `    ${first?.module}`,
    ...rest.map(
      (s) => `  → ${s.module}  (${s.dynamic ? `import('${s.specifier}')` : `'${s.specifier}'`})`,
    ),
  ];
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const findings = await lightPathFindings(root);
  if (findings.length === 0) {
    console.log(
      `check-light-path: ${LIGHT_ROOTS.map((r) => r.entry).join(', ')}: nothing heavy reached`,
    );
  } else {
    console.error(findings.map(describeFinding).join('\n\n'));
    console.error(
      `check-light-path: ${findings.length} heavy module(s) on the CLI's light path; load them behind the program's door (cli/main.ts) or with await import() in the program's commands.`,
    );
    process.exitCode = 1;
  }
}
