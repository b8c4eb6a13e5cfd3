import { readFileSync } from 'node:fs';
import path from 'node:path';
import { filesUnder } from './walk.js';

// Code, tests and schema files say the rule itself, never the ticket that asked for it: a
// ticket number means nothing to a reader without the tracker, and it stays behind when the
// rule changes. A link to an upstream bug (a URL) is not a citation: it is how a workaround
// says why it exists. Applied migrations (history, never edited), docs, Markdown and measured
// results are not read.

/** The folders read, relative to the checkout: code, tests, benchmark and schema files. */
export const CITATION_DIRS: readonly string[] = [
  'cli',
  'shared',
  'site/src',
  'site/build',
  'emulator',
  'scripts',
  'bench',
  'tests',
  'supabase/schemas',
];

/** Paths under the folders read that are left out: measured results and screenshots. */
export const CITATION_LEFT_OUT: readonly string[] = ['bench/results/', 'tests/e2e/screenshots/'];

/** The files read in those folders, by ending: sources, SQL, pages and scripts (no Markdown). */
const READ_ENDINGS = /\.(?:[cm]?[jt]sx?|sql|html|css|sh)$/;

/**
 * The config files read at the checkout's top and in site/: `*.config.{ts,js,mjs,cjs}` and
 * `tsconfig*.json`; and supabase/config.toml.
 */
const CONFIG_NAME = /^(?:[\w-]+\.config\.[cm]?[jt]s|tsconfig(?:\.[\w-]+)?\.json)$/;
const CONFIG_DIRS: readonly string[] = ['.', 'site'];
const CONFIG_FILES: readonly string[] = ['supabase/config.toml'];

/**
 * The ways a line cites a ticket, each with a pattern (case-insensitive): `issue N`,
 * `issue #N`, `issues N and M`, `issue no. N`, `ticket N`, `PR #N`, `GH-N`, and a bare `#N`
 * where it can only be a ticket: in parentheses, after a referring word (`see`, `fixes`,
 * `since`, …) or opening a comment. Other `#N` (a colour, an entity, an entry's id) and
 * other numbered words (`round 5`, `measurement 7`) are not citations.
 */
const CITATIONS: readonly RegExp[] = [
  /\bissues?[ \t]*(?:#|no\.[ \t]*|number[ \t]*)?\d+\b/i,
  /\btickets?[ \t]*#?\d+\b/i,
  /\b(?:PR|pull request|GH)[ \t]*[#-][ \t]*\d+\b/i,
  /(?:\(|\b(?:see|cf\.?|fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|per|after|since|from|in|and|or)[ \t]+)#\d+\b/i,
  /^[ \t]*(?:\/\/|\/?\*+|--|#)[ \t]*#\d+\b/,
];

/** A line that ends with the word `issue` (the number on the next line). */
const ISSUE_AT_END = /\bissues?[ \t]*#?[ \t]*$/i;
/** A line that opens, past its comment marker, with a number. */
const NUMBER_FIRST = /^[ \t]*(?:\/\/|\/?\*+|--)?[ \t]*(#?\d+)\b/;

/** One line that cites a ticket. */
export interface Citation {
  /** Relative to the checkout, with `/` separators. */
  file: string;
  /** 1-based. */
  line: number;
  /** The citation as written, as the pattern matched it. */
  cited: string;
}

/**
 * The lines of a text that cite a ticket (see {@link CITATIONS}), one finding a line, also
 * when the word `issue` ends a line and its number opens the next one.
 * @param file the path the findings are reported under
 * @param text the file's text
 * @returns the lines that cite, in order
 */
export function citationsIn(file: string, text: string): Citation[] {
  const lines = text.split(/\r?\n/);
  const found: Citation[] = [];
  lines.forEach((content, index) => {
    for (const pattern of CITATIONS) {
      const match = pattern.exec(content);
      if (match) return found.push({ file, line: index + 1, cited: match[0].trim() });
    }
    const next = lines[index + 1];
    const end = ISSUE_AT_END.exec(content);
    const start = next === undefined ? null : NUMBER_FIRST.exec(next);
    if (end && start) {
      found.push({ file, line: index + 1, cited: `${end[0].trim()} ${start[1]}` });
    }
  });
  return found;
}

/** Whether the citation check reads a file (a path relative to the checkout). */
export function isCitationChecked(file: string): boolean {
  if (CITATION_LEFT_OUT.some((prefix) => file.startsWith(prefix))) return false;
  if (CITATION_DIRS.some((dir) => file.startsWith(`${dir}/`))) return READ_ENDINGS.test(file);
  if (CONFIG_FILES.includes(file)) return true;
  const dir = path.posix.dirname(file);
  return CONFIG_DIRS.includes(dir) && CONFIG_NAME.test(path.posix.basename(file));
}

/**
 * Every line citing a ticket in the files the check reads under `root`.
 * @param root the checkout's folder
 * @returns the citations, by file and line
 */
export function checkCitations(root: string): Citation[] {
  return filesUnder(root, '.', isCitationChecked).flatMap((file) =>
    citationsIn(file, readFileSync(path.join(root, file), 'utf8')),
  );
}

/** The line printed for a citation: where it is and what to write instead. */
export const citationMessage = (c: Citation): string =>
  `${c.file}:${c.line}: cites a ticket ("${c.cited}"): write the rule itself instead of its ticket's number`;
