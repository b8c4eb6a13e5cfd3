import { createUser, setPassword } from './auth/users.js';
import { bootstrap } from './bootstrap.js';
import { openPglite, openPostgres, type Db } from './db/index.js';
import { applyMigrations } from './migrations.js';
import { addOwner, addOwnerByEmail, listUsers } from './owners.js';

/**
 * Opens the database the emulator would use and brings it up to date (bootstrap +
 * migrations), so the admin commands also work before the first emulator start.
 * @throws the database or migration error.
 */
export async function openAdminDb(where: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  const db = where.databaseUrl
    ? await openPostgres(where.databaseUrl, 2)
    : await openPglite(where.dataDir);
  try {
    await bootstrap(db);
    await applyMigrations(db);
    return db;
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
}

/**
 * Creates a confirmed user, optionally an owner.
 * @returns the line to print (never the password)
 * @throws when the email is taken or malformed.
 */
export async function addUserCommand(
  db: Db,
  email: string,
  password: string,
  owner: boolean,
): Promise<string> {
  const { id } = await createUser(db, email, password);
  if (owner) await addOwner(db, id);
  return `created user ${email.trim().toLowerCase()} (${id})${owner ? ' as an owner' : ''}`;
}

/**
 * Sets an existing user's password; a different one ends all the user's sessions
 * (see setPassword).
 * @returns the line to print (never the password)
 * @throws when no user has this email.
 */
export async function setPasswordCommand(db: Db, email: string, password: string): Promise<string> {
  const { id, changed } = await db.transaction((tx) => setPassword(tx, email, password));
  const who = `${email.trim().toLowerCase()} (${id})`;
  return changed
    ? `set the password of ${who}; every earlier session was signed out`
    : `${who} already has this password; nothing changed`;
}

/**
 * Lists an existing user as an owner.
 * @throws UserNotFoundError when no user has this email.
 */
export async function addOwnerCommand(db: Db, email: string): Promise<string> {
  const { id } = await addOwnerByEmail(db, email);
  return `${email.trim().toLowerCase()} (${id}) is an owner`;
}

/** A table of users: id, email, owner, created, last sign-in. No hashes. */
export async function listUsersCommand(db: Db): Promise<string> {
  const users = await listUsers(db);
  if (users.length === 0) return 'no users';
  const rows = users.map((u) => [
    u.id,
    u.email ?? '',
    u.owner ? 'owner' : '-',
    u.created_at.toISOString(),
    u.last_sign_in_at ? u.last_sign_in_at.toISOString() : 'never',
  ]);
  const header = ['id', 'email', 'owner', 'created_at', 'last_sign_in_at'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
