import { cardOf, cardsOf, type CardSummary } from '../core/cards.js';
import { ApiError } from '../core/errors.js';
import { toError, type DataClient } from './errors.js';

// Cards through supabase-js: each call one RPC of supabase/schemas/members.sql, as the caller (a
// person, or a card token); their people (members, invitations) are in members.ts. `card` is a
// slug. The server's refusals come back as ApiError: see CARD_REFUSALS and neededRole
// (shared/core/cards.ts) for which is which.

/**
 * The caller's cards by slug (`public.namecard_cards()`): slug, name and their role; a card
 * token's caller has one, the token's card with its role. A removed card is not listed. Also
 * remembers each card's id for {@link cardIdOf}.
 *
 * @param client a supabase-js client with a session or a card token
 * @returns the cards; none for an account that is no member of any, or signed out
 * @throws ApiError; NetworkError when unreachable
 * @example (await listCards(client)).map((c) => c.slug) // → ['main', 'studio']
 */
export async function listCards(client: DataClient): Promise<CardSummary[]> {
  // A read: by GET, which PostgREST runs read-only and a client may send again after a gateway's
  // error (a POST it may not).
  const result = await client.rpc('namecard_cards', {}, { get: true });
  if (result.error) throw toError(client, result);
  const cards = cardsOf(result.data, result.status);
  const ids = knownIds(client);
  for (const card of cards) ids.set(card.slug, card.id);
  return cards;
}

/** Card ids by slug, per client: a slug's card never changes (slugs are never given twice). */
const idsByClient = new WeakMap<object, Map<string, number>>();

function knownIds(client: DataClient): Map<string, number> {
  let ids = idsByClient.get(client);
  if (!ids) idsByClient.set(client, (ids = new Map()));
  return ids;
}

/**
 * The id of one of the caller's cards, which a read of a table filters on (`card_id`), from
 * {@link listCards} (asked once per client).
 *
 * @param client a supabase-js client with a session or a card token
 * @param slug the card's slug
 * @throws ApiError `PT404` (details `no such card`) when it is not among the caller's cards, as
 *   the server answers a function called with that slug; NetworkError when unreachable
 */
export async function cardIdOf(client: DataClient, slug: string): Promise<number> {
  let id = knownIds(client).get(slug);
  if (id === undefined) {
    await listCards(client);
    id = knownIds(client).get(slug);
  }
  if (id === undefined) {
    throw new ApiError(
      404,
      'PT404',
      `None of your cards is called ${slug}`,
      'no such card',
      'Your cards: namecard card list.',
    );
  }
  return id;
}

/** One card from a card function's answer. */
async function cardCall(
  client: DataClient,
  fn: string,
  args: Record<string, unknown>,
): Promise<CardSummary & { removed: boolean }> {
  const result = await client.rpc(fn, args);
  if (result.error) throw toError(client, result);
  return cardOf(result.data, result.status);
}

/**
 * Makes a new card (`public.namecard_card_add`); the signed-in person becomes its owner, and it
 * starts with the profiles main and photo, which follow the build's settings. An account makes
 * at most 20 cards, removed ones included.
 *
 * @param slug its public name in its link, 2 to 32 of a-z, 0-9 and `-` (checked by the caller
 *   with parseCardSlug and by the server)
 * @param name what people see, 1 to 60 characters; default the slug
 * @throws ApiError 23505 (details `slug taken`: never given twice), 23514 `card limit`, 22023 a
 *   malformed slug or name, PT401 a signed-out session, 42501 `needs a person` for a card
 *   token; NetworkError when unreachable
 */
export function addCard(
  client: DataClient,
  slug: string,
  name?: string,
): Promise<CardSummary & { removed: boolean }> {
  return cardCall(client, 'namecard_card_add', { slug, name: name ?? null });
}

/**
 * Gives a card a new name (`public.namecard_card_rename`, owners).
 *
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`, 22023 a malformed name
 */
export function renameCard(
  client: DataClient,
  slug: string,
  name: string,
): Promise<CardSummary & { removed: boolean }> {
  return cardCall(client, 'namecard_card_rename', { card: slug, name });
}

/**
 * Removes a card (`public.namecard_card_remove`, owners): /go then answers as for an unknown
 * slug, and the slug is never given again. The card main cannot be removed.
 *
 * @returns the card as it is after (`removed: true`)
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`, PT409 `main card`
 */
export function removeCard(
  client: DataClient,
  slug: string,
): Promise<CardSummary & { removed: boolean }> {
  return cardCall(client, 'namecard_card_remove', { card: slug });
}
