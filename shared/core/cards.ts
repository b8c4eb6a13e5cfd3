import { ApiError, InputError } from './errors.js';

// Cards and their people, as the database answers them (supabase/schemas/cards.sql and
// members.sql): the forms a slug and a role have, the shapes of the answers, and which of the
// server's refusals an error is. Dependency-free, so that /go and the CLI's light path may use it.

/** A card's slug: its public name in its link (`/go/?c=<slug>`), checked in SQL too. */
export const CARD_SLUG_FORM = /^[a-z0-9][a-z0-9-]{1,31}$/;

/**
 * The first card's slug: the cards migration names the one card a deployment had `main`
 * (supabase/schemas/cards.sql), and a slug never changes, so a slug names the first card
 * exactly when it is this one. Its link stays the bare `/go/`.
 */
export const FIRST_CARD_SLUG = 'main';

/** The first card's id: `public.namecard_first_card()` answers this constant (the cards migration). */
export const FIRST_CARD_ID = 1;

/** The roles, from the most to the least: each may do what the ones after it may. */
export const CARD_ROLES = ['owner', 'editor', 'viewer'] as const;

/** A member's role on a card. */
export type CardRole = (typeof CARD_ROLES)[number];

/** True when `value` has a slug's form: 2 to 32 of a-z, 0-9 and `-`, not starting with `-`. */
export function isCardSlug(value: unknown): value is string {
  return typeof value === 'string' && CARD_SLUG_FORM.test(value);
}

/**
 * Checks a slug given by a person or a script.
 *
 * @param value the slug as given (surrounding blanks are dropped)
 * @param field the option or argument it came from, named in the error (default `card`)
 * @returns the slug
 * @throws InputError naming the field and the form
 * @example parseCardSlug('studio') // → 'studio'
 */
export function parseCardSlug(value: string, field = 'card'): string {
  const slug = value.trim();
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

/** One of the signed-in user's cards, as `public.namecard_cards()` answers it. */
export interface CardSummary {
  /** The card's id: what its rows' `card_id` holds. */
  id: number;
  slug: string;
  name: string;
  /** The signed-in user's role on it. */
  role: CardRole;
  /** True for the first card, whose link is a bare `/go/`. */
  first: boolean;
}

/** Keeps what a card must have; a malformed row from a hostile answer is refused. */
export function isCardSummary(value: unknown): value is CardSummary {
  if (typeof value !== 'object' || value === null) return false;
  const { id, slug, name, role, first } = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(id) &&
    isCardSlug(slug) &&
    typeof name === 'string' &&
    isCardRole(role) &&
    typeof first === 'boolean'
  );
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
  const { id, slug, name, role, first } = value;
  const removed = (value as { removed_at?: unknown }).removed_at;
  return { id, slug, name, role, first, removed: typeof removed === 'string' };
}

/**
 * The server's refusals about cards and people, by the `details` they carry (the code alone
 * cannot tell them apart: PT404 is also an unknown entry's). `needs_role`: a member whose role
 * is too low (42501, `needs editor`, see {@link neededRole}); `no_such_card`: a slug that is not
 * among the caller's cards, whether it exists or not (PT404); `no_such_invitation`: a code that is
 * unknown, used, expired or for a removed card, alike (PT404); `no_such_member` (PT404);
 * `last_owner`: the card's last owner cannot leave, be removed or demoted (PT409);
 * `first_card`: the first card cannot be removed (PT409); `slug_taken`: a slug is never given
 * twice (23505); `invalid_card`: not a slug's form (22023).
 */
export const CARD_REFUSALS = {
  no_such_card: 'no such card',
  no_such_invitation: 'no such invitation',
  no_such_member: 'no such member',
  last_owner: 'last owner',
  first_card: 'first card',
  slug_taken: 'slug taken',
  invalid_card: 'invalid card',
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
