import { cardOf, type CardRole, type CardSummary } from '../core/cards.js';
import {
  isCardMember,
  isInvitation,
  isOpenInvitation,
  type CardMember,
  type Invitation,
  type OpenInvitation,
} from '../core/members.js';
import { ApiError } from '../core/errors.js';
import { answerOf } from '../core/member-answers.js';
import { toError, type DataClient } from './errors.js';

// A card's people through supabase-js: each call one RPC of supabase/schemas/members.sql, as the
// signed-in person (the members and invitations are nobody's to read directly; a card token
// manages no people). `card` is a slug. The server's refusals come back as ApiError (CARD_REFUSALS and
// neededRole, shared/core/cards.ts). Apart from cards.ts, so that a page that reads the user's
// cards (/manage's first draw) does not carry these: Rollup keeps a module whole in one chunk.

/**
 * The card's members, owners first (`public.namecard_members`, owners only).
 *
 * @param card the card's slug
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`; NetworkError when unreachable
 */
export async function listMembers(client: DataClient, card: string): Promise<CardMember[]> {
  const result = await client.rpc('namecard_members', { card });
  if (result.error) throw toError(client, result);
  if (!Array.isArray(result.data)) {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no list of members');
  }
  return (result.data as unknown[]).filter(isCardMember);
}

/**
 * A one-time invitation code for a role on the card (`public.namecard_member_invite`, owners).
 * The code is in this answer only: the server keeps its sha256.
 *
 * @param role the role the code gives
 * @param options.card the card's slug
 * @param options.validSeconds how long it works, 60 s to 90 days (default 7 days)
 * @returns `{ code, role, card, expires }` (`member invite --json`'s shape)
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`, 22023 a role or time out of range
 */
export async function inviteMember(
  client: DataClient,
  role: CardRole,
  options: { card: string; validSeconds?: number },
): Promise<Invitation> {
  const result = await client.rpc('namecard_member_invite', {
    role,
    card: options.card,
    ...(options.validSeconds === undefined ? {} : { valid_seconds: options.validSeconds }),
  });
  if (result.error) throw toError(client, result);
  if (!isInvitation(result.data)) {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no invitation');
  }
  return result.data;
}

/**
 * The card's open invitation codes, newest first (`public.namecard_member_invites`, owners): id,
 * role, maker, made, expiry; never the code. A code stops working once its maker is no longer an
 * owner of the card, so such codes are not listed.
 *
 * @param card the card's slug
 * @throws ApiError 42501 `needs owner`, PT404 `no such card`; NetworkError when unreachable
 */
export async function listInvitations(client: DataClient, card: string): Promise<OpenInvitation[]> {
  const result = await client.rpc('namecard_member_invites', { card });
  if (result.error) throw toError(client, result);
  if (!Array.isArray(result.data)) {
    throw new ApiError(
      result.status,
      'invalid_response',
      'The server answered no list of invitations',
    );
  }
  return (result.data as unknown[]).filter(isOpenInvitation);
}

/**
 * Revokes an open invitation code of the card at once (`public.namecard_member_revoke_invite`,
 * owners): accepting it is refused from then on.
 *
 * @param id the code's id, as {@link listInvitations} answers it
 * @param card the card's slug
 * @returns `{ id, role, card, revoked_at }`
 * @throws ApiError 42501 `needs owner`, PT404 `no such invitation` (unknown, used, expired or
 *   revoked) or `no such card`
 */
export async function revokeInvitation(
  client: DataClient,
  id: number,
  card: string,
): Promise<{ id: number; role: CardRole; card: string; revoked_at: string }> {
  const result = await client.rpc('namecard_member_revoke_invite', {
    invitation_id: id,
    card,
  });
  if (result.error) throw toError(client, result);
  const data = result.data as { id?: unknown; card?: unknown } | null;
  if (typeof data?.id !== 'number' || typeof data.card !== 'string') {
    throw new ApiError(
      result.status,
      'invalid_response',
      'The server answered no revoked invitation',
    );
  }
  return result.data as never;
}

/**
 * Redeems an invitation code (`public.namecard_member_accept`): the signed-in user becomes a
 * member of its card with its role (keeping a higher one they had); the code is used up.
 *
 * @returns the card, with the user's role on it now
 * @throws ApiError PT404 `no such invitation` for a code that is unknown, used, revoked,
 *   expired, for a removed card or made by someone no longer its owner (alike); 429 when the
 *   emulator's limit of tries is reached
 */
export async function acceptInvitation(
  client: DataClient,
  code: string,
): Promise<CardSummary & { removed: boolean }> {
  const result = await client.rpc('namecard_member_accept', { code: code.trim() });
  if (result.error) throw toError(client, result);
  return cardOf(result.data, result.status);
}

/** What removing a member or changing a role answers. */
export interface MemberChange {
  card: string;
  email: string;
  role: CardRole;
}

async function memberCall(
  client: DataClient,
  fn: string,
  args: Record<string, unknown>,
): Promise<MemberChange> {
  const result = await client.rpc(fn, args);
  if (result.error) throw toError(client, result);
  const answer = answerOf(result.data, result.status);
  const { card, email, role } = answer;
  if (typeof card !== 'string' || typeof email !== 'string' || typeof role !== 'string') {
    throw new ApiError(result.status, 'invalid_response', 'The server answered no member');
  }
  return { card, email, role: role as CardRole };
}

/**
 * Removes a member by e-mail (`public.namecard_member_remove`): owners remove anyone, any
 * member themselves (leaving). Never the last owner.
 *
 * @returns the card, the e-mail and the role the member had
 * @throws ApiError 42501 `needs owner`, PT404 `no such card` / `no such member`, PT409 `last owner`
 */
export function removeMember(
  client: DataClient,
  email: string,
  card: string,
): Promise<MemberChange> {
  return memberCall(client, 'namecard_member_remove', { email, card });
}

/**
 * Gives a member another role (`public.namecard_member_role`, owners). The last owner cannot be
 * demoted.
 *
 * @throws ApiError 42501 `needs owner`, PT404 `no such card` / `no such member`, PT409
 *   `last owner`, 22023 an unknown role
 */
export function setMemberRole(
  client: DataClient,
  email: string,
  role: CardRole,
  card: string,
): Promise<MemberChange> {
  return memberCall(client, 'namecard_member_role', { email, role, card });
}
