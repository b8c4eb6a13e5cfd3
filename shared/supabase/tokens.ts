import { ApiError } from '../core/errors.js';
import {
  isCaller,
  isCreatedToken,
  isTokenSummary,
  type Caller,
  type CreatedToken,
  type TokenRole,
  type TokenSummary,
} from '../core/tokens.js';
import { toError, type DataClient } from './errors.js';

// Card tokens: the owners' calls (create, list, revoke: supabase/schemas/tokens.sql) and who the
// caller is. A token's own uses are the member's data calls, through a client that sends the
// token in its header (client.ts): the server treats it as a member of its card.

/**
 * A new token for the card (`public.namecard_token_create`, owners). The secret is in this
 * answer only: the server keeps its sha256.
 *
 * @param name the token's name, unique among the card's live tokens (TOKEN_NAME_FORM)
 * @param options.card the card's slug
 * @param options.role editor (default) or viewer
 * @param options.validSeconds how long it works, 60 s to 10 years; null: never; default 90 days
 * @returns `{ token, name, role, card, expires }` (`token create --json`'s shape)
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`, 23505 `token name taken`, 22023 a
 *   name, role or time out of range; NetworkError when unreachable
 * @example await createToken(client, 'github-actions', { role: 'editor', validSeconds: null })
 */
export async function createToken(
  client: DataClient,
  name: string,
  options: { card: string; role?: TokenRole; validSeconds?: number | null },
): Promise<CreatedToken> {
  const result = await client.rpc('namecard_token_create', {
    name,
    role: options.role ?? 'editor',
    card: options.card,
    ...(options.validSeconds === undefined ? {} : { valid_seconds: options.validSeconds }),
  });
  if (result.error) throw toError(client, result);
  if (!isCreatedToken(result.data)) {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no token');
  }
  return result.data;
}

/**
 * The card's tokens not revoked, newest first (`public.namecard_tokens`, owners): name, role,
 * created, creator, expiry and last use; never a secret or a hash.
 *
 * @param card the card's slug
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`; NetworkError when unreachable
 */
export async function listTokens(client: DataClient, card: string): Promise<TokenSummary[]> {
  const result = await client.rpc('namecard_tokens', { card });
  if (result.error) throw toError(client, result);
  if (!Array.isArray(result.data)) {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no list of tokens');
  }
  return (result.data as unknown[]).filter(isTokenSummary);
}

/**
 * Revokes the card's token of this name at once (`public.namecard_token_revoke`, owners): its
 * next use is refused as `token revoked`.
 *
 * @param card the card's slug
 * @returns `{ name, role, card, revoked_at }`
 * @throws ApiError 42501 `needs owner`, PT404 `no such token` or `no such card`
 */
export async function revokeToken(
  client: DataClient,
  name: string,
  card: string,
): Promise<{ name: string; role: TokenRole; card: string; revoked_at: string }> {
  const result = await client.rpc('namecard_token_revoke', { name, card });
  if (result.error) throw toError(client, result);
  const data = result.data as { name?: unknown; card?: unknown } | null;
  if (typeof data?.name !== 'string' || typeof data.card !== 'string') {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no revoked token');
  }
  return result.data as never;
}

/**
 * Who calls (`public.namecard_caller()`), as the server sees the request: a signed-in person, a
 * card token (its card, name, role and expiry), or anon. For a card token, also the check that it
 * works: the server's pre-request check refuses a bad one first.
 *
 * @param client a supabase-js client (with a session, a card token, or neither)
 * @throws ApiError PT401 with `details` `invalid token`, `token revoked`, `token expired`,
 *   `card removed` or `creator not an owner`; NetworkError when unreachable
 */
export async function fetchCaller(client: DataClient): Promise<Caller> {
  // A read: by GET, as listCards reads the caller's cards.
  const result = await client.rpc('namecard_caller', {}, { get: true });
  if (result.error) throw toError(client, result);
  if (!isCaller(result.data)) {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no caller');
  }
  return result.data;
}
