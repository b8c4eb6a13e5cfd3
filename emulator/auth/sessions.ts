import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/index.js';
import { AuthError } from './errors.js';

/**
 * Sessions and refresh-token rotation, kept in auth.sessions / auth.refresh_tokens.
 * Own code: no library implements GoTrue's rotation rules, which are:
 * - every use of an active token revokes it and issues a child in the same session;
 * - a revoked token that is the parent of the session's active token gets that
 *   active token back (the client lost the previous answer);
 * - any other revoked token is accepted (a new child is issued) until
 *   `updated_at + reuseInterval`; after that the whole session's tokens are revoked
 *   and the answer is `refresh_token_already_used`;
 * - a token that does not exist (or whose session was deleted by logout) is
 *   `refresh_token_not_found`.
 */

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new legacy-format refresh token: 12 random lowercase [a-z0-9] characters. */
export function newRefreshToken(): string {
  let token = '';
  for (let i = 0; i < 12; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

/**
 * GoTrue's shape check: a token under 12 characters, or a 12-character token not
 * matching ^[a-z0-9]{12}$, is rejected before any lookup. Longer tokens would be v2
 * tokens, which this emulator never issues; they are simply not found.
 * @throws AuthError 400 validation_failed "Refresh token is not valid".
 */
export function assertRefreshTokenShape(token: string): void {
  if (token.length < 12 || (token.length === 12 && !/^[a-z0-9]{12}$/.test(token))) {
    throw new AuthError(400, 'validation_failed', 'Refresh token is not valid');
  }
}

/** A session's new refresh token, as a sign-in or a refresh hands it out. */
export interface Grant {
  /** auth.users.id (uuid). */
  userId: string;
  /** auth.sessions.id (uuid), the access token's `session_id`. */
  sessionId: string;
  /** The opaque refresh token to give the client. */
  refreshToken: string;
  /** When the session was signed in (epoch seconds), for the amr claim. */
  signedInAt: number;
}

/** Starts a session for the user and issues its first refresh token. */
export async function startSession(tx: Queryable, userId: string): Promise<Grant> {
  const [session] = await tx.query<{ id: string; signed_in_at: number }>(
    `insert into auth.sessions (user_id) values ($1)
     returning id, floor(extract(epoch from created_at))::int as signed_in_at`,
    [userId],
  );
  if (!session) throw new Error('session insert returned no row');
  const refreshToken = newRefreshToken();
  await tx.query(
    'insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)',
    [refreshToken, userId, session.id],
  );
  return { userId, sessionId: session.id, refreshToken, signedInAt: session.signed_in_at };
}

interface TokenRow {
  token: string;
  user_id: string;
  session_id: string;
  revoked: boolean;
  reusable: boolean;
  signed_in_at: number;
}

/**
 * Exchanges a refresh token for the session's next one, following the rules above.
 * Must run inside a transaction: the session row is locked so two concurrent
 * refreshes of one session are serialised.
 * @param reuseInterval seconds a revoked token stays usable after its revocation
 * @returns the grant, or `AlreadyUsed` once the session's tokens have been revoked:
 * that revocation must be committed, so the caller answers
 * refresh_token_already_used only after the transaction (GoTrue does the same).
 * @throws AuthError 400 refresh_token_not_found for an unknown token.
 */
export async function rotateRefreshToken(
  tx: Queryable,
  presented: string,
  reuseInterval: number,
): Promise<Grant | AlreadyUsed> {
  const [row] = await tx.query<TokenRow>(
    `select t.token, t.user_id, t.session_id, t.revoked,
            now() <= t.updated_at + make_interval(secs => $2) as reusable,
            floor(extract(epoch from s.created_at))::int as signed_in_at
     from auth.refresh_tokens t
     join auth.sessions s on s.id = t.session_id
     where t.token = $1
     for update of s`,
    [presented, reuseInterval],
  );
  if (!row) {
    throw new AuthError(
      400,
      'refresh_token_not_found',
      'Invalid Refresh Token: Refresh Token Not Found',
    );
  }
  const grant = (refreshToken: string): Grant => ({
    userId: row.user_id,
    sessionId: row.session_id,
    refreshToken,
    signedInAt: row.signed_in_at,
  });

  if (row.revoked) {
    const [active] = await tx.query<{ token: string; parent: string | null }>(
      `select token, parent from auth.refresh_tokens
       where session_id = $1 and not revoked order by id desc limit 1`,
      [row.session_id],
    );
    if (active && active.parent === row.token) return grant(active.token);
    if (!row.reusable) {
      await tx.query(
        `update auth.refresh_tokens set revoked = true, updated_at = now()
         where session_id = $1 and not revoked`,
        [row.session_id],
      );
      return ALREADY_USED;
    }
  } else {
    await tx.query(
      'update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1',
      [row.token],
    );
  }
  const child = newRefreshToken();
  await tx.query(
    `insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)`,
    [child, row.user_id, row.session_id, row.token],
  );
  await tx.query(
    'update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1',
    [row.session_id],
  );
  return grant(child);
}

/** Marker: the family was revoked; commit, then answer refresh_token_already_used. */
export interface AlreadyUsed {
  alreadyUsed: true;
}
const ALREADY_USED: AlreadyUsed = { alreadyUsed: true };

/**
 * GoTrue's answer to a refresh token revoked longer ago than the reuse interval: 400
 * refresh_token_already_used.
 */
export const alreadyUsedError = () =>
  new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');

/** True when the session still exists (logout deletes sessions). */
export async function sessionExists(db: Queryable, sessionId: string): Promise<boolean> {
  const rows = await db.query('select 1 from auth.sessions where id = $1', [sessionId]);
  return rows.length > 0;
}

/** Which sessions POST /logout ends (GoTrue's `scope`): see endSessions. */
export type LogoutScope = 'global' | 'local' | 'others';

/**
 * Deletes sessions (their refresh tokens go with them, on delete cascade):
 * global = all of the user's, local = this one, others = all but this one.
 */
export async function endSessions(
  db: Queryable,
  userId: string,
  sessionId: string | undefined,
  scope: LogoutScope,
): Promise<void> {
  if (scope === 'local') {
    await db.query('delete from auth.sessions where id = $1', [sessionId ?? null]);
  } else if (scope === 'others') {
    await db.query('delete from auth.sessions where user_id = $1 and id is distinct from $2', [
      userId,
      sessionId ?? null,
    ]);
  } else {
    await db.query('delete from auth.sessions where user_id = $1', [userId]);
  }
}
