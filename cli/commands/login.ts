import { Command } from 'commander';
import { NOT_OWNER_MESSAGE, UsageError } from '../errors.js';
import { out, print, warn } from '../output.js';
import { askPassword, askText, isInteractive } from '../prompts.js';
import { explicitSettings, resolveConfig } from '../settings.js';
import { readStoredStateOrNothing } from '../store-file.js';

interface LoginOptions {
  email?: string;
  passwordStdin?: boolean;
  apiUrl?: string;
}

/** Reads the whole of stdin: the password, without its final line break. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function checkEmail(value: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) {
    throw new UsageError(`\`email\` must be an email address, got \`${value}\``);
  }
}

export const loginCommand = new Command('login')
  .description('sign in and keep the session here')
  .option('--email <email>', 'the email to sign in with (asked at a terminal when missing)')
  .option('--password-stdin', 'read the password from stdin (for scripts)')
  .action(async (_options: LoginOptions, command: Command) => {
    const options = command.optsWithGlobals<LoginOptions>();
    // A broken stored config is replaced by this login, so it must not stop it.
    const { state, broken } = readStoredStateOrNothing();
    const config = resolveConfig(options, process.env, state);
    const interactive = isInteractive();

    // 1. Email: the flag, else a prompt at a terminal.
    let email = options.email?.trim();
    if (email) checkEmail(email);
    else if (interactive && !options.passwordStdin) email = await askText('Email', checkEmail);
    else
      throw new UsageError(
        'missing option `--email <email>`',
        'Usage: namecard login --email <email> --password-stdin',
      );

    // 2. Password: from stdin when asked to, else a masked prompt; never from a flag.
    let password: string;
    if (options.passwordStdin) password = await readStdin();
    else if (interactive) password = await askPassword();
    else throw new UsageError('missing password: pass `--password-stdin` and write it to stdin');
    if (!password) throw new UsageError('the password read from stdin is empty');

    // 3. Sign in, then store the session with the settings it belongs to.
    const [{ signIn, openStore, saveLogin }, { canSetCard }] = await Promise.all([
      import('../session.js'),
      import('../../shared/supabase/data.js'),
    ]);
    const { session, client, transport } = await signIn(config, email, password);
    const { store } = openStore(process.env, { replaceBroken: true });
    saveLogin(store, config, session, email, explicitSettings(options));
    if (broken) warn(`replaced the broken stored config ${broken.file}`);
    print(`Signed in as ${out.bold(session.user.email ?? email)} at ${config.supabaseUrl}`);
    if (!(await transport.guard(() => canSetCard(client)))) {
      warn(
        `${NOT_OWNER_MESSAGE}: it is not one of the card's owners, so \`namecard set\` will be refused`,
      );
    }
  });
