// The native bcrypt hashes on libuv's thread pool, so a burst of sign-ins does not
// stall other requests on the event loop (a pure-JS bcrypt would).
import { availableParallelism } from 'node:os';
import bcrypt from 'bcrypt';
import pLimit from 'p-limit';
import type { Queryable } from '../db/index.js';
import { AuthError } from './errors.js';

/**
 * At most this many hashes at once: all cores but one, so that a burst of sign-ins queues
 * instead of taking every core from the requests the emulator serves meanwhile (on a loaded
 * 2-core machine, with libuv's 4 threads hashing, lookups during 100 parallel sign-ins took
 * over 300 ms).
 */
const hashing = pLimit(Math.max(1, availableParallelism() - 1));

/** bcrypt cost GoTrue uses (Go's bcrypt.DefaultCost). */
const BCRYPT_COST = 10;

let dummyHash: Promise<string> | undefined;

/**
 * A hash of nothing anyone can type, compared against when the email is unknown so
 * that an unknown email takes as long to refuse as a wrong password (otherwise the
 * answer time tells which emails have accounts).
 */
export function hashForUnknownEmail(): Promise<string> {
  dummyHash ??= hashing(() => bcrypt.hash(`unknown-email-${Math.random()}`, BCRYPT_COST));
  return dummyHash;
}

/** A row of auth.users without the password hash. */
export interface UserRow {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  phone: string | null;
  email_confirmed_at: Date | null;
  phone_confirmed_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  is_anonymous: boolean;
}

// Every read lists its columns: encrypted_password is selected only by
// checkPassword and never leaves this module.
const USER_COLUMNS = `u.id, u.aud, u.role, u.email, u.phone, u.email_confirmed_at,
  u.phone_confirmed_at, u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data,
  u.created_at, u.updated_at, u.is_anonymous`;

/** createUser was given an email an existing user has (compared case-insensitively). */
export class UserExistsError extends Error {
  constructor(email: string) {
    super(`a user with email \`${email}\` already exists`);
    this.name = 'UserExistsError';
  }
}

/** Emails are matched case-insensitively and stored lower-cased, as GoTrue does. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Validates an email address at the edge (admin CLI, programmatic API).
 * @throws Error naming `email` and the expected form.
 */
export function assertEmail(email: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) {
    throw new Error(`\`email\` must look like name@example.com, got \`${email}\``);
  }
}

/** Looks a user up by id; undefined when there is none. */
export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users u where u.id = $1 and u.deleted_at is null`,
    [id],
  );
  return rows[0];
}

/**
 * Returns the user when `password` matches the stored bcrypt hash, else undefined
 * (also for unknown emails and users without a password, after a comparison of the
 * same cost, so the time taken does not tell them apart).
 */
export async function checkPassword(
  db: Queryable,
  email: string,
  password: string,
): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow & { encrypted_password: string | null }>(
    `select ${USER_COLUMNS}, u.encrypted_password from auth.users u
     where lower(u.email) = $1 and u.deleted_at is null`,
    [normalizeEmail(email)],
  );
  const row = rows[0];
  if (password === '') return undefined;
  const hash = row?.encrypted_password;
  const against = hash || (await hashForUnknownEmail());
  const matches = await hashing(() => bcrypt.compare(password, against));
  if (!row || !hash || !matches) return undefined;
  const { encrypted_password: _hash, ...user } = row;
  return user;
}

/** Longest password in bytes (UTF-8) that may be set: bcrypt reads no further. */
export const MAX_PASSWORD_BYTES = 72;

/**
 * Refuses a password bcrypt would cut short, as GoTrue's checkPasswordStrength does
 * whenever a password is set (sign-up, admin create/update, user update): it measures
 * bytes (Go's `len`) against 72 and answers 400 `validation_failed` with the message
 * below. Nothing is ever truncated.
 * @throws AuthError 400 validation_failed "Password cannot be longer than 72 characters".
 */
export function assertPasswordLength(password: string): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw new AuthError(
      400,
      'validation_failed',
      `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`,
    );
  }
}

/** Checks a password about to be set, then hashes it. */
async function hashNewPassword(password: string): Promise<string> {
  if (password === '') throw new Error('`password` must not be empty');
  assertPasswordLength(password);
  return hashing(() => bcrypt.hash(password, BCRYPT_COST));
}

/** Inserts a confirmed email user (as the admin API does with email_confirm). */
async function insertUser(
  db: Queryable,
  email: string,
  password: string,
): Promise<{ id: string } | undefined> {
  assertEmail(email);
  const hash = await hashNewPassword(password);
  const rows = await db.query<{ id: string }>(
    `insert into auth.users (email, encrypted_password, email_confirmed_at)
     values ($1, $2, now())
     on conflict ((lower(email))) do nothing
     returning id`,
    [normalizeEmail(email), hash],
  );
  return rows[0];
}

/**
 * Creates a confirmed email user (as the admin API does with email_confirm).
 * @returns the new user's id (uuid)
 * @throws UserExistsError when the email is taken; Error when `email` is malformed
 * or `password` is empty; AuthError validation_failed when `password` is over 72 bytes.
 */
export async function createUser(
  db: Queryable,
  email: string,
  password: string,
): Promise<{ id: string }> {
  const created = await insertUser(db, email, password);
  if (!created) throw new UserExistsError(normalizeEmail(email));
  return created;
}

/**
 * Sets the password of the user with this email. When it differs from the current
 * one, every session of the user is ended (its refresh tokens go with it), as
 * GoTrue's User.UpdatePassword does on an admin password update (`Logout`: delete
 * all the user's sessions); the same password again changes nothing.
 * @returns the user's id and whether the password changed (and sessions ended)
 * @throws Error "no user with email `…`" when no user has this email; Error when
 * `password` is empty; AuthError validation_failed when it is over 72 bytes.
 */
export async function setPassword(
  db: Queryable,
  email: string,
  password: string,
): Promise<{ id: string; changed: boolean }> {
  assertEmail(email);
  if (password === '') throw new Error('`password` must not be empty');
  assertPasswordLength(password);
  const [row] = await db.query<{ id: string; encrypted_password: string | null }>(
    `select id, encrypted_password from auth.users
     where lower(email) = $1 and deleted_at is null`,
    [normalizeEmail(email)],
  );
  if (!row) throw new Error(`no user with email \`${normalizeEmail(email)}\``);
  const hash = row.encrypted_password;
  if (hash && (await hashing(() => bcrypt.compare(password, hash)))) {
    return { id: row.id, changed: false };
  }
  const newHash = await hashNewPassword(password);
  // One statement, so the new password and the ended sessions commit together.
  await db.query(
    `with changed as (
       update auth.users set encrypted_password = $2, updated_at = now() where id = $1
       returning id)
     delete from auth.sessions where user_id in (select id from changed)`,
    [row.id, newHash],
  );
  return { id: row.id, changed: true };
}

/**
 * Makes sure the user exists with exactly this password: created, or its password
 * set with setPassword (a new password ends the user's sessions).
 * Used for NAMECARD_OWNER_EMAIL/NAMECARD_OWNER_PASSWORD.
 * @returns the user's id
 * @throws Error when `email` is malformed or `password` is empty; AuthError
 * validation_failed when `password` is over 72 bytes.
 */
export async function ensureUser(
  db: Queryable,
  email: string,
  password: string,
): Promise<{ id: string }> {
  const created = await insertUser(db, email, password);
  if (created) return created;
  const { id } = await setPassword(db, email, password);
  return { id };
}

/** Records a successful sign-in. */
export async function touchLastSignIn(db: Queryable, userId: string): Promise<void> {
  await db.query('update auth.users set last_sign_in_at = now() where id = $1', [userId]);
}
