import type { UserRow } from './users.js';

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

/**
 * The user object as GoTrue serialises it (models/user.go): always id, aud, role,
 * email, phone ("" when unset), app_metadata, user_metadata, identities,
 * created_at, updated_at, is_anonymous; timestamps like email_confirmed_at only when
 * set. Built field by field from a row that never holds the password hash.
 */
export function userJson(u: UserRow) {
  const email = u.email ?? '';
  const identity = {
    identity_id: u.id,
    id: u.id,
    user_id: u.id,
    identity_data: {
      email,
      email_verified: u.email_confirmed_at !== null,
      phone_verified: false,
      sub: u.id,
    },
    provider: 'email',
    last_sign_in_at: iso(u.last_sign_in_at ?? u.created_at),
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    email,
  };
  const confirmed = u.email_confirmed_at ?? u.phone_confirmed_at;
  return {
    id: u.id,
    aud: u.aud,
    role: u.role,
    email,
    email_confirmed_at: iso(u.email_confirmed_at),
    phone: u.phone ?? '',
    confirmed_at: iso(confirmed),
    last_sign_in_at: iso(u.last_sign_in_at),
    app_metadata: u.raw_app_meta_data,
    user_metadata: u.raw_user_meta_data,
    identities: u.email ? [identity] : [],
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    is_anonymous: u.is_anonymous,
  };
}
