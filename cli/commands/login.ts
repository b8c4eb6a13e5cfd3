import { roleAtLeast } from '../../shared/core/cards.js';
import { commandOf } from '../grammar/commander.js';
import { UsageError, fromPasswordSource, notEditorSentence } from '../errors.js';
import { out, print, warn } from '../terminal/output.js';
import { isInteractive } from '../terminal/prompts.js';
import {
  checkEmail,
  signInAndSave,
  signInInteractively,
  type SignedIn,
} from '../session/sign-in.js';
import { explicitSettings, resolveConfig } from '../session/settings.js';
import { readStoredStateOrNothing } from '../session/store-file.js';
import { terminalSafe } from '../terminal/terminal-safe.js';

/** Reads the whole of stdin: the password, without its final line break. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export const loginCommand = commandOf('login', async ({ options }) => {
  // A broken stored config is replaced by this login, so it must not stop it.
  const { state, broken } = readStoredStateOrNothing();
  const config = resolveConfig(options, process.env, state);
  const interactive = isInteractive();

  const settings = explicitSettings(options);
  const email = options.email?.trim();
  if (email) checkEmail(email);
  let signedIn: SignedIn;
  if (interactive && !options.passwordStdin) {
    // At a terminal: the email unless given, then the password, asked again when wrong.
    signedIn = await signInInteractively(config, { email, settings });
  } else {
    if (!email) {
      throw new UsageError(
        'missing option `--email <email>`',
        'Usage: namecard login --email <email> --password-stdin',
      );
    }
    // The password from stdin when asked to; never from a flag.
    if (!options.passwordStdin) {
      throw new UsageError('missing password: pass `--password-stdin` and write it to stdin');
    }
    const password = await readStdin();
    if (!password) throw new UsageError('the password read from stdin is empty');
    signedIn = await signInAndSave(config, email, password, settings).catch((error: unknown) => {
      throw fromPasswordSource(error, 'stdin', email);
    });
  }
  if (broken) warn(`replaced the broken stored config ${broken.file}`);
  print(`Signed in as ${out.bold(terminalSafe(signedIn.email))} at ${config.supabaseUrl}`);
  // The card the next runs act on (by the one rule, as this person: NAMECARD_TOKEN plays no part
  // in a login), and whether this account may change it.
  const [{ listCards }, { runCardOf }, { connectAs }] = await Promise.all([
    import('../../shared/supabase/cards.js'),
    import('../session/run-card.js'),
    import('../session/connect.js'),
  ]);
  const { client, transport } = connectAs(config, signedIn.session);
  const cards = await transport.guard(() => listCards(client));
  const card = runCardOf({ cardNamed: config.cardNamed }, cards);
  if (!roleAtLeast(cards.find((c) => c.slug === card.slug)?.role, 'editor')) {
    warn(`${notEditorSentence(card.slug)}, so \`namecard set\` will be refused`);
  }
});
