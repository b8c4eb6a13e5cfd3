// `npm run build:cli`: bundles the CLI into dist/cli with esbuild, in three builds that share
// no file, so `namecard status` loads none of what the other commands need:
// - `namecard status` (cli/light/status-main.ts and all it imports, picocolors included) as one
//   file, dist/cli/light/status-main.js, without splitting: Node then resolves, reads and compiles
//   two files for status (the entry and this), not five;
// - the entry point (cli/index.ts): `--version`, and the commander-free `set`, `end`, `cancel`
//   and `profile list` (cli/light/caller-light.ts and all it imports, in chunks loaded only then);
// - the program (cli/main.ts) and one entry per command, loaded when anything else runs.
// The entry point imports `./light/status-main.js` and `./main.js` across the builds. The builds
// never pass error objects to each other (each build's errors are reported by its own
// handler), so `instanceof` on the error classes, bundled once per build, stays right.
// The program's npm packages stay external: they are installed with the CLI (`npm install
// -g .`, `npx`), and some use require(), which an ESM bundle cannot serve. dist/cli.meta.json
// keeps esbuild's metafiles (`entry`: the entry point's and status's builds, merged), which
// tests/cli/bundle.test.ts reads to check what the status path loads.
import { readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'dist/cli');
export const META_FILE = path.join(ROOT, 'dist/cli.meta.json');

const common: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outdir: OUT,
  outbase: 'cli',
  entryNames: '[dir]/[name]',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
};

/**
 * With code splitting, esbuild puts its own helpers (`__toESM`, `__commonJS`, for picocolors)
 * in a chunk of their own, and makes the entry point import it even when the entry uses none
 * of them: one more file for every run, `--version` and `status` included. This drops such an
 * import from `file` (and from the metafile): a bare `import "./…";` of a chunk built from no
 * source file at all (esbuild's helpers only, which run nothing when loaded). The chunks that
 * use the helpers import them themselves.
 */
async function dropUnusedHelperImports(meta: Metafile, file: string): Promise<void> {
  const output = meta.outputs[file]!;
  const absolute = path.join(ROOT, file);
  let text = await readFile(absolute, 'utf8');
  output.imports = output.imports.filter(({ path: target, external }) => {
    if (external || Object.keys(meta.outputs[target]?.inputs ?? { source: 1 }).length > 0) {
      return true;
    }
    const line = `import "./${path.posix.relative(path.posix.dirname(file), target)}";\n`;
    if (!text.includes(line)) return true;
    text = text.replace(line, '');
    return false;
  });
  await writeFile(absolute, text);
}

/** Builds dist/cli and writes dist/cli.meta.json; returns the two metafiles. */
export async function buildCli(): Promise<{ entry: Metafile; program: Metafile }> {
  await rm(OUT, { recursive: true, force: true });
  await rm(path.join(ROOT, 'dist/shared'), { recursive: true, force: true });
  // Its one package (picocolors, no require()) is bundled: measured ~2 ms of `status` less.
  const status = await build({
    ...common,
    entryPoints: ['cli/light/status-main.ts'],
    packages: undefined,
    splitting: false,
    // Whitespace and comments out (names kept, so a stack trace still reads): less to read and
    // parse, and no comment's non-ASCII character (an ellipsis in a docstring was one) makes
    // V8 hold the whole source as a two-byte string.
    minifyWhitespace: true,
    minifySyntax: true,
  });
  const index = await build({
    ...common,
    entryPoints: ['cli/index.ts'],
    packages: undefined,
    chunkNames: 'status/[name]-[hash]',
    plugins: [
      {
        name: 'other-builds-external',
        setup(b) {
          b.onResolve({ filter: /^\.\/(main|light\/status-main)\.js$/ }, (args) =>
            args.importer === path.join(ROOT, 'cli/index.ts')
              ? { path: args.path, external: true }
              : undefined,
          );
        },
      },
    ],
  });
  await dropUnusedHelperImports(index.metafile!, 'dist/cli/index.js');
  const entry: Metafile = {
    inputs: { ...index.metafile!.inputs, ...status.metafile!.inputs },
    outputs: { ...index.metafile!.outputs, ...status.metafile!.outputs },
  };
  const commands = readdirSync(path.join(ROOT, 'cli/commands'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `cli/commands/${name}`);
  const program = await build({
    ...common,
    entryPoints: ['cli/main.ts', ...commands],
    chunkNames: 'chunks/[name]-[hash]',
  });
  const metafiles = { entry, program: program.metafile! };
  await mkdir(path.dirname(META_FILE), { recursive: true });
  await writeFile(META_FILE, `${JSON.stringify(metafiles)}\n`);
  return metafiles;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}
