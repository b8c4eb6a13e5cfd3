import ts from 'typescript';

// The set-up bodies of test files, read with TypeScript's own parser: those of vitest's
// set-up hooks and of a file's top-level helpers that set up a world (start an emulator or a
// browser, sign in, seed rows), each as its list of statements normalised so that a copy is
// found whatever its comments, layout or quotes.

/** The hooks whose bodies are set-up. */
export const SETUP_HOOKS: readonly string[] = ['beforeAll', 'beforeEach', 'afterAll', 'afterEach'];

/**
 * What makes a top-level helper a set-up helper: it calls something whose name starts so
 * (starting an emulator, a server or a browser, signing in, seeding rows, making a folder).
 * Node's makers of things that are no world (`createRequire`, `createHash`) are not set-up.
 */
const SETS_UP =
  /^(?:start|launch|spawn|listen|sign(?:In|Up)|log[iI]n|seed|insert|upsert|invite|accept|mkdtemp|newContext|newPage|create(?!Require|Hash|Hmac|Element|ReadStream|Interface))/;

/** A test file: `*.test.ts` (or `.tsx`) under tests/. */
export const isTestFile = (file: string): boolean =>
  file.startsWith('tests/') && /\.test\.tsx?$/.test(file);

/** One top-level statement of a set-up body, normalised. */
export interface SetUpStep {
  /** The statement's tokens: its comments and layout dropped, its literals by their values. */
  key: string;
  /** How many statements it holds, itself and those nested in it. */
  weight: number;
  /** 1-based lines of its start and its end. */
  line: number;
  endLine: number;
  /** The hook (`beforeAll`) or helper (`helper startWorld`) it is in. */
  within: string;
}

/** A body of set-up in a test file: the hooks in a row in one scope, or a set-up helper. */
export interface SetUpBody {
  file: string;
  steps: SetUpStep[];
}

/** A literal's value in one spelling: `'a'`, `"a"` and `` `a` `` are the same, `1_000` is `1000`. */
function literalKey(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    return JSON.stringify(node.text);
  }
  if (ts.isNumericLiteral(node)) return String(Number(node.text));
  if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
    return `\`${JSON.stringify(node.text)}`;
  }
  return undefined;
}

const isJSDoc = (node: ts.Node) =>
  node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;

/** The tokens of a node: its leaves' texts, each literal by its value (see {@link literalKey}). */
function tokensOf(node: ts.Node, source: ts.SourceFile, out: string[] = []): string[] {
  if (isJSDoc(node)) return out;
  const literal = literalKey(node);
  if (literal !== undefined) {
    out.push(literal);
    return out;
  }
  const children = node.getChildren(source);
  if (children.length === 0) {
    const text = node.getText(source);
    if (text) out.push(text);
  }
  for (const child of children) tokensOf(child, source, out);
  return out;
}

/** A statement's key: its tokens, a trailing comma (`[a, b,]`) dropped as layout. */
const keyOf = (node: ts.Node, source: ts.SourceFile) =>
  tokensOf(node, source)
    .join(' ')
    .replace(/ , (?=[\])}])/g, ' ');

/** How many statements a statement holds, itself included (blocks are not counted). */
function weightOf(node: ts.Node): number {
  const own =
    node.kind >= ts.SyntaxKind.FirstStatement && node.kind <= ts.SyntaxKind.LastStatement ? 1 : 0;
  let nested = 0;
  ts.forEachChild(node, (child) => {
    nested += weightOf(child);
  });
  return own + nested;
}

/** The steps of a block: its top-level statements, normalised. */
function stepsOf(block: ts.Block, source: ts.SourceFile, within: string): SetUpStep[] {
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  return block.statements.map((statement) => ({
    key: keyOf(statement, source),
    weight: weightOf(statement),
    line: lineOf(statement.getStart(source)),
    endLine: lineOf(statement.getEnd()),
    within,
  }));
}

/** The block body of a function node, if it is a function with one. */
function blockOf(node: ts.Node | undefined): ts.Block | undefined {
  if (!node) return undefined;
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return undefined;
  return ts.isBlock(node.body) ? node.body : undefined;
}

/** Whether a body calls something whose name says it sets up (see {@link SETS_UP}). */
function setsUp(body: ts.Node): boolean {
  let found = false;
  const visit = (node: ts.Node) => {
    if (found) return;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
      if (ts.isIdentifier(name) && SETS_UP.test(name.text)) found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

/** The top-level helpers of a file that set up: declarations and consts bound to functions. */
function helperBlocks(source: ts.SourceFile): { name: string; block: ts.Block }[] {
  const helpers: { name: string; block: ts.Block }[] = [];
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.body) {
      helpers.push({ name: statement.name?.text ?? 'default', block: statement.body });
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        const block = blockOf(d.initializer);
        if (block) helpers.push({ name: d.name.getText(source), block });
      }
    }
  }
  return helpers.filter((h) => setsUp(h.block));
}

/** The hook a statement calls (`beforeAll(…)`), if it is a call of one. */
function hookCall(statement: ts.Statement): ts.CallExpression | undefined {
  if (!ts.isExpressionStatement(statement)) return undefined;
  const call = statement.expression;
  if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) return undefined;
  return SETUP_HOOKS.includes(call.expression.text) ? call : undefined;
}

/**
 * The steps of one hook: a step naming the hook (no statement of its own, so that a
 * `beforeAll` never matches an `afterAll`), then its body's statements; a hook whose callback
 * has no block (`afterAll(() => emulator?.stop())`) is one step.
 */
function hookSteps(call: ts.CallExpression, source: ts.SourceFile): SetUpStep[] {
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const block = blockOf(call.arguments[0]);
  const line = lineOf(call.getStart(source));
  const within = call.expression.getText(source);
  if (!block) {
    const key = keyOf(call, source);
    return [{ key, weight: 1, line, endLine: lineOf(call.getEnd()), within }];
  }
  const marker = { key: `‹${within}›`, weight: 0, line, endLine: line, within };
  return [marker, ...stepsOf(block, source, within)];
}

/**
 * The hooks of a file, each run of consecutive hook statements in one scope as one body
 * (a `beforeAll` and the `afterAll` that undoes it are one set-up).
 */
function hookBodies(file: string, source: ts.SourceFile): SetUpBody[] {
  const bodies: SetUpBody[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isSourceFile(node) || ts.isBlock(node)) {
      let current: SetUpBody | undefined;
      for (const statement of node.statements) {
        const call = hookCall(statement);
        if (!call) {
          current = undefined;
          continue;
        }
        if (!current) bodies.push((current = { file, steps: [] }));
        current.steps.push(...hookSteps(call, source));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return bodies;
}

/**
 * The set-up bodies of a test file: its `beforeAll`/`beforeEach`/`afterAll`/`afterEach`
 * hooks (at any depth; consecutive hooks in one scope as one body), and every top-level
 * helper that sets up (see {@link SETS_UP}).
 * @param file the path the bodies are reported under (a `.tsx` ending turns on JSX)
 * @param text the file's text
 * @returns the bodies in source order, hooks first
 */
export function setUpBodies(file: string, text: string): SetUpBody[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const helpers = helperBlocks(source).map(({ name, block }) => ({
    file,
    steps: stepsOf(block, source, `helper ${name}`),
  }));
  return [...hookBodies(file, source), ...helpers];
}
