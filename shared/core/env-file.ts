import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError } from './errors.js';

// A `.env` file for Node only (the CLI, `npm start`, the site build), never for the pages.
// Parsing is Node's own (`util.parseEnv`, the parser behind `node --env-file` and
// `process.loadEnvFile`); `process.loadEnvFile` itself is not used because it would set every
// name in the file, and the CLI takes only the names it knows.

/**
 * Reads a `.env` file into `env` without overriding it: a name already present in `env`
 * (even as an empty string) keeps its value, as with `node --env-file`.
 *
 * @param file path of the `.env` file; a missing file sets nothing
 * @param env the environment to fill in (default `process.env`)
 * @param names when given, only these names are taken from the file
 * @returns the names that were set from the file
 * @throws ConfigError naming the file when it exists but cannot be read
 */
export function loadEnvFile(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  names?: readonly string[],
): string[] {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError('.env', `Cannot read ${file}: ${(error as Error).message}`);
  }
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(content))) {
    if (value === undefined || env[name] !== undefined) continue;
    if (names && !names.includes(name)) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
