import { commandOf } from '../grammar/commander.js';
import { MissingPasswordError, notEditorSentence, signedOut } from '../errors.js';
import { out, print, warn } from '../terminal/output.js';
import {
  ciCredentials,
  emailWithoutPassword,
  readStoredState,
  resolveConfig,
  type CliConfig,
  type StoredState,
} from '../session/settings.js';
import { terminalSafe } from '../terminal/terminal-safe.js';

/**
 * Asks the server whether the signed-in account may change the card, and says so when it may
 * not. Offline or refused, it only warns: who is signed in was already answered from the
 * stored session.
 */
async function tellIfNotOwner(config: CliConfig): Promise<void> {
  try {
    const [{ findOwner }, { canSetCard }] = await Promise.all([
      import('../session/session.js'),
      import('../../shared/supabase/data.js'),
    ]);
    const account = await findOwner(config);
    if (
      account &&
      !(await account.transport.guard(() => canSetCard(account.client, config.card)))
    ) {
      const sentence = notEditorSentence(config.card).replace(/^./, (c) => c.toUpperCase());
      print(`${out.yellow('!')} ${sentence}.`);
    }
  } catch (error) {
    warn(
      `could not ask the server whether this account may change the card: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Says which token a run with NAMECARD_TOKEN acts as (asking the server, which also checks
 * that it works), and that a stored session is not used meanwhile.
 */
async function tokenWhoami(config: CliConfig & { token: string }, stored: StoredState) {
  const [{ connect }, { tokenIdentity }] = await Promise.all([
    import('../session/connect.js'),
    import('../../shared/supabase/tokens.js'),
  ]);
  const { client, transport } = connect(config);
  const who = await transport.guard(() => tokenIdentity(client, config.token));
  print(
    `the ${who.role} token ${out.bold(terminalSafe(who.name))} of the card ${terminalSafe(who.card)} at ${config.supabaseUrl} (from NAMECARD_TOKEN, for each run)`,
  );
  const session = stored.session;
  if (session && session.api_url === config.supabaseUrl) {
    print(
      `The stored session of ${terminalSafe(session.email)} is not used while NAMECARD_TOKEN is set.`,
    );
  }
}

export const whoamiCommand = commandOf('whoami', async ({ options }) => {
  const stored = readStoredState();
  const config = resolveConfig(options, process.env, stored);
  if (config.token !== undefined) {
    await tokenWhoami({ ...config, token: config.token }, stored);
    return;
  }
  const ci = ciCredentials();
  if (ci) {
    print(
      `${out.bold(terminalSafe(ci.email))} at ${config.supabaseUrl} (from NAMECARD_EMAIL, for each run)`,
    );
  } else {
    const session = stored.session;
    if (!session || session.api_url !== config.supabaseUrl) {
      if (emailWithoutPassword()) throw new MissingPasswordError();
      throw signedOut(config.supabaseUrl, session?.api_url);
    }
    print(`${out.bold(terminalSafe(session.email))} at ${terminalSafe(session.api_url)}`);
  }
  if (config.card !== undefined) {
    print(`card ${out.bold(terminalSafe(config.card))} (from ${config.cardSource ?? '--card'})`);
  }
  await tellIfNotOwner(config);
});
