import { isCardRole, isCardSlug, type CardRole } from './cards.js';

// A card's people as the database answers them (supabase/schemas/members.sql): what each role
// may do, the members and the invitation codes. Apart from cards.ts, which /manage's first draw
// needs, so that it does not carry these (a bundler keeps a module whole in one chunk).
// Dependency-free, as all of shared/core.

/** What each role may do, in one line each (the README's and /manage's words). */
export const ROLE_WORDS: Readonly<Record<CardRole, string>> = {
  owner: 'everything: set, members, profiles, removing the card',
  editor: 'set, end, cancel and series; reads everything of the card',
  viewer: 'reads the entries, the timeline and the visits; changes nothing',
};

/** A member of a card as `public.namecard_members(card)` answers it (owners only). */
export interface CardMember {
  email: string;
  role: CardRole;
  /** When they joined (ISO timestamp). */
  since: string;
  /** True for the signed-in user. */
  you: boolean;
}

/** Keeps what a member must have. */
export function isCardMember(value: unknown): value is CardMember {
  if (typeof value !== 'object' || value === null) return false;
  const { email, role, since, you } = value as Record<string, unknown>;
  return (
    typeof email === 'string' &&
    isCardRole(role) &&
    typeof since === 'string' &&
    typeof you === 'boolean'
  );
}

/**
 * A one-time invitation code as `public.namecard_member_invite` answers it: shown once (only its
 * sha256 is kept), the `member invite --json` shape.
 */
export interface Invitation {
  /** `nci_` and 32 base64url characters (192 bits). */
  code: string;
  role: CardRole;
  /** The card's slug. */
  card: string;
  /** When it stops working (ISO timestamp, the server's clock). */
  expires: string;
}

/** Keeps what an invitation must have. */
export function isInvitation(value: unknown): value is Invitation {
  if (typeof value !== 'object' || value === null) return false;
  const { code, role, card, expires } = value as Record<string, unknown>;
  return (
    typeof code === 'string' &&
    /^nci_[A-Za-z0-9_-]{32}$/.test(code) &&
    isCardRole(role) &&
    isCardSlug(card) &&
    typeof expires === 'string'
  );
}

/**
 * An open invitation code as `public.namecard_member_invites(card)` answers it (owners only): one
 * that still works (unused, not revoked, not expired, its maker still an owner). Never the code.
 */
export interface OpenInvitation {
  /** What `member revoke-invite <id>` takes. */
  id: number;
  role: CardRole;
  /** The e-mail of the owner who made it; null once their account was deleted. */
  maker: string | null;
  /** When it was made (ISO timestamp). */
  created_at: string;
  /** When it stops working (ISO timestamp, the server's clock). */
  expires_at: string;
}

/** Keeps what an open invitation must have. */
export function isOpenInvitation(value: unknown): value is OpenInvitation {
  if (typeof value !== 'object' || value === null) return false;
  const { id, role, maker, created_at, expires_at } = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(id) &&
    isCardRole(role) &&
    (maker === null || typeof maker === 'string') &&
    typeof created_at === 'string' &&
    typeof expires_at === 'string'
  );
}

/** How long an invitation works unless told otherwise: 7 days, in seconds. */
export const INVITATION_DEFAULT_SECONDS = 7 * 24 * 3600;

/** The shortest and the longest life of an invitation the server accepts, in seconds. */
export const INVITATION_SECONDS = { min: 60, max: 90 * 24 * 3600 } as const;
