import type { Queryable } from './db/index.js';

/**
 * The owners of the card main (private.namecard_member, created by the project's migrations):
 * the deployment's first person, whom the admin makes an owner by hand (docs/deploy.md). Kept
 * apart from the GoTrue emulation, which knows nothing of cards.
 */

export class UserNotFoundError extends Error {
  constructor(email: string) {
    super(`no user with email \`${email}\``);
    this.name = 'UserNotFoundError';
  }
}

/** The card the admin's owners own: the one a bare /go/ opens. */
export const MAIN_CARD = 'main';

/**
 * Makes the user with this id an owner of the card main (a member with role owner; a member
 * already is raised to owner).
 */
export async function addOwner(db: Pick<Queryable, 'query'>, userId: string): Promise<void> {
  await db.query(
    `insert into private.namecard_member as m (card_id, user_id, role)
     select c.id, $1, 'owner' from public.namecard_card as c where c.slug = $2
     on conflict (card_id, user_id) do update set role = 'owner'`,
    [userId, MAIN_CARD],
  );
}

/**
 * Makes the user with this email an owner of the card main.
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

/** Every user, oldest first, with whether it is an owner of main; never the password hash. */
export function listUsers(db: Queryable): Promise<UserSummary[]> {
  return db.query<UserSummary>(
    `select u.id, u.email, u.created_at, u.last_sign_in_at, exists (
         select from private.namecard_member as m
         join public.namecard_card as c on c.id = m.card_id
         where m.user_id = u.id and m.role = 'owner' and c.slug = $1
       ) as owner
     from auth.users u
     where u.deleted_at is null
     order by u.created_at, u.id`,
    [MAIN_CARD],
  );
}
