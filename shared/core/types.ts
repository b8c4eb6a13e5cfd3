import type { StoredType } from './profiles.js';

// The profiles themselves live in the table (./profiles.ts); these names stay for callers.
// `profileLabel` is the one display name of a profile (profiles.ts), re-exported here.
export {
  PROFILE_LABELS,
  PROFILE_TYPES,
  isProfileType,
  profileLabel,
  type ProfileType,
  type StoredType,
  type UnknownType,
} from './profiles.js';

/**
 * One row of `public.namecard` as the REST API returns it.
 * `stamp_end` is epoch milliseconds; `id` grows with each insert.
 */
export interface NamecardRow {
  id: number;
  stamp_end: number;
  /** Epoch ms; `null` (or absent in old answers) means "from the moment it was stored". */
  stamp_start?: number | null;
  /** A profile of the table, or an unknown stored type, narrowed where the row was read. */
  type: StoredType;
  created_at?: string;
  created_by?: string | null;
  /** Epoch ms when the owner ended or cancelled the entry (owners' reads only). */
  stopped_at?: number | null;
  /** `ended` (by "end now") or `cancelled`; null when never stopped (owners' reads only). */
  stop_kind?: 'ended' | 'cancelled' | null;
  /** The `stamp_end` it had before it was stopped (owners' reads only). */
  planned_end?: number | null;
  /**
   * The profile's destination, as the active-entry lookup answers it: an absolute URL, or null
   * when the profile follows the build's settings (main and photo until given a URL).
   */
  url?: string | null;
}

/** A new entry to insert: the profile, when it ends and optionally when it starts (epoch ms). */
export interface NewEntry {
  /** A profile's name: main, photo, or one the owner added. */
  type: string;
  stamp_end: number;
  /** Epoch ms; `null` or absent means "from the moment it is stored". */
  stamp_start?: number | null;
}
