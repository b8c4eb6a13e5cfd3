import { MAIN_CARD, roleAtLeast, type CardSummary } from '../../shared/core/cards.js';
import { NetworkError, TimeoutError } from '../../shared/core/errors.js';
import type { Caller } from '../../shared/core/tokens.js';
import { commandOf } from '../grammar/commander.js';
import { notEditorSentence, signedOut } from '../errors.js';
import type { RunCaller } from '../session/caller.js';
import { isNamed, runCardOf, showingCard, type RunCard } from '../session/run-card.js';
import { out, print, warn } from '../terminal/output.js';
import {
  ciCredentials,
  readStoredState,
  resolveConfig,
  type CliConfig,
  type StoredState,
} from '../session/settings.js';
import { terminalSafe } from '../terminal/terminal-safe.js';

// `namecard whoami`: who the run's caller is, as the server sees the request
// (`namecard_caller()`), the card the run acts on, and whether the caller may change it.

/** How the run's card was chosen, in words: `from NAMECARD_CARD`, `your only card`. */
function chosenBy(card: RunCard): string {
  if (isNamed(card)) return `from ${card.source}`;
  if (card.source === MAIN_CARD) return `${MAIN_CARD}, as no card is named`;
  if (card.source === 'your first card') return 'your first card by slug';
  return card.source;
}

/** Who the caller is in one line, as the server answered it. */
function callerLine(who: Caller, config: CliConfig): string {
  const url = config.supabaseUrl;
  if (who.kind === 'token') {
    return `the ${who.role} token ${out.bold(terminalSafe(who.name))} of the card ${terminalSafe(who.card)} at ${url} (from NAMECARD_TOKEN, for each run)`;
  }
  const email = who.kind === 'person' ? who.email : 'nobody';
  const ci = ciCredentials() ? ' (from NAMECARD_EMAIL, for each run)' : '';
  return `${out.bold(terminalSafe(email))} at ${url}${ci}`;
}

/** The caller and its cards, asked of the server at once. */
async function askServer(caller: RunCaller): Promise<[Caller, CardSummary[]]> {
  const [{ fetchCaller }, { listCards }] = await Promise.all([
    import('../../shared/supabase/tokens.js'),
    import('../../shared/supabase/cards.js'),
  ]);
  return caller.run(({ client, transport }) =>
    transport.guard(() => Promise.all([fetchCaller(client), listCards(client)])),
  );
}

/** Who is signed in here, from the stored state alone: what the server could not be asked. */
function storedLine(config: CliConfig, stored: StoredState): string {
  const email = ciCredentials()?.email ?? stored.session?.email ?? '';
  return callerLine({ kind: 'person', email }, config);
}

/** The lines about the run's card: which it is, and a warning when the caller may not change it. */
function cardLines(who: Caller, card: RunCard, config: CliConfig): string[] {
  const lines: string[] = [];
  if (who.kind !== 'token' && showingCard(config, card).cardShown !== undefined) {
    lines.push(`card ${out.bold(terminalSafe(card.slug))} (${chosenBy(card)})`);
  }
  const role = card.cards?.find((c) => c.slug === card.slug)?.role;
  if (roleAtLeast(role, 'editor')) return lines;
  const sentence =
    who.kind === 'token'
      ? `This token may not change the card ${card.slug}: it is a viewer token (needs editor)`
      : notEditorSentence(card.slug).replace(/^./, (c) => c.toUpperCase());
  return [...lines, `${out.yellow('!')} ${sentence}.`];
}

export const whoamiCommand = commandOf('whoami', async ({ options }) => {
  const stored = readStoredState();
  const config = resolveConfig(options, process.env, stored);
  const { findCaller } = await import('../session/caller.js');
  const caller = await findCaller(config);
  if (!caller) throw signedOut(config.supabaseUrl, stored.session?.api_url);
  let who: Caller;
  let cards: CardSummary[];
  try {
    [who, cards] = await askServer(caller);
  } catch (error) {
    // Offline, a person still learns who is signed in here; a token's name is the server's.
    if (
      caller.kind === 'token' ||
      !(error instanceof NetworkError || error instanceof TimeoutError)
    )
      throw error;
    print(storedLine(config, stored));
    warn(`could not ask the server who you are and which cards you have: ${error.message}`);
    return;
  }
  print(callerLine(who, config));
  const session = stored.session;
  if (who.kind === 'token' && session?.api_url === config.supabaseUrl) {
    print(
      `The stored session of ${terminalSafe(session.email)} is not used while NAMECARD_TOKEN is set.`,
    );
  }
  print(...cardLines(who, runCardOf(config, cards), config));
});
