/** The profiles a card can point at (spec §3, §9: "Profile types: main and photo"). */
export const PROFILE_TYPES = ['main', 'photo'] as const;

/** `main` sends visitors to the main card site, `photo` to its photo sub-path. */
export type ProfileType = (typeof PROFILE_TYPES)[number];

/** Human labels of the profiles, as the spec's manage form shows them (spec §2). */
export const PROFILE_LABELS: Readonly<Record<ProfileType, string>> = {
  main: 'Main Profile',
  photo: 'Photographer',
};

/**
 * One row of `public.namecard` as the REST API returns it.
 * `stamp_end` is epoch milliseconds; `id` grows with each insert.
 */
export interface NamecardRow {
  id: number;
  stamp_end: number;
  /** `main` or `photo` when written by the product; typed loosely because rows come from outside. */
  type: ProfileType | string;
  created_at?: string;
  created_by?: string | null;
}

/** A new entry to insert: the profile and when it ends (epoch ms). */
export interface NewEntry {
  type: ProfileType;
  stamp_end: number;
}

/** True when `value` is one of {@link PROFILE_TYPES}. */
export function isProfileType(value: unknown): value is ProfileType {
  return value === 'main' || value === 'photo';
}
