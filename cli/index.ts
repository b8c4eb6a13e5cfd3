#!/usr/bin/env node
// The `namecard` entry point. The line is read once, by the grammar table (cli/grammar/), before
// commander and the commands load (they cost more than Node's own start-up, measured by
// `npm run bench`): `--version` and `namecard status` are answered here, and so are `end`,
// `cancel <id>`, `profile list` and a complete one-off `set` as a card token or with a valid
// stored access token (light/caller-light.ts). Every other line goes to the program in main.ts,
// with the reading when there is one; a line the grammar leaves (`--help`, a usage error) is
// commander's to read.
import { readLine } from './grammar/read-line.js';
import { callerLine, statusLine } from './light/light-lines.js';
import { readVersion } from './version.js';

// Node 22+ keeps the compiled code of the modules loaded from here on in its compile cache
// (the system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so later runs
// skip parsing and compiling them. Node 20 has no such function, so there `node:module` (which
// loads Node's source-map support with it) is not loaded at all.
if (Number(process.versions.node.split('.')[0]) >= 22) {
  ((await import('node:module')) as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}

// `namecard --help | head`: a reader that stops early is not an error, so no stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${readVersion()}\n`);
} else {
  const line = readLine(args);
  const status = statusLine(line);
  // `namecard status`: one file, built on its own (scripts/build-cli.ts), that reads the
  // project's `.env` itself before anything else. A status whose caller needs a sign-in or a
  // refresh first (CI credentials, an access token due) is left to the program.
  if (!status || !(await (await import('./light/status-main.js')).statusMain(status.options))) {
    // Settings from the project's `.env` when run in a namecard checkout's root, before
    // anything reads the environment (project-env.ts says which names and why). Loaded here,
    // not at the top, so that `--version` loads nothing but this file.
    (await import('./session/project-env.js')).loadProjectEnv();
    const light = callerLine(line);
    // `end`, `cancel`, `profile list` and `set` as a card token or with a valid stored access
    // token; else the program.
    if (!light || !(await (await import('./light/caller-light.js')).callerLightMain(light))) {
      // The one door from the light path to the program: taken only by the other commands
      // (scripts/check-light-path.ts checks that nothing else on the path reaches the program).
      await (await import('./main.js')).runProgram(args, line);
    }
  }
}
