import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The `namecard` command lines the test files run, read from their sources with TypeScript's
// parser: every array literal of strings whose first word is one a line starts with (a
// command, or an option), as the tests pass them to `run`, `atTerminal` or their own helpers,
// and every call of a file's own prefixing helper (`const set = (...args) => ['set', ...args]`);
// and the lines the docs show (`$ namecard …`), which tests/cli/readme.test.ts runs too.
// A part the file computes (`${year}-07-15`, a loop's variable) stands in as a plain word,
// `value`, unless it is a constant of the same file: what the grammar decides turns on the
// words and on whether a value looks like an option, not on which date it is.

/** What a computed part of a line stands in as. */
export const COMPUTED = 'value';

/** A line found: its words, and where. */
export interface FoundLine {
  args: string[];
  at: string;
}

/** The string constants a file declares (`const DATE = '2030-06-01'`), by name. */
function constantsOf(source: ts.SourceFile): Map<string, string> {
  const constants = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isStringLiteralLike(node.initializer)
    ) {
      constants.set(node.name.text, node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return constants;
}

/** A file's helpers that put words before their arguments: `set` → `['set']`. */
function prefixersOf(source: ts.SourceFile, constants: Map<string, string>) {
  const prefixers = new Map<string, string[]>();
  const visit = (node: ts.Node) => {
    const fn = ts.isVariableDeclaration(node) ? node.initializer : undefined;
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      fn &&
      ts.isArrowFunction(fn)
    ) {
      const rest = fn.parameters[0];
      const body = fn.body;
      if (rest?.dotDotDotToken && ts.isIdentifier(rest.name) && ts.isArrayLiteralExpression(body)) {
        const last = body.elements.at(-1);
        const words = body.elements.slice(0, -1).map((element) => wordOf(element, constants));
        const spreadsRest =
          last &&
          ts.isSpreadElement(last) &&
          ts.isIdentifier(last.expression) &&
          last.expression.text === rest.name.text;
        if (spreadsRest && words.every((word) => word !== undefined)) {
          prefixers.set(node.name.text, words as string[]);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return prefixers;
}

/** A part of a line as text, or undefined when it is not a word (a spread, a number). */
function wordOf(node: ts.Expression, constants: Map<string, string>): string | undefined {
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((span) => COMPUTED + span.literal.text).join('');
  }
  if (ts.isIdentifier(node)) return constants.get(node.text) ?? COMPUTED;
  if (ts.isPropertyAccessExpression(node) || ts.isCallExpression(node)) return COMPUTED;
  if (ts.isAsExpression(node) || ts.isParenthesizedExpression(node)) {
    return wordOf(node.expression, constants);
  }
  return undefined;
}

/**
 * The lines in the test files under `paths`.
 *
 * @param root the checkout
 * @param paths folders of test files, or test files, relative to the checkout
 * @param starts whether a line may start with this word (a command's name, or an option)
 */
export function cliLinesOf(
  root: string,
  paths: readonly string[],
  starts: (word: string) => boolean,
): FoundLine[] {
  const found: FoundLine[] = [];
  const files = paths.flatMap((dir) =>
    dir.endsWith('.ts')
      ? [dir]
      : readdirSync(path.join(root, dir))
          .filter((name) => name.endsWith('.ts'))
          .map((name) => path.join(dir, name)),
  );
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const constants = constantsOf(source);
    const prefixers = prefixersOf(source, constants);
    const add = (node: ts.Node, words: (string | undefined)[]) => {
      if (words.length > 0 && words.every((word) => word !== undefined) && starts(words[0]!)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push({ args: words as string[], at: `${file}:${line + 1}` });
      }
    };
    const visit = (node: ts.Node) => {
      if (ts.isArrayLiteralExpression(node)) {
        add(
          node,
          node.elements.map((element) => wordOf(element, constants)),
        );
      } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const prefix = prefixers.get(node.expression.text);
        const words = node.arguments.map((argument) => wordOf(argument, constants));
        if (prefix) add(node, [...prefix, ...words]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/**
 * The command lines the docs show (`$ namecard …` or `namecard …` at the start of a line),
 * split as a shell splits them (double quotes honoured, a `# comment` left out).
 *
 * @param files Markdown files, relative to the checkout
 */
export function docLinesOf(root: string, files: readonly string[]): FoundLine[] {
  return files.flatMap((file) =>
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .flatMap((text, at) => {
        const match = /^\s*(?:\$ )?namecard (.*)$/.exec(text);
        if (!match) return [];
        const command = match[1]!.replace(/\s+#.*$/, '');
        const args = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
        return [{ args, at: `${file}:${at + 1}` }];
      }),
  );
}
