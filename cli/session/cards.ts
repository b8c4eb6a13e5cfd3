import { cardRefusalOf, type CardRole, type CardSummary } from '../../shared/core/cards.js';
import { refusalOnCard } from '../errors.js';
import { requireCaller, type RunCaller } from './caller.js';
import type { Connection } from './connect.js';
import {
  isNamed,
  needsCards,
  runCardOf,
  showingCard,
  unknownCard,
  type RunCard,
} from './run-card.js';
import type { CliConfig } from './settings.js';

// The program's side of the run's card: the caller's cards read through the run's client when
// the choice needs them (cli/session/run-card.ts says when), the card chosen, and every call on
// it made so that a refusal names the card and what is needed. The current card is kept in the
// conf store (`namecard card use`). Loaded by the commands that run with a caller.

/** The caller's cards, through the caller's client (`namecard_cards()`). */
async function readCards(caller: RunCaller): Promise<CardSummary[]> {
  const { listCards } = await import('../../shared/supabase/cards.js');
  return caller.run(({ client, transport }) => transport.guard(() => listCards(client)));
}

/**
 * The run's card for `caller` (none: signed out), reading the caller's cards only when the
 * choice needs them.
 *
 * @throws CardConflictError (exit 2) for a token run naming another card; as the read
 */
export async function chooseRunCard(
  config: CliConfig,
  caller: RunCaller | undefined,
): Promise<RunCard> {
  const cards = needsCards(config, caller !== undefined) ? await readCards(caller!) : undefined;
  return runCardOf(config, cards);
}

/** A call's card, for the words of its refusals. */
export interface CallOn {
  /** The card's slug; none for a call about no card (adding one, accepting an invitation). */
  slug?: string;
  /** Where the slug was named (`--card`, NAMECARD_CARD, `card use`, `<slug>`); none: chosen. */
  field?: string;
  caller: RunCaller;
  /** What the call needs, for a refusal that does not say it (row-level security, a grant). */
  need?: CardRole | 'person';
  /** True when the caller is a member of no card (the run's card was then main). */
  noCards?: boolean;
}

/**
 * `error` as the user should see it, for a call on a card: a "no such card" for a card that was
 * named becomes bad input (exit 2) naming the field, the card meant and the user's cards (one
 * more request); a refusal names the card and the role needed (cli/errors.ts's refusalOnCard);
 * any other error is returned as it is.
 */
export async function refineCardError(
  error: unknown,
  connection: Connection,
  on: CallOn,
): Promise<unknown> {
  if (cardRefusalOf(error) === 'no_such_card' && on.slug !== undefined && on.field !== undefined) {
    const { listCards } = await import('../../shared/supabase/cards.js');
    try {
      const cards = await connection.transport.guard(() => listCards(connection.client));
      return unknownCard(
        on.slug!,
        cards.map((c) => c.slug),
        on.field,
      );
    } catch {
      return error;
    }
  }
  return refusalOnCard(error, {
    card: on.slug,
    caller: on.caller.kind,
    need: on.need,
    noCards: on.noCards,
  });
}

/** The run's caller on its card, and the settings its outputs use. */
export interface OnCard {
  /** Makes every call as the caller; a refusal names the card ({@link refineCardError}). */
  caller: RunCaller;
  card: RunCard;
  /** The run's settings, with the card the outputs name (`cardShown`). */
  config: CliConfig;
}

/**
 * `caller` whose every call refines its refusals for one card ({@link refineCardError}).
 *
 * @param on the card (its slug, the field that named it) and the role the calls need
 */
export function callerOn(caller: RunCaller, on: Omit<CallOn, 'caller'>): RunCaller {
  return {
    kind: caller.kind,
    run: (act) =>
      caller.run(async (connection) => {
        try {
          return await act(connection);
        } catch (error) {
          throw await refineCardError(error, connection, { ...on, caller });
        }
      }),
  };
}

/**
 * The run's caller (a card token, CI credentials, the stored session), its card (chosen once,
 * shared/core/cards.ts's rule) and the settings naming that card in outputs: what every
 * command that needs a caller starts with.
 *
 * @param options.caller the caller, when the command has one already (a sign-in just made)
 * @param options.need the role the command's calls need, for refusals that do not say it
 * @throws SessionError when signed out; CardConflictError (exit 2) for a token run naming
 *   another card; ApiError; NetworkError
 */
export async function onRunCard(
  config: CliConfig,
  options: { caller?: RunCaller; need?: CardRole } = {},
): Promise<OnCard> {
  const caller = options.caller ?? (await requireCaller(config));
  const card = await chooseRunCard(config, caller);
  const on = {
    slug: card.slug,
    field: isNamed(card) ? card.source : undefined,
    need: options.need,
    noCards: card.cards?.length === 0,
  };
  return {
    caller: callerOn(caller, on),
    card,
    config: showingCard(config, card),
  };
}

/**
 * Runs `act` as the run's caller on the run's card ({@link onRunCard}), every refusal naming the
 * card, and `need` where the server's refusal does not say the role (a card token is refused by
 * the server where the calls need an owner).
 */
export async function actOnRunCard<T>(
  config: CliConfig,
  need: CardRole,
  act: (on: OnCard, connection: Connection) => Promise<T>,
): Promise<T> {
  const on = await onRunCard(config, { need });
  return on.caller.run((connection) => act(on, connection));
}

/**
 * The run's card for a public read (`preview`, `link`, `qr`: anyone may read any card's), and
 * the caller when there is one (a card token, CI credentials, a stored session), which chooses
 * the card when none is named and may complete the output (a profile's label); signed out, the
 * card named, else main.
 *
 * @throws CardConflictError (exit 2) for a token run naming another card; SessionError for an
 *   expired session; ApiError; NetworkError
 */
export async function onRunCardOrSignedOut(
  config: CliConfig,
): Promise<{ caller?: RunCaller; card: RunCard; config: CliConfig }> {
  const { findCaller } = await import('./caller.js');
  const caller = await findCaller(config);
  if (caller) return onRunCard(config, { caller });
  const card = runCardOf(config);
  return { card, config: showingCard(config, card) };
}

/** Keeps `slug` as the current card in the conf store (`namecard card use`); none: forgets it. */
export async function saveCurrentCard(slug: string | undefined) {
  const { openStore } = await import('./session.js');
  const { store } = openStore();
  if (slug === undefined) store.delete('card');
  else store.set('card', slug);
}

/** `Name (slug)`, or the slug alone when the name is the slug. */
export const cardTitle = (card: Pick<CardSummary, 'slug' | 'name'>) =>
  card.name === card.slug ? card.slug : `${card.name} (${card.slug})`;
