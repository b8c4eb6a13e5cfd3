/** The profiles a card can point at: `main` and `photo`. */
export const PROFILE_TYPES = ['main', 'photo'] as const;

/** `main` sends visitors to the main card site, `photo` to its photo sub-path. */
export type ProfileType = (typeof PROFILE_TYPES)[number];

/** Human labels of the profiles, as the manage form's options show them. */
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
  /** Epoch ms; `null` (or absent in old answers) means "from the moment it was stored". */
  stamp_start?: number | null;
  /** `main` or `photo` when written by the product; typed loosely because rows come from outside. */
  type: ProfileType | string;
  created_at?: string;
  created_by?: string | null;
  /** Epoch ms when the owner ended or cancelled the entry (owners' reads only). */
  stopped_at?: number | null;
  /** `ended` (by "end now") or `cancelled`; null when never stopped (owners' reads only). */
  stop_kind?: 'ended' | 'cancelled' | null;
  /** The `stamp_end` it had before it was stopped (owners' reads only). */
  planned_end?: number | null;
}

/** A new entry to insert: the profile, when it ends and optionally when it starts (epoch ms). */
export interface NewEntry {
  type: ProfileType;
  stamp_end: number;
  /** Epoch ms; `null` or absent means "from the moment it is stored". */
  stamp_start?: number | null;
}

/** True when `value` is one of {@link PROFILE_TYPES}. */
export function isProfileType(value: unknown): value is ProfileType {
  return value === 'main' || value === 'photo';
}

/**
 * The label people see for a profile type: `Photographer` for `photo`, `Main Profile` for
 * `main`; any other stored value is shown as it is.
 */
export function profileLabel(type: string): string {
  return isProfileType(type) ? PROFILE_LABELS[type] : type;
}
