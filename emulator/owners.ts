import type { Queryable } from './db/index.js';

/**
 * The namecard owner list (private.namecard_owner, created by the project's
 * migration). Kept apart from the GoTrue emulation, which knows nothing of it.
 */

export class UserNotFoundError extends Error {
  constructor(email: string) {
    super(`no user with email \`${email}\``);
    this.name = 'UserNotFoundError';
  }
}

/** Lists the user with this id in private.namecard_owner (no-op when listed already). */
export async function addOwner(db: Queryable, userId: string): Promise<void> {
  await db.query(
    'insert into private.namecard_owner (user_id) values ($1) on conflict (user_id) do nothing',
    [userId],
  );
}

/**
 * Lists the user with this email as an owner.
 * @returns the user's id
 * @throws UserNotFoundError when no user has this email.
 */
export async function addOwnerByEmail(db: Queryable, email: string): Promise<{ id: string }> {
  const rows = await db.query<{ id: string }>(
    'select id from auth.users where lower(email) = $1 and deleted_at is null',
    [email.trim().toLowerCase()],
  );
  const user = rows[0];
  if (!user) throw new UserNotFoundError(email.trim().toLowerCase());
  await addOwner(db, user.id);
  return user;
}

/** One line of `list-users`: never the password hash. */
export interface UserSummary {
  id: string;
  email: string | null;
  created_at: Date;
  last_sign_in_at: Date | null;
  owner: boolean;
}

/** Every user, oldest first, with whether it is an owner; never the password hash. */
export function listUsers(db: Queryable): Promise<UserSummary[]> {
  return db.query<UserSummary>(
    `select u.id, u.email, u.created_at, u.last_sign_in_at, (o.user_id is not null) as owner
     from auth.users u left join private.namecard_owner o on o.user_id = u.id
     where u.deleted_at is null
     order by u.created_at, u.id`,
  );
}
