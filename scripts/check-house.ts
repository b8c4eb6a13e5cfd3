import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCitations, citationMessage } from './house/citations.js';
import { checkCopiedSetUp, copyMessage } from './house/copied-setup.js';

// The house's own rules that no linter knows, run by `npm run lint`: code, tests and schema
// files say the rule itself, never a ticket number (scripts/house/citations.ts); a world a
// test needs is built by a shared fixture, not copied between test files
// (scripts/house/copied-setup.ts). Every finding fails the check: there is no list of
// findings let through.

/**
 * Runs both checks over a checkout.
 * @param root the checkout's folder
 * @returns one line per finding (file:line, what is wrong, what to do), citations first
 */
export function checkHouse(root: string): string[] {
  return [...checkCitations(root).map(citationMessage), ...checkCopiedSetUp(root).map(copyMessage)];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2]
    ? path.resolve(process.argv[2])
    : fileURLToPath(new URL('..', import.meta.url));
  const findings = checkHouse(root);
  if (findings.length > 0) {
    console.log(findings.join('\n'));
    console.error(`check-house: ${findings.length} finding(s)`);
    process.exitCode = 1;
  } else {
    console.log('check-house: no ticket numbers cited, no set-up copied between test files');
  }
}
