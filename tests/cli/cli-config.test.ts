import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { run, summerDate } from '../cli/helpers.js';
import { emulatorEnv, login, rows, useCliFixture } from '../cli/emulator.js';
import { OWNER } from '../support/accounts.js';

// Broken settings: a corrupted or hand-edited config file, a missing or malformed SUPABASE_URL,
// a wrong anon key. Each gives a message naming the file or the setting, exit 1, no stack trace,
// and a broken file never locks the user out.

let file: string;
const cli = useCliFixture();
beforeEach(() => {
  file = path.join(cli.dir, 'config.json');
});

const namecard = (args: string[], env: Record<string, string> = {}) =>
  run(cli.dir, args, { env: emulatorEnv(cli.emulator, env) });
const { date } = summerDate();
const STACK = /\n\s+at /;
const FIX = 'run `namecard logout` to delete it (or delete the file), then `namecard login`';
const session = (fields: Record<string, unknown>) =>
  JSON.stringify({
    session: {
      refresh_token: 'abcdefghijkl',
      api_url: 'http://127.0.0.1:1',
      email: 'a@b.c',
      ...fields,
    },
  });

const BROKEN: Record<string, { text: string; problem: string }> = {
  'cut-off JSON': { text: '{"session": {"refresh_tok', problem: 'is not valid JSON' },
  'an empty file': { text: '', problem: 'is not valid JSON' },
  'a JSON array': { text: '[]', problem: 'is not a JSON object' },
  'JSON null': { text: 'null', problem: 'is not a JSON object' },
  'a session that is a string': {
    text: '{"session":"x"}',
    problem: 'has a `session` that is not an object',
  },
  'a refresh token that is a number': {
    text: session({ refresh_token: 123456789012 }),
    problem: 'has a `session.refresh_token` that is not a non-empty string',
  },
  'a refresh token that is an object': {
    text: session({ refresh_token: { token: 'x' } }),
    problem: 'has a `session.refresh_token` that is not a non-empty string',
  },
  'a session without an API URL': {
    text: session({ api_url: undefined }),
    problem: 'has a `session.api_url` that is not a non-empty string',
  },
  'settings that are a list': {
    text: '{"settings":["x"]}',
    problem: 'has `settings` that are not an object',
  },
  'a saved SUPABASE_URL that is a number': {
    text: '{"settings":{"SUPABASE_URL":54321}}',
    problem: 'has a `settings.SUPABASE_URL` that is not a string',
  },
};

describe('a corrupted or hand-edited config file', () => {
  it.each(Object.entries(BROKEN))(
    '%s: every command names the file and the fix, exit 1; `logout` deletes it; `login` works again',
    async (_name, { text, problem }) => {
      await writeFile(file, text);
      for (const args of [['status'], ['list'], ['whoami'], ['set', 'photo', date, '18:00']]) {
        const result = await namecard(args);
        expect(result.exitCode, args[0]).toBe(1);
        expect(result.stdout, args[0]).toBe('');
        expect(result.stderr, args[0]).toBe(`error: The stored config ${file} ${problem}: ${FIX}`);
      }
      const logout = await namecard(['logout']);
      expect(logout.exitCode).toBe(0);
      expect(logout.stdout).toBe(
        `Deleted the broken stored config ${file}. Run \`namecard login\` to sign in again.`,
      );
      expect(existsSync(file)).toBe(false);
      await login(cli.emulator, cli.dir);
      expect((await namecard(['set', 'photo', date, '18:00'])).exitCode).toBe(0);
      expect(await rows(cli.emulator)).toHaveLength(1);
    },
  );

  it('`login` over a broken file replaces it and says so', async () => {
    await writeFile(file, '{oops');
    const result = await login(cli.emulator, cli.dir);
    expect(result.stderr).toBe(`warning: replaced the broken stored config ${file}`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      session: { email: OWNER.email, api_url: cli.emulator.url },
    });
  });

  it('a hand-edited SUPABASE_URL that is not a URL names the setting and the file', async () => {
    await writeFile(file, JSON.stringify({ settings: { SUPABASE_URL: 'localhost:54321' } }));
    const result = await run(cli.dir, ['status']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `error: \`SUPABASE_URL\` must be an http(s) URL such as http://127.0.0.1:54321, got \`localhost:54321\` (saved by \`namecard login\` in ${file})`,
    );
  });
});

describe('SUPABASE_URL', () => {
  it.each([
    ['not a URL', 'nope', 'nope'],
    ['another scheme', 'ftp://example.com', 'ftp://example.com'],
    [
      'a URL with credentials, which are not echoed',
      'https://me:s3cret@x.supabase.co',
      'https://***@x.supabase.co',
    ],
  ])('%s: named, exit 1', async (_name, value, shown) => {
    for (const args of [
      ['status'],
      ['set', 'photo', date, '18:00'],
      ['login', '--email', OWNER.email, '--password-stdin'],
    ]) {
      const result = await namecard(args, { SUPABASE_URL: value });
      expect(result.exitCode, args[0]).toBe(1);
      expect(result.stderr, args[0]).toBe(
        `error: \`SUPABASE_URL\` must be an http(s) URL such as http://127.0.0.1:54321, got \`${shown}\``,
      );
      expect(result.stderr).not.toContain('s3cret');
    }
  });

  it('missing: the default is the local emulator, and a failure to reach it names SUPABASE_URL', async () => {
    // Nothing may listen on the default port for this check. The default cannot be moved to a
    // free port, so when another program holds it (an emulator from `npm start`), the test
    // fails and says so instead of passing without having checked anything.
    const probe: Server = createServer();
    const busy = await new Promise<string | undefined>((resolve) => {
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      probe.listen(54321, '127.0.0.1', () => probe.close(() => resolve(undefined)));
    });
    if (busy) {
      throw new Error(
        `port 54321 on 127.0.0.1, the default API URL's, is not free (${busy}): this check needs nothing listening there. Stop the program that holds it (an \`npm run emulator\` or \`npm start\`?) and run it again.`,
      );
    }
    const result = await run(cli.dir, ['status']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      [
        'error: Cannot reach http://127.0.0.1:54321',
        "http://127.0.0.1:54321 is the local emulator, used when `SUPABASE_URL` is not set: start it with `npm start` or `npm run emulator` in the project folder, or set `SUPABASE_URL` (or `--api-url`) to your project's API URL",
      ].join('\n'),
    );
  });
});

describe('SUPABASE_ANON_KEY', () => {
  // Well-formed, but not this project's: the signature is wrong.
  const wrongKey = () => `${cli.emulator.anonKey.slice(0, -8)}AAAAAAAA`;
  const KEY_HINT =
    'Check `SUPABASE_ANON_KEY`: it must be the anon (public) key of the project that `SUPABASE_URL` points to';

  it('a wrong key gives the server\'s "Invalid API key" and names the setting, for every command that calls the API', async () => {
    for (const [args, input] of [
      [['status'], ''],
      [['list'], ''],
      [['login', '--email', OWNER.email, '--password-stdin'], `${OWNER.password}\n`],
    ] as const) {
      const result = await run(cli.dir, [...args], {
        env: emulatorEnv(cli.emulator, { SUPABASE_ANON_KEY: wrongKey() }),
        input,
      });
      expect(result.exitCode, args[0]).toBe(1);
      expect(result.stdout, args[0]).toBe('');
      expect(result.stderr, args[0]).toBe(`error: Invalid API key\n${KEY_HINT}`);
    }
    expect(existsSync(file)).toBe(false);
  });

  it('`set` with a wrong key fails without throwing away the stored session', async () => {
    await login(cli.emulator, cli.dir);
    const result = await namecard(['set', 'photo', date, '18:00'], {
      SUPABASE_ANON_KEY: wrongKey(),
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`error: Invalid API key\n${KEY_HINT}`);
    expect(await rows(cli.emulator)).toEqual([]);
    const again = await namecard(['set', 'photo', date, '18:00']);
    expect(again.stderr).toBe('');
    expect(again.exitCode).toBe(0);
  });

  it('a key of the wrong form is refused before any request, without echoing it', async () => {
    const result = await namecard(['status'], { SUPABASE_ANON_KEY: 'not-a-key' });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('`SUPABASE_ANON_KEY` must be');
    expect(result.stderr).not.toContain('not-a-key');
    expect(result.stderr).not.toMatch(STACK);
  });
});
