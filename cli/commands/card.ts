import { parseCardSlug } from '../../shared/core/cards.js';
import { cardTitle } from '../session/cards.js';
import type { RunCaller } from '../session/caller.js';
import type { CallOn } from '../session/cards.js';
import { InputError } from '../../shared/core/errors.js';
import { UsageError } from '../errors.js';
import { commandOf } from '../grammar/commander.js';
import { resolveConfig, type CliConfig, type SettingFlags } from '../session/settings.js';
import { isInteractive } from '../terminal/prompts.js';
import { out, print, printJson } from '../terminal/output.js';

// `namecard card list|add|use|rename|remove`: the caller's cards, each one RPC as the run's caller
// (shared/supabase/cards.ts): a person signed in, or a card token, whose one card is the token's
// (adding a card or accepting an invitation needs a person, as the server says). The current
// card (`card use`) is kept in the conf store.

/** A card's name: 1 to 60 characters, no control characters (as the server checks it). */
function parseCardName(value: string, field: string): string {
  const name = value.trim();
  // eslint-disable-next-line no-control-regex
  if (name.length < 1 || name.length > 60 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new InputError(field, '1 to 60 characters with no control characters', value);
  }
  return name;
}

/**
 * Runs `act` as the run's caller, its refusals about the card `slug` (when a command names one)
 * naming it, a "no such card" refused naming `field`, the card meant and the caller's cards.
 */
async function asCaller<T>(
  config: CliConfig,
  on: Omit<CallOn, 'caller'> | undefined,
  act: (caller: RunCaller) => Promise<T>,
): Promise<T> {
  const [{ requireCaller }, { callerOn }] = await Promise.all([
    import('../session/caller.js'),
    import('../session/cards.js'),
  ]);
  const caller = await requireCaller(config);
  return act(on === undefined ? caller : callerOn(caller, on));
}

/** The caller's cards, by slug. */
async function readCards(caller: RunCaller) {
  const { listCards } = await import('../../shared/supabase/cards.js');
  return caller.run(({ client, transport }) => transport.guard(() => listCards(client)));
}

async function listAction(options: SettingFlags & { json?: true }): Promise<void> {
  const config = resolveConfig(options);
  const cards = await asCaller(config, undefined, readCards);
  // The card a run acts on here, by the one rule (cli/session/run-card.ts).
  const { runCardOf } = await import('../session/run-card.js');
  const current = cards.length === 0 ? undefined : runCardOf(config, cards).slug;
  if (options.json) {
    printJson({
      current: current ?? null,
      cards: cards.map(({ slug, name, role }) => ({ slug, name, role })),
    });
    return;
  }
  if (cards.length === 0) {
    print(
      'You have no card yet: add one with `namecard card add <slug>`, or accept an invitation with `namecard member accept <code>`.',
    );
    return;
  }
  const width = Math.max(...cards.map((card) => card.slug.length));
  for (const card of cards) {
    const mark = card.slug === current ? out.bold('*') : ' ';
    print(`${mark} ${card.slug.padEnd(width)}  ${card.role.padEnd(6)}  ${card.name}`);
  }
}

async function addAction(slugArg: string, options: SettingFlags & { name?: string }) {
  const slug = parseCardSlug(slugArg, '<slug>');
  const name = options.name === undefined ? undefined : parseCardName(options.name, '--name');
  const config = resolveConfig(options);
  const { addCard } = await import('../../shared/supabase/cards.js');
  const card = await asCaller(config, { need: 'person' }, (caller) =>
    caller.run(({ client, transport }) =>
      transport.guard(() => addCard(client, slug, name), { act: 'card change' }),
    ),
  );
  print(
    `Added the card ${cardTitle(card)}: you are its owner.`,
    `Act on it with \`--card ${card.slug}\`, or make it current: namecard card use ${card.slug}`,
  );
}

async function useAction(slugArg: string, options: SettingFlags) {
  const slug = parseCardSlug(slugArg, '<slug>');
  const config = resolveConfig(options);
  const [{ saveCurrentCard }, { unknownCard }] = await Promise.all([
    import('../session/cards.js'),
    import('../session/run-card.js'),
  ]);
  const cards = await asCaller(config, undefined, readCards);
  const card = cards.find((c) => c.slug === slug);
  if (!card) {
    throw unknownCard(
      slug,
      cards.map((c) => c.slug),
      '<slug>',
    );
  }
  await saveCurrentCard(card.slug);
  print(`Current card: ${cardTitle(card)} (your role: ${card.role}).`);
}

async function renameAction(slugArg: string, nameArg: string, options: SettingFlags) {
  const slug = parseCardSlug(slugArg, '<slug>');
  const name = parseCardName(nameArg, '<name>');
  const config = resolveConfig(options);
  const { renameCard } = await import('../../shared/supabase/cards.js');
  const card = await asCaller(config, { slug, field: '<slug>' }, (caller) =>
    caller.run(({ client, transport }) =>
      transport.guard(() => renameCard(client, slug, name), { act: 'card change' }),
    ),
  );
  print(`Renamed: ${cardTitle(card)}.`);
}

async function removeAction(slugArg: string, options: SettingFlags & { yes?: true }) {
  const slug = parseCardSlug(slugArg, '<slug>');
  const config = resolveConfig(options);
  if (!options.yes) {
    if (!isInteractive()) {
      throw new UsageError(
        `removing the card ${slug} cannot be undone: add --yes to remove it without a terminal to ask at`,
        `Usage: namecard card remove ${slug} --yes`,
      );
    }
    const { askConfirm } = await import('../terminal/prompts.js');
    const sure = await askConfirm(
      `Remove the card ${slug} for good? Its link will send visitors to the main site, and its slug is never given again.`,
      false,
    );
    if (!sure) {
      print('Nothing removed.');
      return;
    }
  }
  const [{ removeCard }, { saveCurrentCard }] = await Promise.all([
    import('../../shared/supabase/cards.js'),
    import('../session/cards.js'),
  ]);
  const card = await asCaller(config, { slug, field: '<slug>' }, (caller) =>
    caller.run(({ client, transport }) =>
      transport.guard(() => removeCard(client, slug), { act: 'card change' }),
    ),
  );
  const named = config.cardNamed;
  if (named?.source === 'card use' && named.slug === slug) await saveCurrentCard(undefined);
  print(`Removed the card ${cardTitle(card)}: its link now sends visitors to the main site.`);
}

export const cardCommand = commandOf('card', {
  list: ({ options }) => listAction(options),
  add: ({ args, options }) => addAction(args.slug, options),
  use: ({ args, options }) => useAction(args.slug, options),
  rename: ({ args, options }) => renameAction(args.slug, args.name, options),
  remove: ({ args, options }) => removeAction(args.slug, options),
});
