import { ApiError } from '../core/errors.js';
import {
  isCreatedToken,
  isTokenIdentity,
  isTokenSummary,
  type CreatedToken,
  type TokenIdentity,
  type TokenRole,
  type TokenSummary,
} from '../core/tokens.js';
import { toError, type DataClient } from './errors.js';

// Card tokens (issue 41): the owners' calls (create, list, revoke: supabase/schemas/tokens.sql)
// and what a token is. A token's own uses go through the same data calls as a member's, sent to
// the token's functions by the CLI's token client (cli/session/card-token.ts).

/**
 * A new token for the card (`public.namecard_token_create`, owners). The secret is in this
 * answer only: the server keeps its sha256.
 *
 * @param name the token's name, unique among the card's live tokens (TOKEN_NAME_FORM)
 * @param options.role editor (default) or viewer
 * @param options.card the card's slug; none: the first card
 * @param options.validSeconds how long it works, 60 s to 10 years; null: never; default 90 days
 * @returns `{ token, name, role, card, expires }` (`token create --json`'s shape)
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`, 23505 `token name taken`, 22023 a
 *   name, role or time out of range; NetworkError when unreachable
 * @example await createToken(client, 'github-actions', { role: 'editor', validSeconds: null })
 */
export async function createToken(
  client: DataClient,
  name: string,
  options: { role?: TokenRole; card?: string; validSeconds?: number | null } = {},
): Promise<CreatedToken> {
  const result = await client.rpc('namecard_token_create', {
    name,
    role: options.role ?? 'editor',
    card: options.card ?? null,
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
 * @param card the card's slug; none: the first card
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`; NetworkError when unreachable
 */
export async function listTokens(client: DataClient, card?: string): Promise<TokenSummary[]> {
  const result = await client.rpc('namecard_tokens', { card: card ?? null });
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
 * @param card the card's slug; none: the first card
 * @returns `{ name, role, card, revoked_at }`
 * @throws ApiError 42501 `needs owner`, PT404 `no such token` or `no such card`
 */
export async function revokeToken(
  client: DataClient,
  name: string,
  card?: string,
): Promise<{ name: string; role: TokenRole; card: string; revoked_at: string }> {
  const result = await client.rpc('namecard_token_revoke', { name, card: card ?? null });
  if (result.error) throw toError(client, result);
  const data = result.data as { name?: unknown; card?: unknown } | null;
  if (typeof data?.name !== 'string' || typeof data.card !== 'string') {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no revoked token');
  }
  return result.data as never;
}

/**
 * What a token is (`public.namecard_token_whoami`, anyone holding it): its card, name, role
 * and expiry. Also the check that it works: a use like any other.
 *
 * @param token the secret, sent in the POST body (never in a URL)
 * @throws ApiError PT401 with `details` `invalid token`, `token revoked`, `token expired`,
 *   `card removed` or `creator not an owner`; NetworkError when unreachable
 */
export async function tokenIdentity(client: DataClient, token: string): Promise<TokenIdentity> {
  const result = await client.rpc('namecard_token_whoami', { token });
  if (result.error) throw toError(client, result);
  if (!isTokenIdentity(result.data)) {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no token');
  }
  return result.data;
}
