import { readProfile, type StoredType } from './profiles.js';

// The profiles themselves live in the table (./profiles.ts); these names stay for callers.
export {
  PROFILE_LABELS,
  PROFILE_TYPES,
  isProfileType,
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

/**
 * The label people see for a stored type: its row's label from the server when `labels` has it,
 * else the built-in one (`Photographer`, `Main Profile`); an unknown type is shown as it is.
 *
 * @param type a stored type
 * @param labels labels by profile name, as the server answers them ({} when unknown)
 */
export function profileLabel(
  type: StoredType,
  labels: Readonly<Record<string, string>> = {},
): string {
  return Object.hasOwn(labels, type) ? labels[type]! : readProfile(type).label;
}
