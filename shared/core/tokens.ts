// Card tokens: the forms both faces check before sending anything, and the shapes the
// server answers (supabase/schemas/tokens.sql). No dependencies: the CLI's light path may load it.

/** A token's secret as the server makes it: `nct_` and 32 base64url characters (192 bits). */
export const TOKEN_FORM = /^nct_[A-Za-z0-9_-]{32}$/;

/** A token's name: 1 to 40 of A-Z, a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit. */
export const TOKEN_NAME_FORM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

/** The roles a token may have: a token never owns a card. */
export type TokenRole = 'editor' | 'viewer';

/** How long a token may work, in seconds: a minute to ten years; default 90 days. */
export const TOKEN_SECONDS = {
  min: 60,
  max: 10 * 365 * 24 * 3600,
  default: 90 * 24 * 3600,
} as const;

/** What creating a token answers: the secret, here and nowhere else. */
export interface CreatedToken {
  token: string;
  name: string;
  role: TokenRole;
  /** The card's slug. */
  card: string;
  /** ISO 8601 instant, or null: never. */
  expires: string | null;
}

/** A token as its card's owners see it listed: never its secret or hash. */
export interface TokenSummary {
  name: string;
  role: TokenRole;
  /** ISO 8601 instants; `expires_at` null: never, `last_used_at` null: not used yet. */
  created_at: string;
  /** The e-mail of the owner who made it (null once that account is deleted). */
  creator: string | null;
  expires_at: string | null;
  last_used_at: string | null;
  /** `live`, `expired`, or `creator not an owner` (the token no longer works). */
  state: 'live' | 'expired' | 'creator not an owner';
}

/**
 * The request header a card token travels in, with the anon (or publishable) key as `apikey`:
 * never in a URL. PostgREST's pre-request check reads it (supabase/schemas/tokens.sql).
 */
export const TOKEN_HEADER = 'x-namecard-token';

/** A card token as the caller, as `namecard_caller()` answers it. */
export interface TokenIdentity {
  kind: 'token';
  /** The card's slug and name. */
  card: string;
  card_name: string;
  name: string;
  role: TokenRole;
  /** When it stops working (ISO timestamp); null: never. */
  expires: string | null;
}

/** Who calls, as `namecard_caller()` answers it: a person, a card token, or anon. */
export type Caller = { kind: 'person'; email: string } | TokenIdentity | { kind: 'anon' };

/**
 * True for a token's role.
 *
 * @param value anything
 * @example isTokenRole('viewer') // true; isTokenRole('owner') // false
 */
export function isTokenRole(value: unknown): value is TokenRole {
  return value === 'editor' || value === 'viewer';
}

/**
 * True for a value shaped as a created token (the answer of `namecard_token_create`).
 *
 * @param value the parsed answer
 */
export function isCreatedToken(value: unknown): value is CreatedToken {
  const v = value as Partial<CreatedToken> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.token === 'string' &&
    TOKEN_FORM.test(v.token) &&
    typeof v.name === 'string' &&
    isTokenRole(v.role) &&
    typeof v.card === 'string' &&
    (v.expires === null || typeof v.expires === 'string')
  );
}

/**
 * True for a row of a card's token list (`namecard_tokens`).
 *
 * @param value one parsed row
 */
export function isTokenSummary(value: unknown): value is TokenSummary {
  const v = value as Partial<TokenSummary> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    isTokenRole(v.role) &&
    typeof v.created_at === 'string' &&
    typeof v.state === 'string'
  );
}

/**
 * True for an answer of `namecard_caller()`: a person with an e-mail, a card token with its card,
 * name and role, or anon.
 *
 * @param value the parsed answer
 */
export function isCaller(value: unknown): value is Caller {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.kind === 'anon') return true;
  if (v.kind === 'person') return typeof v.email === 'string';
  return (
    v.kind === 'token' &&
    typeof v.card === 'string' &&
    typeof v.name === 'string' &&
    isTokenRole(v.role) &&
    (v.expires === null || typeof v.expires === 'string')
  );
}
