/**
 * `npm run emulator:admin -- <command>`: manage users of the emulator's database
 * (the persisted `.namecard/emulator/` PGlite, `--data-dir`, or DATABASE_URL). Sign-up stays
 * disabled in the API, so this is how users and owners are added.
 *
 *   add-user <email> [--owner] [--password-stdin]
 *   set-password <email> [--password-stdin]   (ends the user's sessions)
 *   add-owner <email>
 *   list-users
 *
 * Exit codes: 0 success, 1 failure, 2 usage. Passwords are never printed.
 */
import { parseArgs } from 'node:util';
import {
  addOwnerCommand,
  addUserCommand,
  listUsersCommand,
  openAdminDb,
  setPasswordCommand,
} from './admin-commands.js';
import { assertPasswordLength } from './auth/users.js';
import { PERSISTED_DATA_DIR, UsageError } from './cli-options.js';

const USAGE = `Usage: npm run emulator:admin -- <command> [options]

Commands:
  add-user <email> [--owner] [--password-stdin]   create a user (password prompted, or read from stdin)
  set-password <email> [--password-stdin]         set a user's password; a new one signs the user
                                                  out everywhere (every refresh token is revoked)
  add-owner <email>                               let an existing user insert namecard entries
  list-users                                      list users (id, email, owner, last sign-in)

Options:
  --data-dir <dir>   PGlite data directory, created when missing (default ${PERSISTED_DATA_DIR})
  -h, --help         show this help

With DATABASE_URL set, the commands work on that PostgreSQL database instead.
Passwords are at most 72 bytes (bcrypt's limit), as in Supabase.
Stop a running emulator first when it uses the same PGlite data directory.`;

async function main(argv: string[]): Promise<number> {
  // Whatever this process creates (data files, folders) is for its owner only.
  process.umask(0o077);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        owner: { type: 'boolean', default: false },
        'password-stdin': { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [command, email, ...extra] = positionals;
  if (extra.length > 0) return usage(`unexpected argument \`${extra[0]}\``);
  const setsPassword = command === 'add-user' || command === 'set-password';
  const needsEmail = setsPassword || command === 'add-owner';
  if (!command) return usage('a command is required');
  if (!['add-user', 'set-password', 'add-owner', 'list-users'].includes(command)) {
    return usage(`unknown command \`${command}\``);
  }
  if (needsEmail && !email) return usage(`\`${command}\` needs an <email>`);
  if (!needsEmail && email) return usage(`\`${command}\` takes no arguments`);
  if (command !== 'add-user' && values.owner) return usage('--owner belongs to `add-user`');
  if (!setsPassword && values['password-stdin']) {
    return usage('--password-stdin belongs to `add-user` and `set-password`');
  }

  try {
    // Read the password before opening the database: a cancelled prompt opens nothing.
    const password = setsPassword ? await readPassword(values['password-stdin']) : undefined;
    const db = await openAdminDb({
      databaseUrl: process.env.DATABASE_URL || undefined,
      dataDir: values['data-dir'] ?? PERSISTED_DATA_DIR,
    });
    try {
      if (command === 'add-user') {
        console.log(await addUserCommand(db, email as string, password as string, values.owner));
      } else if (command === 'set-password') {
        console.log(await setPasswordCommand(db, email as string, password as string));
      } else if (command === 'add-owner') {
        console.log(await addOwnerCommand(db, email as string));
      } else {
        console.log(await listUsersCommand(db));
      }
    } finally {
      await db.close();
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    if (e instanceof Error && e.name === 'ExitPromptError') {
      console.error('Operation cancelled');
      return 1;
    }
    console.error(`emulator:admin: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

function usage(message: string): number {
  console.error(`emulator:admin: ${message}\n\n${USAGE}`);
  return 2;
}

/**
 * The password to set: all of stdin with `--password-stdin` (one trailing
 * newline removed), else a hidden prompt when stdin is a terminal.
 * @throws UsageError when neither is possible, the password is empty, or it is over
 * 72 bytes (GoTrue's message; bcrypt would ignore the rest).
 */
async function readPassword(fromStdin: boolean): Promise<string> {
  let password: string;
  if (fromStdin) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    password = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  } else if (process.stdin.isTTY) {
    const { password: prompt } = await import('@inquirer/prompts');
    password = await prompt({ message: 'Password for the user', mask: true });
  } else {
    throw new UsageError('no terminal to prompt for the password: pass --password-stdin');
  }
  if (password === '') throw new UsageError('the password must not be empty');
  try {
    assertPasswordLength(password);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return password;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`emulator:admin: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
