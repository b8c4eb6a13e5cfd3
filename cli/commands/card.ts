import { parseCardSlug } from '../../shared/core/cards.js';
import { cardTitle } from '../session/cards.js';
import { InputError } from '../../shared/core/errors.js';
import { UsageError } from '../errors.js';
import { commandOf } from '../grammar/commander.js';
import type { Connection } from '../session/connect.js';
import { resolveConfig, type CliConfig, type SettingFlags } from '../session/settings.js';
import { isInteractive } from '../terminal/prompts.js';
import { out, print, printJson } from '../terminal/output.js';

// `namecard card list|add|use|rename|remove`: the user's cards, each one RPC as the signed-in
// user (shared/supabase/cards.ts). The current card (`card use`) is kept in the conf store.

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
 * Runs `act` signed in (stored session or CI credentials), with a "no such card" for `slug`
 * refused naming `field`, the card meant and the user's cards.
 */
async function withOwner<T>(
  config: CliConfig,
  slug: string | undefined,
  field: string,
  act: (owner: Connection) => Promise<T>,
): Promise<T> {
  const [{ requireWriter }, { refineCardError }] = await Promise.all([
    import('../session/writer.js'),
    import('../session/cards.js'),
  ]);
  const writer = await requireWriter(config);
  return writer.run(async (owner) => {
    try {
      return await act(owner);
    } catch (error) {
      throw await refineCardError(error, owner, slug, field);
    }
  });
}

async function listAction(options: SettingFlags & { json?: true }): Promise<void> {
  const config = resolveConfig(options);
  const { listCards } = await import('../../shared/supabase/cards.js');
  const cards = await withOwner(config, undefined, '--card', (owner) =>
    owner.transport.guard(() => listCards(owner.client)),
  );
  const current = cards.find((card) => card.slug === config.card) ?? cards.find((c) => c.first);
  if (options.json) {
    printJson({
      current: current?.slug ?? null,
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
    const mark = card === current ? out.bold('*') : ' ';
    print(`${mark} ${card.slug.padEnd(width)}  ${card.role.padEnd(6)}  ${card.name}`);
  }
}

async function addAction(slugArg: string, options: SettingFlags & { name?: string }) {
  const slug = parseCardSlug(slugArg, '<slug>');
  const name = options.name === undefined ? undefined : parseCardName(options.name, '--name');
  const config = resolveConfig(options);
  const { addCard } = await import('../../shared/supabase/cards.js');
  const card = await withOwner(config, undefined, '<slug>', (owner) =>
    owner.transport.guard(() => addCard(owner.client, slug, name), { act: 'card change' }),
  );
  print(
    `Added the card ${cardTitle(card)}: you are its owner.`,
    `Act on it with \`--card ${card.slug}\`, or make it current: namecard card use ${card.slug}`,
  );
}

async function useAction(slugArg: string, options: SettingFlags) {
  const slug = parseCardSlug(slugArg, '<slug>');
  const config = resolveConfig(options);
  const [{ listCards }, { saveCurrentCard, unknownCard }] = await Promise.all([
    import('../../shared/supabase/cards.js'),
    import('../session/cards.js'),
  ]);
  const cards = await withOwner(config, undefined, '<slug>', (owner) =>
    owner.transport.guard(() => listCards(owner.client)),
  );
  const card = cards.find((c) => c.slug === slug);
  if (!card)
    throw unknownCard(
      slug,
      cards.map((c) => c.slug),
      '<slug>',
    );
  await saveCurrentCard(card);
  print(`Current card: ${cardTitle(card)} (your role: ${card.role}).`);
}

async function renameAction(slugArg: string, nameArg: string, options: SettingFlags) {
  const slug = parseCardSlug(slugArg, '<slug>');
  const name = parseCardName(nameArg, '<name>');
  const config = resolveConfig(options);
  const { renameCard } = await import('../../shared/supabase/cards.js');
  const card = await withOwner(config, slug, '<slug>', (owner) =>
    owner.transport.guard(() => renameCard(owner.client, slug, name), { act: 'card change' }),
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
  const card = await withOwner(config, slug, '<slug>', (owner) =>
    owner.transport.guard(() => removeCard(owner.client, slug), { act: 'card change' }),
  );
  if (config.cardSource === 'card use' && config.card === slug) await saveCurrentCard(undefined);
  print(`Removed the card ${cardTitle(card)}: its link now sends visitors to the main site.`);
}

export const cardCommand = commandOf('card', {
  list: ({ options }) => listAction(options),
  add: ({ args, options }) => addAction(args.slug, options),
  use: ({ args, options }) => useAction(args.slug, options),
  rename: ({ args, options }) => renameAction(args.slug, args.name, options),
  remove: ({ args, options }) => removeAction(args.slug, options),
});
