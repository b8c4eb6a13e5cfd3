import { ApiError, InputError } from './errors.js';

// Cards and their people, as the database answers them (supabase/schemas/cards.sql and
// members.sql): the forms a slug and a role have, the shapes of the answers, and which of the
// server's refusals an error is. Dependency-free, so that /go and the CLI's light path may use it.

/** A card's slug: its public name in its link (`/go/?c=<slug>`), checked in SQL too. */
export const CARD_SLUG_FORM = /^[a-z0-9][a-z0-9-]{1,31}$/;

/**
 * The card a bare `/go/` link opens (so printed cards keep working): its link is the bare `/go/`,
 * and it cannot be removed (supabase/schemas/cards.sql). Otherwise a card like any other.
 */
export const MAIN_CARD = 'main';

/** The roles, from the most to the least: each may do what the ones after it may. */
export const CARD_ROLES = ['owner', 'editor', 'viewer'] as const;

/** A member's role on a card. */
export type CardRole = (typeof CARD_ROLES)[number];

/** True when `value` has a slug's form: 2 to 32 of a-z, 0-9 and `-`, not starting with `-`. */
export function isCardSlug(value: unknown): value is string {
  return typeof value === 'string' && CARD_SLUG_FORM.test(value);
}

/**
 * Checks a slug given by a person or a script. Slugs are matched without regard to case (they
 * are stored in lower case), as the server matches them.
 *
 * @param value the slug as given (surrounding blanks are dropped, letters lowered)
 * @param field the option or argument it came from, named in the error (default `card`)
 * @returns the slug
 * @throws InputError naming the field and the form
 * @example parseCardSlug('studio') // → 'studio'
 */
export function parseCardSlug(value: string, field = 'card'): string {
  const slug = value.trim().toLowerCase();
  if (!isCardSlug(slug)) {
    throw new InputError(
      field,
      '2 to 32 of a-z, 0-9 and -, not starting with - (e.g. studio)',
      value,
    );
  }
  return slug;
}

/** True when `value` is one of {@link CARD_ROLES}. */
export function isCardRole(value: unknown): value is CardRole {
  return typeof value === 'string' && (CARD_ROLES as readonly string[]).includes(value);
}

/**
 * Checks a role given by a person or a script.
 *
 * @throws InputError naming the field (default `role`) and the three roles
 */
export function parseCardRole(value: string, field = 'role'): CardRole {
  const role = value.trim().toLowerCase();
  if (!isCardRole(role)) throw new InputError(field, 'owner, editor or viewer', value);
  return role;
}

/**
 * True when `role` may do what `need` may (owner ⊇ editor ⊇ viewer); no role may nothing.
 *
 * @example roleAtLeast('owner', 'editor') // → true
 */
export function roleAtLeast(role: CardRole | null | undefined, need: CardRole): boolean {
  if (!role) return false;
  return CARD_ROLES.indexOf(role) <= CARD_ROLES.indexOf(need);
}

/**
 * One of the caller's cards, as `public.namecard_cards()` answers it: a person's memberships, or
 * a card token's one card with the token's role.
 */
export interface CardSummary {
  /** The card's id: what its rows' `card_id` holds. */
  id: number;
  slug: string;
  name: string;
  /** The caller's role on it. */
  role: CardRole;
}

/** Keeps what a card must have; a malformed row from a hostile answer is refused. */
export function isCardSummary(value: unknown): value is CardSummary {
  if (typeof value !== 'object' || value === null) return false;
  const { id, slug, name, role } = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(id) && isCardSlug(slug) && typeof name === 'string' && isCardRole(role)
  );
}

/**
 * The caller's cards as `public.namecard_cards()` answers them: the well-formed rows (a malformed
 * one from a hostile answer is left out).
 *
 * @param data the parsed JSON answer
 * @param status the answer's HTTP status, named in the error
 * @throws ApiError `invalid_response` when it is not a list
 */
export function cardsOf(data: unknown, status: number): CardSummary[] {
  if (!Array.isArray(data)) {
    throw new ApiError(status, 'invalid_response', 'The server answered no list of cards');
  }
  return (data as unknown[]).filter(isCardSummary);
}

/**
 * A card as the card functions answer it (`namecard_card_add`, `namecard_card_rename`,
 * `namecard_card_remove`, `namecard_member_accept`).
 *
 * @param value the parsed JSON answer
 * @param status the answer's HTTP status, named in the error
 * @throws ApiError `invalid_response` for another shape
 */
export function cardOf(value: unknown, status: number): CardSummary & { removed: boolean } {
  // A card just removed answers no role (the caller is a member of no live card by it): its
  // remover was one of its owners.
  const removedRow =
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>).removed_at === 'string';
  if (removedRow && (value as Record<string, unknown>).role === null) {
    value = { ...(value as Record<string, unknown>), role: 'owner' };
  }
  if (!isCardSummary(value)) {
    throw new ApiError(status, 'invalid_response', 'The server answered no card');
  }
  const { id, slug, name, role } = value;
  const removed = (value as { removed_at?: unknown }).removed_at;
  return { id, slug, name, role, removed: typeof removed === 'string' };
}

/**
 * The server's refusals about cards and people, by the `details` they carry (the code alone
 * cannot tell them apart: PT404 is also an unknown entry's). `needs_role`: a member whose role
 * is too low (42501, `needs editor`, see {@link neededRole}); `needs_person`: a card token
 * asked for what only a person may do (42501); `no_such_card`: a slug that is not among the
 * caller's cards, whether it exists or not (PT404); `no_such_invitation`: a code that is unknown,
 * used, revoked, expired, for a removed card or of a maker no longer its owner, alike (PT404);
 * `no_such_member`, `no_such_token` (PT404); `last_owner`: the card's last owner cannot leave,
 * be removed or demoted (PT409); `main_card`: the card main cannot be removed (PT409);
 * `slug_taken`: a slug is never given twice (23505); `invalid_card`: not a slug's form (22023);
 * `card_limit`, `profile_limit`, `series_limit` (23514) and `token_limit` (PT409): a limit of
 * docs/security.md's reached.
 */
export const CARD_REFUSALS = {
  needs_person: 'needs a person',
  no_such_card: 'no such card',
  no_such_invitation: 'no such invitation',
  no_such_member: 'no such member',
  no_such_token: 'no such token',
  last_owner: 'last owner',
  main_card: 'main card',
  slug_taken: 'slug taken',
  invalid_card: 'invalid card',
  card_limit: 'card limit',
  profile_limit: 'profile limit',
  series_limit: 'series limit',
  token_limit: 'token limit',
} as const;

/** The name of one of {@link CARD_REFUSALS}, or `needs_role`. */
export type CardRefusal = keyof typeof CARD_REFUSALS | 'needs_role';

/**
 * The role a refusal says is needed (`details: "needs editor"`), if it is one.
 *
 * @example neededRole(new ApiError(403, '42501', 'permission denied …', 'needs editor')) // → 'editor'
 */
export function neededRole(error: unknown): CardRole | undefined {
  if (!(error instanceof ApiError) || error.code !== '42501') return undefined;
  const role = /^needs (\w+)$/.exec(error.details ?? '')?.[1];
  return isCardRole(role) ? role : undefined;
}

/**
 * Which of the card refusals an error is, if any.
 *
 * @param error anything thrown
 */
export function cardRefusalOf(error: unknown): CardRefusal | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (neededRole(error)) return 'needs_role';
  const names = Object.keys(CARD_REFUSALS) as (keyof typeof CARD_REFUSALS)[];
  return names.find((name) => CARD_REFUSALS[name] === error.details);
}

/** Where the card a run or a page acts on came from, named in what it says. */
export type CardSource =
  | '--card'
  | '?c='
  | 'NAMECARD_CARD'
  | 'card use'
  | 'the token'
  | 'your only card'
  | typeof MAIN_CARD
  | 'your first card';

/** The card a run or a page acts on, and where that came from. */
export interface CardChoice {
  slug: string;
  source: CardSource;
}

/** How a run stops naming another card than the token's, by where it was named. */
function conflictRemedy(source: CardSource, tokenCard: string): string {
  if (source === 'NAMECARD_CARD') return `Set NAMECARD_CARD to ${tokenCard} or unset it`;
  if (source === 'card use')
    return `Make ${tokenCard} the current card (\`namecard card use ${tokenCard}\`)`;
  return `Name ${tokenCard} or no card`;
}

/** A token run that names another card than the token's own: usage error (exit 2), naming both. */
export class CardConflictError extends InputError {
  constructor(
    readonly named: CardChoice,
    readonly tokenCard: string,
  ) {
    super(
      named.source,
      `the token's card ${tokenCard}`,
      named.slug,
      `\`${named.source}\` names the card ${named.slug}, but NAMECARD_TOKEN is a token of the card ${tokenCard}: a token acts on its own card only. ${conflictRemedy(named.source, tokenCard)}, or unset NAMECARD_TOKEN to act as yourself`,
    );
    this.name = 'CardConflictError';
  }
}

/**
 * THE choice of the card a run (the CLI) or a page (/manage) acts on, one rule for both faces:
 * the card named (`--card`, or `?c=` on a page), then `NAMECARD_CARD`, then the current card
 * (`namecard card use`), then the caller's only card, then `main` where the caller is a member of
 * it, then the first of the caller's cards by slug; with no card at all (signed out, or a member
 * of none), `main`. A card token's caller has one card, the token's: a run that names another
 * (by any of the three) is refused, naming both; one that names the token's card keeps where it
 * was named, as any named card (outputs name it).
 *
 * @param given.named the slug named for this run or page, with its source
 * @param given.env `NAMECARD_CARD`, when set
 * @param given.current the card made current here (`card use`)
 * @param given.cards the caller's cards (`namecard_cards()`), when known: none for a caller
 *   signed out, or when a card was named and the list was not read
 * @param given.tokenCard the token's card, for a run with a card token
 * @returns the slug and where it came from
 * @throws CardConflictError when a token run names another card than the token's
 * @example chooseCard({ cards: [{ slug: 'studio', role: 'editor' }] }) // → { slug: 'studio', source: 'your only card' }
 */
export function chooseCard(given: {
  named?: CardChoice;
  env?: string;
  current?: string;
  cards?: readonly Pick<CardSummary, 'slug' | 'role'>[];
  tokenCard?: string;
}): CardChoice {
  const asked: CardChoice | undefined =
    given.named ??
    (given.env ? { slug: given.env, source: 'NAMECARD_CARD' } : undefined) ??
    (given.current ? { slug: given.current, source: 'card use' } : undefined);
  if (given.tokenCard !== undefined) {
    if (asked && asked.slug !== given.tokenCard)
      throw new CardConflictError(asked, given.tokenCard);
    return asked ?? { slug: given.tokenCard, source: 'the token' };
  }
  if (asked) return asked;
  const cards = [...(given.cards ?? [])].sort((a, b) => a.slug.localeCompare(b.slug));
  if (cards.length === 1) return { slug: cards[0]!.slug, source: 'your only card' };
  if (cards.length === 0 || cards.some((c) => c.slug === MAIN_CARD)) {
    return { slug: MAIN_CARD, source: MAIN_CARD };
  }
  return { slug: cards[0]!.slug, source: 'your first card' };
}

/**
 * Whether a run or a page must read the caller's cards to choose: only when nothing names one.
 * A token run reads its one card anyway (to learn it).
 */
export function choiceNeedsCards(given: {
  named?: CardChoice;
  env?: string;
  current?: string;
}): boolean {
  return given.named === undefined && !given.env && !given.current;
}
