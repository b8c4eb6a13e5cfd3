import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Keeps every room small enough to hold in one's head: the longest function per folder, and
// the exports of shared/ and emulator/ without a docstring. Read with the TypeScript compiler's
// own parser, so a function is what TypeScript says it is (declarations, methods, arrows,
// function expressions), whatever its formatting.

/**
 * Where the limits are enforced: a path under one of these prefixes that breaks a limit makes
 * the check fail (exit 1). Everywhere else the same findings are only reported (a room being
 * brought within the limits can be left out of this list meanwhile). Today: every folder in
 * FOLDERS.
 */
export const ENFORCED: readonly string[] = [
  'emulator/',
  'cli/',
  'shared/',
  'scripts/',
  'site/src/',
  'bench/',
];

/** A folder measured: the most lines a function may have, and a React component, if other. */
export interface FolderLimits {
  dir: string;
  /** The most lines of any function (hooks and helpers included, in site/src). */
  maxLines: number;
  /** The most lines of a component (a function whose name starts with a capital, React's rule). */
  maxComponentLines?: number;
}

/** The folders measured, and their limits: 80 lines a function, 120 a component in site/src. */
export const FOLDERS: readonly FolderLimits[] = [
  { dir: 'emulator', maxLines: 80 },
  { dir: 'cli', maxLines: 80 },
  { dir: 'shared', maxLines: 80 },
  { dir: 'scripts', maxLines: 80 },
  { dir: 'site/src', maxLines: 80, maxComponentLines: 120 },
  { dir: 'bench', maxLines: 80 },
];

/** The folders whose exports each carry a docstring (`/** … *\/`). */
export const DOCUMENTED: readonly string[] = ['shared', 'emulator'];

/** One function as measured: where it is, its name, and its lines from first to last. */
export interface FunctionLength {
  file: string;
  /** 1-based line of its start. */
  line: number;
  name: string;
  lines: number;
}

/** One export without a docstring. */
export interface UndocumentedExport {
  file: string;
  /** 1-based line of the declaration. */
  line: number;
  name: string;
}

const parse = (file: string, text: string) =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));

function scriptKind(file: string): ts.ScriptKind {
  return file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

/** The name a function goes by: its own, its variable's, its property's or its class member's. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText();
  }
  if (ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `<callback of ${parent.expression.getText()}>`;
  return '<anonymous>';
}

/**
 * Every function in a source text with its length in lines (an outer function's lines
 * include those of the functions inside it, as ESLint's max-lines-per-function counts).
 * @param file the path the text is reported under (and whose .tsx ending turns on JSX)
 * @returns the functions in source order
 */
export function measureFunctions(file: string, text: string): FunctionLength[] {
  const source = parse(file, text);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = functionName(node as ts.FunctionLikeDeclaration);
      found.push({ file, line: start + 1, name, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Whether a statement is exported (`export …`, `export default …`). */
function isExported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false)
  );
}

/** Whether the statement has a `/** … *\/` comment right before it. */
function hasDocstring(node: ts.Node, text: string): boolean {
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  return ranges.some((r) => text.startsWith('/**', r.pos));
}

/** The names a declaration statement exports. */
function declaredNames(node: ts.Statement): string[] {
  if (ts.isVariableStatement(node)) {
    return node.declarationList.declarations.map((d) => d.name.getText());
  }
  const named = node as ts.Statement & { name?: ts.Node };
  return [named.name?.getText() ?? 'default'];
}

/**
 * The exported declarations of a source text that carry no docstring (functions, classes,
 * interfaces, types, enums, variables); re-exports (`export … from`) are documented where
 * they are declared.
 */
export function undocumentedExports(file: string, text: string): UndocumentedExport[] {
  const source = parse(file, text);
  const missing: UndocumentedExport[] = [];
  for (const statement of source.statements) {
    if (!isExported(statement) || hasDocstring(statement, text)) continue;
    const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1;
    for (const name of declaredNames(statement)) missing.push({ file, line, name });
  }
  return missing;
}

/** The TypeScript sources under `dir` (relative to `root`), tests and declarations left out. */
export function sourcesUnder(root: string, dir: string): string[] {
  const entries = readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.d\.ts$|\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((file) => !file.includes('/node_modules/'))
    .sort();
}

/** Whether a path is under one of the {@link ENFORCED} prefixes. */
export const isEnforced = (file: string, enforced: readonly string[] = ENFORCED): boolean =>
  enforced.some((prefix) => file === prefix || file.startsWith(prefix));

/** Whether a function is a React component: its name starts with a capital (`CardForm`). */
export const isComponent = (f: FunctionLength): boolean => /^[A-Z]/.test(f.name);

/** The longest of `functions`, or undefined when there is none. */
function longestOf(functions: FunctionLength[]): FunctionLength | undefined {
  return functions.reduce<FunctionLength | undefined>(
    (a, b) => (a && a.lines >= b.lines ? a : b),
    undefined,
  );
}

/**
 * The functions of one folder measured against its limits: a line per kind (functions; in a
 * folder with a component limit, components and the other functions apart) and those over.
 */
function lengthFindings(folder: FolderLimits, functions: FunctionLength[]) {
  const where = (f: FunctionLength) => `${f.file}:${f.line} ${f.name}`;
  const kinds =
    folder.maxComponentLines === undefined
      ? [{ kind: 'function', limit: folder.maxLines, found: functions }]
      : [
          {
            kind: 'component',
            limit: folder.maxComponentLines,
            found: functions.filter(isComponent),
          },
          {
            kind: 'other function',
            limit: folder.maxLines,
            found: functions.filter((f) => !isComponent(f)),
          },
        ];
  const summary: string[] = [];
  const over: { file: string; what: string }[] = [];
  for (const { kind, limit, found } of kinds) {
    const longest = longestOf(found);
    summary.push(
      `${folder.dir}/: longest ${kind} ${longest ? `${longest.lines} lines (${where(longest)})` : 'none'}, limit ${limit}`,
    );
    for (const f of found.filter((f) => f.lines > limit)) {
      over.push({ file: f.file, what: `${where(f)}: ${f.lines} lines, over ${limit}` });
    }
  }
  return { summary, over };
}

/** What the check found: lines to print, and how many findings break an enforced limit. */
export interface StructureReport {
  lines: string[];
  failures: number;
}

/** Measures every folder of {@link FOLDERS} under `root`. */
export function checkStructure(root: string, enforced: readonly string[] = ENFORCED) {
  const report: StructureReport = { lines: [], failures: 0 };
  const note = (file: string, what: string) => {
    const hard = isEnforced(file, enforced);
    if (hard) report.failures++;
    report.lines.push(`  ${hard ? 'error' : 'note '} ${what}`);
  };
  for (const folder of FOLDERS) {
    const { dir } = folder;
    const files = sourcesUnder(root, dir);
    const texts = files.map((file) => [file, readFileSync(path.join(root, file), 'utf8')] as const);
    const functions = texts.flatMap(([file, text]) => measureFunctions(file, text));
    const { summary, over } = lengthFindings(folder, functions);
    report.lines.push(...summary);
    for (const { file, what } of over) note(file, what);
    if (!DOCUMENTED.includes(dir)) continue;
    const missing = texts.flatMap(([file, text]) => undocumentedExports(file, text));
    report.lines.push(`${dir}/: ${missing.length} exports without a docstring`);
    for (const m of missing) note(m.file, `${m.file}:${m.line} export ${m.name} has no docstring`);
  }
  return report;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { lines, failures } = checkStructure(root);
  console.log(lines.join('\n'));
  if (failures > 0) {
    console.error(
      `check-structure: ${failures} finding(s) in enforced paths (${ENFORCED.join(', ')})`,
    );
    process.exitCode = 1;
  }
}
