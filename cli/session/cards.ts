import { cardRefusalOf, type CardSummary } from '../../shared/core/cards.js';
import { InputError } from '../../shared/core/errors.js';
import { didYouMean, nearestName } from '../../shared/core/suggest.js';
import type { Connection } from './connect.js';
import type { CardStatus } from '../../shared/core/lookup.js';
import type { CliConfig } from './settings.js';

// The CLI's side of several cards: the refusal of a slug that is none of the user's cards, with
// the card meant and the cards there are, and the current card kept in the conf store (`namecard
// card use`). Loaded by the commands that run with a session (never on the light path).

/**
 * `error` as the user should see it: a server's "no such card" (PT404) for `slug` becomes bad
 * input (exit 2) naming `field`, the card meant and the user's cards (one more request); any
 * other error is returned as it is.
 *
 * @param field where the slug came from: `--card`, `NAMECARD_CARD`, `<slug>`…
 */
export async function refineCardError(
  error: unknown,
  owner: Connection,
  slug: string | undefined,
  field: string,
): Promise<unknown> {
  if (slug === undefined || cardRefusalOf(error) !== 'no_such_card') return error;
  const { listCards } = await import('../../shared/supabase/cards.js');
  let slugs: string[];
  try {
    slugs = (await owner.transport.guard(() => listCards(owner.client))).map((c) => c.slug);
  } catch {
    return error;
  }
  return unknownCard(slug, slugs, field);
}

/** The refusal of `slug`, none of `slugs` (the user's cards), naming `field` (exit 2). */
export function unknownCard(slug: string, slugs: readonly string[], field: string): InputError {
  const yours = slugs.length === 0 ? 'you have no card' : `your cards: ${slugs.join(', ')}`;
  const where = field === 'card use' ? 'the current card (`namecard card use`)' : `\`${field}\``;
  return new InputError(
    field,
    'one of your cards',
    slug,
    `${where} must be one of your cards, got \`${slug}\`${didYouMean(nearestName(slug, slugs))} (${yours}; see \`namecard card list\`)`,
  );
}

/** The field a run's card was named by, for messages: `--card`, `NAMECARD_CARD`, `card use`. */
export function cardField(config: CliConfig): string {
  return config.cardSource ?? '--card';
}

/**
 * Runs `act` with `owner`, turning a "no such card" for the run's card into the refusal that
 * names it ({@link refineCardError}).
 */
export async function onCard<T>(
  owner: Connection,
  config: CliConfig,
  act: () => Promise<T>,
): Promise<T> {
  try {
    return await act();
  } catch (error) {
    throw await refineCardError(error, owner, config.card, cardField(config));
  }
}

/**
 * Keeps `card` as the current card in the conf store; the first card (or none) is kept as no
 * card at all, so that runs on it stay on the light path.
 */
export async function saveCurrentCard(card: Pick<CardSummary, 'slug' | 'first'> | undefined) {
  const { openStore } = await import('./session.js');
  const { store } = openStore();
  if (card === undefined || card.first) store.delete('card');
  else store.set('card', card.slug);
}

/** `Name (slug)`, or the slug alone when the name is the slug. */
export const cardTitle = (card: Pick<CardSummary, 'slug' | 'name'>) =>
  card.name === card.slug ? card.slug : `${card.name} (${card.slug})`;

/**
 * The run's card's status: the first card's with one GET of its view (anyone may read it), a
 * card named by its slug with the session (`namecard_card_status`, its members only).
 */
export async function readCardStatus(config: CliConfig, owner: Connection): Promise<CardStatus> {
  const { card } = config;
  if (card === undefined) {
    const { readStatus } = await import('../terminal/outlook.js');
    return owner.transport.guard(() => readStatus(config, owner.transport.fetch));
  }
  const { fetchCardStatus } = await import('../../shared/supabase/cards.js');
  return owner.transport.guard(() => fetchCardStatus(owner.client, card));
}
